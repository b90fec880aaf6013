/**
 * The engine's part of an off-loop reload (docs/architecture.md#snapshot-reloads): the thread
 * that loads a snapshot also builds every engine cache's data, and the serving thread adopts it,
 * so that its warm-up only attaches (linear in events, not in games).
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { DerivedPart, SnapshotDerivation } from '../snapshot/snapshot-derivation.ts';
import { adoptSnapshotCaches, exportSnapshotCaches } from './snapshot-cache.ts';
import type { SnapshotCacheData } from './snapshot-cache.ts';
import { WARM_PARTS } from './warm-engine.ts';

/**
 * The caches split into this many parts, each built without the others
 * (src/threads/derive-host.ts).
 */
export const parts = WARM_PARTS.length;

/**
 * On a loading thread: builds the caches of part `part` of `of` (the warm-up's parts taken
 * round-robin, all of them when `of` is 1) and returns their data.
 */
export function derive(snapshot: Snapshot, part = 0, of = 1): DerivedPart {
  WARM_PARTS.forEach((steps, i) => {
    if (i % of === part) for (const step of steps) step(snapshot);
  });
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
