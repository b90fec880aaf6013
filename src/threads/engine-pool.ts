/**
 * Engine threads over one snapshot, and how their work is scheduled (docs/architecture.md#engine-thread,
 * docs/operations.md#limits). `muster serve` answers HTTP on its main thread and runs the engine
 * calls on this pool, or runs it on the main thread for the server threads' expensive tasks
 * (engine-pool-host.ts); with one thread (the default) it is the engine of an app built alone
 * (tests, benchmarks), scheduled the same way. The snapshot's columns and its caches' data live
 * once on shared memory, so each thread adds only its own small parts
 * (docs/operations.md#engine-threads).
 *
 * Every waiting task stays here, on the serving thread; a thread is handed one task at a time
 * (two when both are cheap, so it never idles between them). That is what lets the pool keep its
 * promises under a burst:
 * - two lanes: a task that rates every game of its scope with parameters no thread has computed
 *   yet is expensive (seconds at a million games); every other task is cheap (milliseconds).
 *   A heavy task (the pairing draft: no key, nothing kept) is always expensive. Cheap tasks go
 *   first, and at most one thread fewer than the pool's (one, with one thread) runs an
 *   expensive task at a time, so a burst of expensive requests never holds every thread;
 * - each lane has its own bound on waiting tasks: a burst of expensive requests is refused with
 *   503 `busy` without taking the places of cheap ones;
 * - each client has a share of the expensive lane (client-shares.ts), past which it is refused
 *   with 429 `too-many-computations`, and clients take turns in it;
 * - a task whose every waiter has gone (its deadline passed, its client went away) is dropped if
 *   it has not started, and cancelled while it runs (cancellation.ts) unless a waiting task needs
 *   what it computes and keeps, so abandoned work does not hold a thread.
 * Ratings computed for one parameter set stay with the thread that computed them, so tasks
 * that share them go to that thread (task-placement.ts).
 */
import type { EngineTaskArgs, EngineTaskName, EngineTaskResult } from '../engine/engine-tasks.ts';
import { taskIsHeavy, taskWarmKey } from '../engine/engine-tasks.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotHandoff } from './snapshot-handoff.ts';
import type { AnswerBytes, AnswerOrder } from '../http/answer-bytes.ts';
import { abandonedBecause } from '../http/engine-runner.ts';
import type { EnginePressure, EngineRunner, TaskWaiter } from '../http/engine-runner.ts';
import { failureError } from './engine-thread-messages.ts';
import type { FromEngineThread } from './engine-thread-messages.ts';
import { ClientShares } from './client-shares.ts';
import { EngineHost } from './engine-host.ts';
import type { PostedTask } from './engine-host.ts';
import { ThreadStartError } from './start-thread.ts';
import { placement } from './task-placement.ts';

export interface EnginePoolOptions {
  /** Engine threads, at least one (default one). */
  readonly threads?: number;
  /** Cheap tasks that may wait at once over the pool (default 64); one more: 503 `busy`. */
  readonly maxQueued?: number;
  /** Expensive tasks that may wait at once (default: maxQueued / 4, at least 1); one more: 503. */
  readonly maxExpensiveQueued?: number;
  /** One client's expensive tasks that may run at once (default: half the threads, at least 1). */
  readonly clientExpensiveRunning?: number;
  /** One client's expensive tasks that may wait beyond those (default 2); one more: 429. */
  readonly clientExpensiveWaiting?: number;
  /** The module each engine thread runs (default engine-thread.ts; tests give others). */
  readonly entry?: URL;
}

/** The cheap tasks that may wait when the options do not say. */
const MAX_QUEUED = 64;

interface Job extends PostedTask {
  /** The thread it must run on (its ratings live there), or null: any. */
  readonly pinned: number | null;
  /** What it computes once and keeps (taskWarmKey), or null. */
  readonly warmKey: string | null;
  readonly expensive: boolean;
  /** The client it is counted against when expensive, or null: none. */
  readonly client: string | null;
  readonly queuedAt: number;
  resent: boolean;
  done: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Detaches the abort listener. */
  release(): void;
}

function busy(waiting: number, lane: string): ProblemError {
  return new ProblemError(
    'busy',
    `${waiting} ${lane} computations are waiting already; retry in a few seconds`,
    { headers: { 'retry-after': '2' } },
  );
}

export class EnginePool implements EngineRunner {
  private readonly workers: EngineHost[];
  /** Tasks waiting that must run on one thread, by thread. */
  private readonly own: Job[][];
  /** Cheap tasks waiting that any thread may run, oldest first. */
  private readonly shared: Job[] = [];
  /** Tasks sent to each thread since start, in thread order. */
  private readonly sent: number[];
  private readonly maxQueued: number;
  private readonly maxExpensive: number;
  private readonly clients: ClientShares;
  private cheapWaiting = 0;
  private expensiveWaiting = 0;
  private expensiveRunning = 0;
  private expensiveStarted = 0;
  private nextId = 1;
  private next = 0;
  private lastRefusedAt: number | null = null;
  private lastAbandonedAt: number | null = null;

  constructor(options: EnginePoolOptions = {}) {
    const count = Math.max(1, options.threads ?? 1);
    const events = {
      settled: (worker: EngineHost, message: Exclude<FromEngineThread, { ready: true }>) =>
        this.settled(worker, message),
      stopped: (_worker: EngineHost, lost: PostedTask[], cause: Error) =>
        this.stopped(lost as Job[], cause),
    };
    this.workers = Array.from({ length: count }, () => new EngineHost(events, options.entry));
    this.own = this.workers.map(() => []);
    this.sent = this.workers.map(() => 0);
    this.maxQueued = options.maxQueued ?? MAX_QUEUED;
    this.maxExpensive = options.maxExpensiveQueued ?? Math.max(1, Math.floor(this.maxQueued / 4));
    this.clients = new ClientShares(
      options.clientExpensiveRunning ?? Math.max(1, Math.floor(this.workers.length / 2)),
      options.clientExpensiveWaiting ?? 2,
    );
  }

  /** How many engine threads the pool runs. */
  get size(): number {
    return this.workers.length;
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
    return this.enqueue(waiter, undefined, task, snapshot, args) as Promise<EngineTaskResult<K>>;
  }

  answer<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    order: AnswerOrder,
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<AnswerBytes> {
    return this.enqueue(waiter, order, task, snapshot, args) as Promise<AnswerBytes>;
  }

  /**
   * Queues `task` in its lane, or refuses it: with 429 `too-many-computations` when it is
   * expensive and its client holds its whole share already, with 503 `busy` when its lane is
   * full (docs/operations.md#limits).
   */
  private enqueue<K extends EngineTaskName>(
    waiter: TaskWaiter | undefined,
    answer: AnswerOrder | undefined,
    task: K,
    snapshot: Snapshot,
    args: EngineTaskArgs<K>,
  ): Promise<unknown> {
    const signal = waiter?.signal;
    if (signal?.aborted) return Promise.reject(abandonedBecause(signal));
    const loads = () => this.workers.map((w, i) => w.inFlight.length + this.own[i].length);
    const pinned = placement(task, args, loads, this.next);
    const warmKey = taskWarmKey(task, args);
    const expensive =
      taskIsHeavy(task) ||
      (warmKey !== null && pinned !== null && !this.workers[pinned].isWarm(warmKey, snapshot));
    const client = expensive ? (waiter?.client ?? null) : null;
    const refusal = this.clients.refusal(client);
    if (refusal !== null) {
      this.lastRefusedAt = Date.now();
      return Promise.reject(refusal);
    }
    if (
      expensive ? this.expensiveWaiting >= this.maxExpensive : this.cheapWaiting >= this.maxQueued
    ) {
      this.lastRefusedAt = Date.now();
      return Promise.reject(
        busy(expensive ? this.expensiveWaiting : this.cheapWaiting, expensive ? 'expensive' : ''),
      );
    }
    const spec = { task, args, snapshot, pinned, warmKey, expensive, client };
    return this.submit(signal, answer === undefined ? spec : { ...spec, answer });
  }

  start(): Promise<void> {
    return Promise.all(this.workers.map((worker) => worker.start())).then(() => undefined);
  }

  /**
   * Every thread as a receiver of the next snapshot loaded: the loading thread posts it to each
   * (snapshot-handoff.ts), so this thread copies none of it (docs/architecture.md#engine-thread).
   */
  handoff(): SnapshotHandoff {
    const expected = this.workers.map((worker) => worker.expect());
    return {
      ports: expected.map((e) => e.port),
      received: (snapshot) => {
        for (const e of expected) e.received(snapshot);
      },
    };
  }

  /**
   * Resolves once every thread holds `snapshot` and has attached its caches: a reload swaps in
   * a snapshot that every thread already holds. A thread that was not handed it by the loading
   * thread is posted it here, one after another (each post copies the snapshot's small parts on
   * this thread).
   */
  async prepare(snapshot: Snapshot): Promise<void> {
    const attached: Promise<unknown>[] = [];
    for (let i = 0; i < this.workers.length; i++) {
      attached.push(
        this.submit(undefined, {
          task: 'warm',
          args: [],
          snapshot,
          pinned: i,
          warmKey: null,
          expensive: false,
          client: null,
        }),
      );
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(attached);
  }

  queued(): number {
    return this.cheapWaiting + this.expensiveWaiting + this.running();
  }

  private running(): number {
    return this.workers.reduce((sum, worker) => sum + worker.inFlight.length, 0);
  }

  pressure(): EnginePressure {
    const running = this.running();
    let oldest = Number.POSITIVE_INFINITY;
    for (const job of this.shared) oldest = Math.min(oldest, job.queuedAt);
    for (const jobs of this.own) for (const job of jobs) oldest = Math.min(oldest, job.queuedAt);
    return {
      waiting: this.cheapWaiting + this.expensiveWaiting,
      running,
      oldestWaitMs: oldest === Number.POSITIVE_INFINITY ? 0 : performance.now() - oldest,
      lastRefusedAt: this.lastRefusedAt,
      lastAbandonedAt: this.lastAbandonedAt,
    };
  }

  /** Expensive tasks started since the pool was made: what was computed to be kept. */
  expensiveComputations(): number {
    return this.expensiveStarted;
  }

  /** Tasks sent to each thread since the pool was made, in thread order. */
  tasksPerThread(): number[] {
    return [...this.sent];
  }

  async close(): Promise<void> {
    const waiting = [...this.shared, ...this.own.flat()];
    this.shared.length = 0;
    for (const jobs of this.own) jobs.length = 0;
    this.cheapWaiting = 0;
    this.expensiveWaiting = 0;
    for (const job of waiting) this.clients.count(job, -1, 0);
    for (const job of waiting) this.finish(job, new Error('the engine thread was closed'), false);
    await Promise.all(this.workers.map((worker) => worker.close()));
  }

  private submit(
    signal: AbortSignal | undefined,
    spec: Pick<
      Job,
      'task' | 'args' | 'snapshot' | 'pinned' | 'warmKey' | 'expensive' | 'client' | 'answer'
    >,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const job: Job = {
        ...spec,
        id: this.nextId++,
        seq: 0,
        queuedAt: performance.now(),
        resent: false,
        done: false,
        resolve,
        reject,
        release: () => undefined,
      };
      if (signal !== undefined) {
        const onAbort = () => this.abandon(job, abandonedBecause(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        job.release = () => signal.removeEventListener('abort', onAbort);
      }
      if (job.pinned === null) this.shared.push(job);
      else this.own[job.pinned].push(job);
      if (job.expensive) this.expensiveWaiting++;
      else this.cheapWaiting++;
      this.clients.count(job, 1, 0);
      this.pump();
    });
  }

  /** Hands waiting tasks to threads that can take them: idle threads first, in turn. */
  private pump(): void {
    const count = this.workers.length;
    let moved = true;
    while (moved) {
      moved = false;
      const turn = this.clients.turn(this.own, (i) => this.workers[i].inFlight.length === 0);
      for (const depth of [0, 1]) {
        for (let k = 0; k < count; k++) {
          const index = (this.next + k) % count;
          const worker = this.workers[index];
          if (worker.inFlight.length !== depth) continue;
          const job = this.nextFor(index, worker, turn);
          if (job === null) continue;
          this.dispatch(index, worker, job);
          moved = true;
        }
      }
    }
    this.next = (this.next + 1) % count;
  }

  /**
   * The task thread `index` runs next: its oldest cheap task; else, when it is idle, the lane
   * has room and it is its `turn` (ClientShares.turn: clients take turns over every thread's
   * queue), its expensive task of the client served least recently. A thread busy with an
   * expensive task takes nothing more, so a cheap task never waits behind one.
   */
  private nextFor(index: number, worker: EngineHost, turn: number): Job | null {
    const inFlight = worker.inFlight as Job[];
    if (inFlight.length >= 2 || (inFlight.length === 1 && inFlight[0].expensive)) return null;
    const own = this.own[index];
    const ownCheap = own.findIndex((job) => !job.expensive);
    const shared = this.shared[0];
    if (ownCheap >= 0 && (shared === undefined || own[ownCheap].id < shared.id)) {
      return own.splice(ownCheap, 1)[0];
    }
    if (shared !== undefined) return this.shared.shift()!;
    const cap = Math.max(1, this.workers.length - 1);
    if (inFlight.length > 0 || this.expensiveRunning >= cap || index !== turn) return null;
    const chosen = this.clients.next(own);
    return chosen < 0 ? null : own.splice(chosen, 1)[0];
  }

  private dispatch(index: number, worker: EngineHost, job: Job): void {
    if (job.expensive) {
      this.expensiveWaiting--;
      this.expensiveRunning++;
      this.expensiveStarted++;
      this.clients.count(job, -1, 1);
    } else {
      this.cheapWaiting--;
    }
    this.sent[index]++;
    worker.post(job);
  }

  /** Every waiter of `job` has gone: drop it if it waits, cancel it if it runs. */
  private abandon(job: Job, reason: unknown): void {
    if (job.done) return;
    this.lastAbandonedAt = Date.now();
    const queue = job.pinned === null ? this.shared : this.own[job.pinned];
    const waiting = queue.indexOf(job);
    if (waiting >= 0) {
      queue.splice(waiting, 1);
      if (job.expensive) this.expensiveWaiting--;
      else this.cheapWaiting--;
      this.clients.count(job, -1, 0);
    } else if (!this.neededByAnother(job)) {
      // Running: its thread stays busy with it until the next check (cancellation.ts).
      for (const worker of this.workers) if (worker.inFlight.includes(job)) worker.cancel(job);
    }
    this.finish(job, reason, false);
  }

  /**
   * Whether a waiting task needs what running `job` computes and keeps (its warm key): it then
   * runs on for that task, so a computation longer than one deadline completes while requests
   * for it keep coming (docs/operations.md#limits).
   */
  private neededByAnother(job: Job): boolean {
    if (job.warmKey === null || job.pinned === null) return false;
    return this.own[job.pinned].some((other) => other.warmKey === job.warmKey);
  }

  private settled(worker: EngineHost, message: Exclude<FromEngineThread, { ready: true }>) {
    const job = worker.take(message.id) as Job | undefined;
    if (job === undefined) return;
    if ('missing' in message && !job.resent && !job.done) {
      // The worker had already let the snapshot go (two reloads during this request): send
      // it again, once.
      job.resent = true;
      worker.forget(job.snapshot);
      worker.post(job);
      return;
    }
    if (job.expensive) this.expensiveRunning--;
    this.clients.count(job, 0, -1);
    if ('result' in message) {
      if (job.warmKey !== null) worker.noteWarm(job.warmKey, job.snapshot);
      this.finish(job, message.result, true);
    } else if ('failure' in message) {
      this.finish(job, failureError(message.failure), false);
    } else if ('cancelled' in message) {
      this.finish(job, new ProblemError('timeout', 'the computation was cancelled'), false);
    } else {
      this.finish(job, new Error('engine thread: the snapshot of the request is gone'), false);
    }
    this.pump();
  }

  private stopped(lost: Job[], cause: Error): void {
    // A thread that could not start says why itself (start-thread.ts).
    const error =
      cause instanceof ThreadStartError
        ? cause
        : new Error(`the engine thread stopped: ${cause.message}`);
    for (const job of lost) {
      if (job.expensive) this.expensiveRunning--;
      this.clients.count(job, 0, -1);
      this.finish(job, error, false);
    }
    // The next task starts another worker.
    queueMicrotask(() => this.pump());
  }

  private finish(job: Job, value: unknown, ok: boolean): void {
    if (job.done) return;
    job.done = true;
    job.release();
    if (ok) job.resolve(value);
    else job.reject(value);
  }
}
