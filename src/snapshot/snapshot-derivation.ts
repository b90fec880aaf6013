/**
 * Work that a snapshot's user does on the thread that loads it (docs/architecture.md#snapshot-reloads).
 * The snapshot layer knows nothing of what is derived: it imports `module` on the loading
 * thread, calls its `derive` export on the fresh snapshot, sends the result with the snapshot
 * (typed arrays transferred, not copied) and hands it to `adopt` on the serving thread.
 */
import type { Snapshot } from './snapshot.ts';

export interface SnapshotDerivation {
  /** URL of a module that exports `derive(snapshot: Snapshot): unknown`. */
  readonly module: string;
  /** Takes what `derive` returned, on the serving thread, before the snapshot is prepared. */
  readonly adopt: (snapshot: Snapshot, derived: unknown) => void;
}

/** The module a SnapshotDerivation names. */
export interface SnapshotDeriver {
  derive(snapshot: Snapshot): unknown;
}
