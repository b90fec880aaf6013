/**
 * The engine calls of a server thread, the server thread's side of engine-pool-host.ts
 * (docs/architecture.md#threads): a light task without a
 * warm key is computed here, on the thread that took its request (local-engine.ts); a task with
 * one (taskWarmKey: possibly seconds of work, kept once computed) or a heavy one (taskIsHeavy:
 * the pairing draft, work of its own each call) is sent to the main thread's one engine pool
 * (engine-pool-host.ts), so it neither holds this thread's other connections nor escapes the
 * expensive lane's bounds and each client's share over the whole service. A heavy task's
 * arguments travel in its message only: nothing here or there is keyed by them.
 */
import type { MessagePort } from 'node:worker_threads';
import type { EngineTaskArgs, EngineTaskName, EngineTaskResult } from '../engine/engine-tasks.ts';
import { taskLeavesThread } from '../engine/engine-tasks.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { AnswerBytes, AnswerOrder } from '../http/answer-bytes.ts';
import { abandonedBecause } from '../http/engine-runner.ts';
import type { EnginePressure, EngineRunner, TaskWaiter } from '../http/engine-runner.ts';
import { poolError } from './engine-pool-host.ts';
import { LocalEngine } from './local-engine.ts';
import { readPressure } from './shared-pressure.ts';
import type { FromEnginePoolHost, ToEnginePoolHost } from './server-thread-messages.ts';

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class EnginePoolThread implements EngineRunner {
  private readonly local = new LocalEngine();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private readonly port: MessagePort;
  private readonly tokenOf: (snapshot: Snapshot) => number;
  private readonly poolPressure?: SharedArrayBuffer;
  /**
   * @param port this thread's end of the channel to the main thread's pool
   * @param tokenOf the token the main thread posted `snapshot` under (thread-snapshots.ts)
   * @param poolPressure where the main thread publishes its pool's pressure (shared-pressure.ts)
   */
  constructor(
    port: MessagePort,
    tokenOf: (snapshot: Snapshot) => number,
    poolPressure?: SharedArrayBuffer,
  ) {
    this.port = port;
    this.tokenOf = tokenOf;
    this.poolPressure = poolPressure;
    port.on('message', (message: FromEnginePoolHost) => {
      const pending = this.pending.get(message.id);
      if (pending === undefined) return;
      this.pending.delete(message.id);
      if (message.type === 'failure') pending.reject(poolError(message.failure));
      else pending.resolve(message.type === 'answer' ? message.bytes : message.result);
    });
  }

  /** Sends `task` to the pool; resolves to its answer's bytes (`order`) or its result. */
  private remote(
    waiter: TaskWaiter | undefined,
    order: AnswerOrder | null,
    task: EngineTaskName,
    snapshot: Snapshot,
    args: readonly unknown[],
  ): Promise<unknown> {
    const signal = waiter?.signal;
    if (signal?.aborted === true) return Promise.reject(abandonedBecause(signal));
    const id = this.nextId++;
    const token = this.tokenOf(snapshot);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.post({ type: 'cancel', id });
        reject(abandonedBecause(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const release = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (value) => (release(), resolve(value)),
        reject: (error) => (release(), reject(error)),
      });
      const client = waiter?.client ?? null;
      this.post({ type: 'task', id, token, task, args, client, order });
    });
  }

  private post(message: ToEnginePoolHost): void {
    this.port.postMessage(message);
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
    if (!taskLeavesThread(task, args)) {
      return this.local.runAbortable(waiter, task, snapshot, ...args);
    }
    return this.remote(waiter, null, task, snapshot, args) as Promise<EngineTaskResult<K>>;
  }

  answer<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    order: AnswerOrder,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<AnswerBytes> {
    if (!taskLeavesThread(task, args)) {
      return this.local.answer(waiter, order, task, snapshot, ...args);
    }
    return this.remote(waiter, order, task, snapshot, args) as Promise<AnswerBytes>;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  prepare(): Promise<void> {
    return Promise.resolve();
  }

  /** This thread's tasks computing here or sent to the pool and not yet answered. */
  queued(): number {
    return this.local.queued() + this.pending.size;
  }

  /**
   * The main thread's pool's waits and refusals, which every server thread's tasks share, and
   * what runs there or here: health's engine:queue check says the same on every thread.
   */
  pressure(): EnginePressure {
    const local = this.local.pressure();
    if (this.poolPressure === undefined) return { ...local, running: this.queued() };
    const pool = readPressure(this.poolPressure);
    return { ...pool, running: pool.running + local.running };
  }

  /** Tasks still sent to the pool fail: this thread is closing. */
  close(): Promise<void> {
    for (const pending of this.pending.values())
      pending.reject(new Error('the server thread closed'));
    this.pending.clear();
    this.port.close();
    return Promise.resolve();
  }
}
