/**
 * Runs engine calls on a worker thread, so that the serving thread keeps answering every other
 * request meanwhile (docs/architecture.md#engine-thread); `muster serve` runs a pool of them
 * (engine-pool.ts). The worker starts on first use.
 * Each snapshot is posted to it once under a token; its columns live on shared memory when the
 * snapshot was built on the loading thread, so posting copies only its small parts. Tasks queue
 * in the worker and run one after another; when the worker dies, the tasks waiting on it fail
 * and the next task starts another.
 */
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';
import { DomainError } from '../../domain/domain-error.ts';
import type {
  EngineTaskArgs,
  EngineTaskName,
  EngineTaskResult,
} from '../../engine/engine-tasks.ts';
import { exportSnapshotCaches } from '../../engine/snapshot-cache.ts';
import { ProblemError } from '../../errors/problem.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { SnapshotHandoff, SnapshotReceivers } from '../../snapshot/snapshot-handoff.ts';
import { bundledWorker } from './bundled-worker.ts';
import { KEPT_SNAPSHOTS } from './engine-thread-messages.ts';
import type { FailureMessage, FromEngineThread, ToEngineThread } from './engine-thread-messages.ts';

interface Pending {
  readonly task: EngineTaskName;
  readonly args: unknown[];
  readonly snapshot: Snapshot;
  resent: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface EngineThreadOptions {
  /** Tasks that may wait at once; one more is refused with 503 `busy`. */
  readonly maxQueued: number;
}

/**
 * Where the statistics routes run their engine calls (docs/architecture.md#engine-thread): one
 * engine thread, or a pool of them (engine-pool.ts).
 */
export interface EngineRunner extends SnapshotReceivers {
  /** Runs `task` against `snapshot` off the serving thread. */
  run<K extends EngineTaskName>(
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>>;
  /** Starts the thread(s); resolves once they have loaded. */
  start(): Promise<void>;
  /** Hands `snapshot` to every thread and attaches its caches there, before it is served. */
  prepare(snapshot: Snapshot): Promise<void>;
  /** Tasks sent and not yet answered. */
  queued(): number;
  /** Stops the thread(s); tasks still waiting fail. */
  close(): Promise<void>;
}

function errorOf(failure: FailureMessage): Error {
  if (failure.domain) return new DomainError(failure.kind, failure.message, failure.fields);
  const error = new Error(`engine thread: ${failure.message}`);
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}

export class EngineThread implements EngineRunner {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly tokens = new WeakMap<Snapshot, number>();
  /** Tokens the current worker holds, oldest first. */
  private readonly held: number[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextToken = 1;
  private nextId = 1;

  constructor(private readonly options: EngineThreadOptions = { maxQueued: 64 }) {}

  /** Runs `task` on the engine thread against (its copy of) `snapshot`. */
  run<K extends EngineTaskName>(
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>> {
    if (this.pending.size >= this.options.maxQueued) {
      return Promise.reject(
        new ProblemError(
          'busy',
          `${this.pending.size} long computations are waiting already; retry in a few seconds`,
          { headers: { 'retry-after': '2' } },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, {
        task,
        args,
        snapshot,
        resent: false,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.send(id);
    });
  }

  /**
   * Starts the worker and resolves once it has loaded (about half a second under tsx), so that
   * the first long request does not wait for it; `muster serve` calls this at start.
   */
  start(): Promise<void> {
    this.started();
    return this.ready!;
  }

  /** Posts `snapshot` now and attaches its caches on the thread (a reload, before the swap). */
  async prepare(snapshot: Snapshot): Promise<void> {
    await this.run('warm', snapshot);
  }

  /** This thread as the one receiver of the next snapshot loaded (snapshot-handoff.ts). */
  handoff(): SnapshotHandoff {
    const { port, received } = this.expect();
    return { ports: [port], received };
  }

  /**
   * Announces a snapshot the loading thread will post to the engine thread on the returned port
   * (docs/architecture.md#engine-thread); once `received` names this thread's copy of it, tasks
   * on it are sent without the snapshot. A thread that was restarted meanwhile is sent it again.
   */
  expect(): { port: MessagePort; received: (snapshot: Snapshot) => void } {
    const worker = this.started();
    const token = this.nextToken++;
    const { port1, port2 } = new MessageChannel();
    this.post(worker, { type: 'receive', token, port: port1 }, [port1]);
    const received = (snapshot: Snapshot) => {
      if (this.worker !== worker || this.tokens.has(snapshot)) return;
      this.tokens.set(snapshot, token);
      this.hold(token);
    };
    return { port: port2, received };
  }

  /** Tasks sent and not yet answered. */
  queued(): number {
    return this.pending.size;
  }

  /** One thread. */
  readonly size = 1;

  /** Stops the worker; tasks still waiting fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.forget(new Error('the engine thread was closed'));
    await worker?.terminate();
  }

  private send(id: number): void {
    const { task, args, snapshot } = this.pending.get(id)!;
    const worker = this.started();
    const token = this.tokenOf(snapshot);
    if (!this.held.includes(token)) {
      // The caches' data goes along: on shared memory, every engine thread reads one copy.
      const caches = exportSnapshotCaches(snapshot);
      this.post(worker, { type: 'snapshot', token, snapshot, caches });
      this.hold(token);
    }
    this.post(worker, { type: 'task', id, token, task, args });
  }

  /** Notes that the worker keeps `token`, within the window it keeps. */
  private hold(token: number): void {
    this.held.push(token);
    this.held.splice(0, Math.max(0, this.held.length - KEPT_SNAPSHOTS));
  }

  private post(worker: Worker, message: ToEngineThread, transfer: MessagePort[] = []): void {
    worker.postMessage(message, transfer);
  }

  private tokenOf(snapshot: Snapshot): number {
    let token = this.tokens.get(snapshot);
    if (token === undefined) {
      token = this.nextToken++;
      this.tokens.set(snapshot, token);
    }
    return token;
  }

  private started(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = bundledWorker(new URL('./engine-thread-worker.ts', import.meta.url));
    // An idle engine thread must not keep the process alive (tests, CLI commands).
    worker.unref();
    this.ready = new Promise((resolve, reject) => {
      const onReady = (message: FromEngineThread) => {
        if (!('ready' in message)) return;
        worker.off('message', onReady);
        resolve();
      };
      worker.on('message', onReady);
      worker.once('exit', () => reject(new Error('the engine thread exited while starting')));
    });
    // A start nobody awaits must not be an unhandled rejection.
    this.ready.catch(() => undefined);
    worker.on('message', (message: FromEngineThread) => this.settle(message));
    worker.on('error', (error) => this.stopped(worker, error));
    worker.on('exit', (code) => this.stopped(worker, new Error(`exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private settle(message: FromEngineThread): void {
    if ('ready' in message) return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    if ('missing' in message && !pending.resent) {
      // The worker had already let the snapshot go (two reloads during this request): send
      // it again, once.
      pending.resent = true;
      const held = this.held.indexOf(this.tokenOf(pending.snapshot));
      if (held >= 0) this.held.splice(held, 1);
      this.send(message.id);
      return;
    }
    this.pending.delete(message.id);
    if ('result' in message) pending.resolve(message.result);
    else if ('failure' in message) pending.reject(errorOf(message.failure));
    else pending.reject(new Error('engine thread: the snapshot of the request is gone'));
  }

  private stopped(worker: Worker, cause: Error): void {
    if (this.worker !== worker) return;
    this.forget(new Error(`the engine thread stopped: ${cause.message}`));
  }

  private forget(error: Error): void {
    this.worker = null;
    this.ready = null;
    this.held.length = 0;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const pending of waiting) pending.reject(error);
  }
}
