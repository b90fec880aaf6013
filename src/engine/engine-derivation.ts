/**
 * The engine's part of an off-loop reload (docs/architecture.md#snapshot-reloads): the thread
 * that loads a snapshot also builds every engine cache's data, and the serving thread adopts it,
 * so that its warm-up only attaches (linear in events, not in games).
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotDerivation } from '../snapshot/snapshot-derivation.ts';
import { adoptSnapshotCaches, exportSnapshotCaches } from './snapshot-cache.ts';
import type { SnapshotCacheData } from './snapshot-cache.ts';
import { warmEngine } from './warm-engine.ts';

/** On the loading thread: builds every engine cache of `snapshot` and returns their data. */
export function derive(snapshot: Snapshot): SnapshotCacheData {
  warmEngine(snapshot);
  return exportSnapshotCaches(snapshot);
}

/** Builds the engine's caches where snapshots are loaded (a worker thread), adopts them here. */
export const engineDerivation: SnapshotDerivation = {
  module: import.meta.url,
  adopt: (snapshot, derived) => {
    if (typeof derived === 'object' && derived !== null) {
      adoptSnapshotCaches(snapshot, derived as SnapshotCacheData);
    }
  },
};
