/**
 * The main thread's side of the one engine pool of the server threads (docs/architecture.md#threads):
 * every task that has a warm key (taskWarmKey: ratings of a parameter set, a joint model; up to
 * seconds at a million games) is sent here by the server thread that took its request, and run on
 * one EnginePool for the whole process. So it never holds a server thread's event loop, what it
 * computes and keeps is computed once for the service (the pool pins a warm key to the thread that
 * keeps it), and the expensive lane's bounds and each client's share hold over every thread, as
 * in the one-serving-thread mode (docs/operations.md#limits).
 */
import type { MessagePort } from 'node:worker_threads';
import { DomainError } from '../domain/domain-error.ts';
import type { EngineTaskName } from '../engine/engine-tasks.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotHandoff } from './snapshot-handoff.ts';
import { transferListOf } from '../http/answer-bytes.ts';
import type { AnswerBytes } from '../http/answer-bytes.ts';
import type { EnginePool } from './engine-pool.ts';
import { KEPT_SNAPSHOTS } from './engine-thread-messages.ts';
import { PUBLISH_EVERY_MS, publishPressure, sharedPressureBuffer } from './shared-pressure.ts';
import type {
  FromEnginePoolHost,
  PoolFailure,
  ToEnginePoolHost,
} from './server-thread-messages.ts';

/** `error` as it crosses to a server thread. */
export function poolFailure(error: unknown): PoolFailure {
  if (error instanceof ProblemError) {
    const { kind, message, headers, errors } = error;
    return { kind: 'problem', problem: kind, detail: message, headers: { ...headers }, errors };
  }
  if (error instanceof DomainError) {
    return { kind: 'domain', domain: error.kind, detail: error.message, fields: [...error.fields] };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: 'error', detail: e.message, stack: e.stack };
}

/** The error a server thread rethrows for `failure`: the same problem, the same status. */
export function poolError(failure: PoolFailure): Error {
  if (failure.kind === 'problem') {
    return new ProblemError(failure.problem, failure.detail, {
      headers: failure.headers,
      errors: failure.errors,
    });
  }
  if (failure.kind === 'domain') {
    return new DomainError(failure.domain, failure.detail, failure.fields);
  }
  const error = new Error(`engine pool: ${failure.detail}`);
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}

export class EnginePoolHost {
  /** The pool's pressure for every server thread's health (shared-pressure.ts). */
  readonly pressure = sharedPressureBuffer();
  private readonly publisher: NodeJS.Timeout;
  /** The snapshots the server threads may ask about, by the token they were posted under. */
  private readonly kept = new Map<number, Snapshot>();
  /** Each port's tasks in flight, to abort when a server thread cancels one or goes. */
  private readonly inFlight = new Map<MessagePort, Map<number, AbortController>>();

  readonly pool: EnginePool;
  constructor(pool: EnginePool) {
    this.pool = pool;
    const publish = () => publishPressure(this.pressure, pool.pressure());
    this.publisher = setInterval(publish, PUBLISH_EVERY_MS).unref();
  }

  /** The pool's threads as receivers of the next snapshot loaded (EnginePool.handoff). */
  handoff(): SnapshotHandoff {
    return this.pool.handoff();
  }

  /** Has every engine thread hold `snapshot` and keeps it under `token` for the server threads. */
  async prepare(token: number, snapshot: Snapshot): Promise<void> {
    await this.pool.prepare(snapshot);
    this.kept.set(token, snapshot);
    for (const old of [...this.kept.keys()].slice(0, -KEPT_SNAPSHOTS)) this.kept.delete(old);
  }

  /** Serves the tasks a server thread sends on `port` until it closes. */
  attach(port: MessagePort): void {
    const tasks = new Map<number, AbortController>();
    this.inFlight.set(port, tasks);
    port.on('message', (message: ToEnginePoolHost) => {
      if (message.type === 'cancel') tasks.get(message.id)?.abort();
      else void this.run(port, tasks, message);
    });
    port.on('close', () => {
      this.inFlight.delete(port);
      for (const controller of tasks.values()) controller.abort();
    });
  }

  private async run(
    port: MessagePort,
    tasks: Map<number, AbortController>,
    message: Extract<ToEnginePoolHost, { type: 'task' }>,
  ): Promise<void> {
    const { id, token, task, args, client, order } = message;
    const controller = new AbortController();
    tasks.set(id, controller);
    const reply = (m: FromEnginePoolHost, transferList: ArrayBuffer[] = []) => {
      if (this.inFlight.has(port)) port.postMessage(m, transferList);
    };
    try {
      const snapshot = this.kept.get(token);
      if (snapshot === undefined) throw new Error('the snapshot of the request is gone');
      const waiter = { signal: controller.signal, client: client ?? undefined };
      const call = (order === null ? this.pool.runAbortable : this.pool.answer).bind(this.pool) as (
        ...a: unknown[]
      ) => Promise<unknown>;
      if (order === null) {
        const result = await call(waiter, task as EngineTaskName, snapshot, ...args);
        reply({ type: 'result', id, result });
      } else {
        const bytes = (await call(waiter, order, task, snapshot, ...args)) as AnswerBytes;
        reply({ type: 'answer', id, bytes }, transferListOf(bytes));
      }
    } catch (error) {
      reply({ type: 'failure', id, failure: poolFailure(error) });
    } finally {
      tasks.delete(id);
    }
  }

  /** Tasks waiting for or running on the pool. */
  queued(): number {
    return this.pool.queued();
  }

  close(): Promise<void> {
    clearInterval(this.publisher);
    return this.pool.close();
  }
}
