/**
 * The engine calls of a server thread (docs/architecture.md#threads): each answer is computed on
 * the thread that took its connection, on the snapshot that thread holds (its columns and cache
 * data on shared memory), and its bytes made there too, so an ordinary answer never waits for a
 * hop to another thread.
 */
import { TaskCancelled, withCancellation } from '../engine/cancellation.ts';
import type { EngineResult } from '../engine/engine-result.ts';
import { ENGINE_TASKS } from '../engine/engine-tasks.ts';
import type { EngineTaskArgs, EngineTaskName, EngineTaskResult } from '../engine/engine-tasks.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { AnswerSerialisers, answerBytes } from '../http/answer-bytes.ts';
import type { AnswerBytes, AnswerOrder } from '../http/answer-bytes.ts';
import type { EnginePressure, EngineRunner, TaskWaiter } from '../http/engine-runner.ts';

/** An EngineRunner that computes on the calling thread. */
export class LocalEngine implements EngineRunner {
  private readonly serialisers = new AnswerSerialisers();
  private running = 0;

  /** Runs `task` now, on this thread. */
  private compute<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    task: K,
    snapshot: Snapshot,
    args: EngineTaskArgs<K>,
  ): EngineTaskResult<K> {
    const signal = waiter?.signal;
    if (signal?.aborted === true) throw signal.reason;
    const run = ENGINE_TASKS[task] as (s: Snapshot, ...a: unknown[]) => EngineTaskResult<K>;
    this.running++;
    try {
      return withCancellation(
        () => signal?.aborted === true,
        () => run(snapshot, ...args),
      );
    } catch (error) {
      if (error instanceof TaskCancelled && signal !== undefined) throw signal.reason;
      throw error;
    } finally {
      this.running--;
    }
  }

  run<K extends EngineTaskName>(
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>> {
    return this.runAbortable(undefined, task, snapshot, ...args);
  }

  runAbortable<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>> {
    try {
      return Promise.resolve(this.compute(waiter, task, snapshot, args));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  answer<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    order: AnswerOrder,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<AnswerBytes> {
    try {
      const result = this.compute(waiter, task, snapshot, args);
      return Promise.resolve(
        answerBytes(
          snapshot,
          result as EngineResult<unknown, unknown>,
          this.serialisers.of(order.format),
          order.encodings,
          order.plain !== false,
        ),
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  prepare(): Promise<void> {
    return Promise.resolve();
  }

  queued(): number {
    return this.running;
  }

  pressure(): EnginePressure {
    return {
      waiting: 0,
      running: this.running,
      oldestWaitMs: 0,
      lastRefusedAt: null,
      lastAbandonedAt: null,
    };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
