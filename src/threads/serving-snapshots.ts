/**
 * The snapshot manager a serving process runs (docs/architecture.md#snapshot-reloads): a
 * snapshot is loaded on a worker thread, which builds the engine's caches too, so the serving
 * thread only adopts them and attaches in short steps while the previous snapshot keeps
 * answering. A store only this thread can open (in-memory SQLite) is loaded and warmed here.
 */
import { availableParallelism } from 'node:os';
import { engineDerivation } from '../engine/engine-derivation.ts';
import { warmEngineInSteps } from '../engine/warm-engine.ts';
import { markPhase } from '../snapshot/load-phases.ts';
import { loadSnapshot } from '../snapshot/load-snapshot.ts';
import { canLoadInWorker, snapshotLoaderFor, spareLoader } from './load-snapshot-host.ts';
import type { SpareLoader } from './load-snapshot-host.ts';
import type { EngineRunner } from '../http/engine-runner.ts';
import type { SnapshotReceivers } from './snapshot-handoff.ts';
import { SnapshotManager } from '../snapshot/snapshot-manager.ts';
import type { SnapshotManagerOptions } from '../snapshot/snapshot-manager.ts';
import type { Store } from '../store/store.ts';

export interface ServingSnapshotsOptions extends Omit<SnapshotManagerOptions, 'load' | 'prepare'> {
  /** Told the longest step of each warm-up on the serving thread, in milliseconds. */
  onWarm?: (longestStepMs: number) => void;
  /**
   * Where the engine calls run: each new snapshot is posted to its threads by the loading thread,
   * and they attach its caches before it is swapped in (docs/architecture.md#engine-thread).
   */
  engines?: Pick<EngineRunner, 'prepare'> & SnapshotReceivers;
  /** The snapshot file (docs/architecture.md#the-snapshot-file), or null for none. */
  snapshotFile?: string | null;
  /** Told what a load did without, such as why the snapshot file was not used. */
  onNote?: (note: string) => void;
}

/** A SnapshotManager for `store` (at `databaseUrl`) that never builds on the serving thread. */
export function servingSnapshots(
  store: Store,
  databaseUrl: string,
  options: ServingSnapshotsOptions,
): SnapshotManager {
  const { onWarm, engines, snapshotFile = null, onNote, ...rest } = options;
  // The loading thread posts each snapshot to the engine threads itself (snapshot-handoff.ts).
  const loadOptions = (threads: number) => ({
    derivation: engineDerivation,
    receivers: engines,
    file: snapshotFile,
    onNote,
    threads,
  });
  // The first load has every core (nothing is served yet); a reload leaves one to the threads
  // that answer meanwhile: on PostgreSQL, whose server processes read for the load too, a
  // reload on every core made health requests wait half a second on 2 cores.
  const cores = availableParallelism();
  const first = snapshotLoaderFor(databaseUrl, loadSnapshot, loadOptions(cores));
  // Reloads take a loading thread started ahead, once the first load is done: a watched
  // folder's change is served without a thread's start-up (docs/operations.md#watching-a-folder).
  let later: SpareLoader | null = null;
  return new SnapshotManager(store, {
    ...rest,
    load: async (from) => {
      if (later !== null) return later.load();
      const snapshot = await first(from);
      if (canLoadInWorker(databaseUrl)) {
        later = spareLoader(databaseUrl, loadOptions(Math.max(1, cores - 1)));
      }
      return snapshot;
    },
    close: () => later?.close(),
    prepare: async (snapshot) => {
      const longest = await warmEngineInSteps(snapshot);
      onWarm?.(longest);
      markPhase((snapshot.loadPhases ??= {}), 'warmed');
      await engines?.prepare(snapshot);
      markPhase(snapshot.loadPhases, 'handedOver');
    },
  });
}
