/**
 * What the engine knows of one statistic (docs/architecture.md#adding-a-statistics-route): its
 * engine task, the per-snapshot caches it reads, and, where it keeps what it computes, how
 * requests that share that work find the thread that has it. The engine threads' tasks
 * (engine-tasks.ts) and the warm-up's parts (warm-engine.ts) are derived from the list of these
 * (statistics.ts); the HTTP route that answers with it names its task.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';

/** A warm-up step: builds (or attaches) one per-snapshot cache (snapshot-cache.ts). */
export type WarmStep = (snapshot: Snapshot) => unknown;

/** A statistic's one engine function: a pure function of a snapshot and plain arguments. */
export type StatisticRun = (snapshot: Snapshot, ...args: never) => unknown;

/** The arguments of `F` after its snapshot. */
export type ArgsAfterSnapshot<F> = F extends (snapshot: Snapshot, ...args: infer A) => unknown
  ? A
  : never;

export interface Statistic<N extends string = string, F extends StatisticRun = StatisticRun> {
  /** The engine task's name: unique, the name the engine threads run it by. */
  readonly task: N;
  readonly run: F;
  /**
   * The caches it reads beyond the common filter's, in the warm-up's two parts, which are
   * built on two threads at once (engine-derivation.ts): a heavy cache goes where it keeps
   * the parts of about the same cost (the benchmark's load section measures them). A cache
   * that reads another cache is listed with it in the same part.
   */
  readonly caches: readonly [first: readonly WarmStep[], second: readonly WarmStep[]];
  /**
   * Which engine thread should run a call, when it matters: what the call computes once and
   * keeps, keyed, so that calls sharing it go to the thread that has it. Absent, or null for a
   * call: any thread.
   */
  affinity?(args: ArgsAfterSnapshot<F>): string | null;
  /**
   * What a call computes once and keeps when that is the bulk of its cost (a thread that has
   * it answers in milliseconds, one that has not may take seconds): such a call is scheduled
   * as expensive until its thread has it (docs/operations.md#limits). Absent, or null for a
   * call: always cheap.
   */
  warmKey?(args: ArgsAfterSnapshot<F>): string | null;
  /**
   * True: every call is CPU work of its own, enough to hold a thread, and keeps nothing (the
   * pairing draft of a matrix the request carries): it never runs on the thread that took the
   * request and is always scheduled as expensive, yet it has no key, so nothing of its arguments
   * is kept or remembered beyond the call (docs/team-pairing.md#privacy).
   */
  readonly heavy?: true;
}

/** Declares a statistic, keeping its task's name and its function's type. */
export function statistic<const N extends string, F extends StatisticRun>(
  declared: Statistic<N, F>,
): Statistic<N, F> {
  return declared;
}
