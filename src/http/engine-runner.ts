/**
 * Where the statistics routes run their engine calls (docs/architecture.md#engine-thread), as the
 * HTTP edge sees it: the app is given one (src/threads: a pool of engine threads, or a server
 * thread's own engine) and never asks which thread computes.
 */
import type { EngineTaskArgs, EngineTaskName, EngineTaskResult } from '../engine/engine-tasks.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { AnswerBytes, AnswerOrder } from './answer-bytes.ts';

/** How well the engine threads keep up, for health (docs/operations.md#limits). */
export interface EnginePressure {
  /** Tasks waiting for a thread. */
  readonly waiting: number;
  /** Tasks running or handed to a thread. */
  readonly running: number;
  /** How long the oldest waiting task has waited, in milliseconds (0: none waits). */
  readonly oldestWaitMs: number;
  /** When a task was last refused with 503 `busy` (epoch ms), or null. */
  readonly lastRefusedAt: number | null;
  /** When a task was last dropped or cancelled because nobody waited any more, or null. */
  readonly lastAbandonedAt: number | null;
}

/**
 * Who waits for a task (docs/operations.md#limits): its abort signal, and the client its work is
 * counted against.
 */
export interface TaskWaiter {
  /**
   * Aborts once nobody waits for the task: it is then dropped if it has not started, or
   * cancelled while it runs.
   */
  readonly signal?: AbortSignal;
  /**
   * The client that asked for it (rate-limit.ts clientKey): its expensive tasks are held to a
   * share of the expensive lane. None: the task is not counted against any client.
   */
  readonly client?: string;
}

/** Why a task that nobody waits for any more was given up (docs/operations.md#limits): the signal's own reason, unless it gave none. */
export function abandonedBecause(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name !== 'AbortError'
    ? reason
    : new ProblemError('timeout', 'the request was abandoned before its answer was ready');
}

export interface EngineRunner {
  /** Runs `task` against `snapshot` off the serving thread. */
  run<K extends EngineTaskName>(
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>>;
  /**
   * As run, for a caller that may stop waiting: when `waiter.signal` aborts, the task is
   * dropped if it has not started, or cancelled while it runs, and the promise rejects with the
   * signal's reason. An expensive task of a client past its share is refused with 429
   * `too-many-computations`.
   */
  runAbortable<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>>;
  /**
   * As runAbortable, for a statistics answer: the thread that computes it also wraps it in the
   * envelope, serialises it and compresses it as `order` says, and hands the bytes over
   * without a copy (docs/architecture.md#engine-thread).
   */
  answer<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    order: AnswerOrder,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<AnswerBytes>;
  /** Starts the thread(s); resolves once they have loaded. */
  start(): Promise<void>;
  /** Hands `snapshot` to every thread and attaches its caches there, before it is served. */
  prepare(snapshot: Snapshot): Promise<void>;
  /** Tasks sent and not yet answered. */
  queued(): number;
  /** How well the threads keep up (health's engine:queue check). */
  pressure(): EnginePressure;
  /** Stops the thread(s); tasks still waiting fail. */
  close(): Promise<void>;
}
