/**
 * Threads that take each loaded snapshot straight from the thread that loads it
 * (docs/architecture.md#engine-thread). Posting a snapshot copies its parts that are not on
 * shared memory (ids, names, dictionaries, the event index): done by the serving thread for
 * each engine thread, that copy held HTTP for as long as it took. Posted by the loading thread
 * instead, the serving thread only learns afterwards that the receivers have it.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Snapshot } from '../snapshot/snapshot.ts';

/** What the loading thread posts on each port: the snapshot and what was derived from it. */
export interface HandedSnapshot {
  readonly snapshot: Snapshot;
  readonly derived: unknown;
}

/** One load's receivers. */
export interface SnapshotHandoff {
  /** Ports the loading thread posts a HandedSnapshot to, before it answers this thread. */
  readonly ports: readonly MessagePort[];
  /** This thread's copy of the snapshot the receivers were posted; called once, on success. */
  received(snapshot: Snapshot): void;
}

/** Whoever wants each snapshot from the loading thread: asked once per load. */
export interface SnapshotReceivers {
  handoff(): SnapshotHandoff;
}
