/**
 * Work that a snapshot's user does on the thread that loads it (docs/architecture.md#snapshot-reloads).
 * The snapshot layer knows nothing of what is derived: it imports `module` on the loading
 * thread, calls its `derive` export on the fresh snapshot, sends the result with the snapshot
 * (typed arrays on shared memory, not copied) and hands it to `adopt` on the serving thread.
 */
import type { Snapshot } from './snapshot.ts';

export interface SnapshotDerivation {
  /** URL of a module that exports what SnapshotDeriver describes. */
  readonly module: string;
  /** Takes what `derive` returned, on the serving thread, before the snapshot is prepared. */
  readonly adopt: (snapshot: Snapshot, derived: unknown) => void;
}

/** What the derived data of one part is: plain data by key, merged with the other parts'. */
export type DerivedPart = Readonly<Record<string, unknown>>;

/** The module a SnapshotDerivation names. */
export interface SnapshotDeriver {
  /**
   * How many parts the derivation splits into at most, each needing none of the others, so
   * that the loading thread can run them on that many threads at once (src/threads/derive-host.ts).
   */
  readonly parts: number;
  /**
   * Derives part `part` of `parts` (`parts` between 1 and the module's `parts`; every part
   * when it is 1). The parts' results are merged by key: a key that two parts both derive
   * (a small input they share) must hold the same data in both, and either is kept.
   */
  derive(snapshot: Snapshot, part: number, parts: number): DerivedPart;
}
