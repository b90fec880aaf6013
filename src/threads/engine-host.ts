/**
 * One engine thread as the pool sees it, the parent's side of engine-thread.ts
 * (docs/architecture.md#engine-thread): starts it (bundled, start-thread.ts) on first use,
 * posts it each snapshot once under a token (its columns live on shared memory when the
 * snapshot was built on the loading thread, so posting copies only its small parts), posts it
 * the tasks the pool hands over (at most two at once, so the pool keeps every waiting task and
 * can drop or reorder it), and marks a task cancelled in a shared cell that the worker reads
 * before and while running it. When the worker dies, the pool is told which tasks it held; the
 * next task starts another. A thread that cannot start (its code does not bundle) is to the pool
 * one that died at once, the ThreadStartError its cause: start() rejects with it and each task
 * posted fails with it.
 */
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { EngineTaskName } from '../engine/engine-tasks.ts';
import { exportSnapshotCaches } from '../engine/snapshot-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { AnswerOrder } from '../http/answer-bytes.ts';
import { startThread } from './start-thread.ts';
import { CANCEL_CELLS, KEPT_SNAPSHOTS } from './engine-thread-messages.ts';
import type { FromEngineThread, ToEngineThread } from './engine-thread-messages.ts';

/** What the pool posts to a worker; `seq` is set when posted. */
export interface PostedTask {
  readonly id: number;
  readonly task: EngineTaskName;
  readonly args: unknown[];
  readonly snapshot: Snapshot;
  /** For an answer, how to write its bytes on the engine thread (answer-bytes.ts); else absent. */
  readonly answer?: AnswerOrder;
  /** The dispatch number the worker's cancel cell is checked against; 0 until posted. */
  seq: number;
}

export interface EngineHostEvents {
  /** A message about a task this worker was posted. */
  settled(worker: EngineHost, message: Exclude<FromEngineThread, { ready: true }>): void;
  /** The worker stopped; `lost` are the tasks it held. */
  stopped(worker: EngineHost, lost: PostedTask[], cause: Error): void;
}

/** The module every engine thread runs. */
const ENGINE_THREAD = new URL('./engine-thread.ts', import.meta.url);

/** Parameter sets whose ratings a worker is taken to keep (leaderboard.ts keeps 32). */
const WARM_KEYS = 32;

export class EngineHost {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly tokens = new WeakMap<Snapshot, number>();
  /** Tokens the current worker holds, oldest first. */
  private readonly held: number[] = [];
  private nextToken = 1;
  private nextSeq = 1;
  /** The cells the worker reads a task's cancellation from, indexed by seq % CANCEL_CELLS. */
  private readonly cancelCells = new Int32Array(
    new SharedArrayBuffer(CANCEL_CELLS * Int32Array.BYTES_PER_ELEMENT),
  );
  /** Routes whose answer format the current worker has been sent. */
  private readonly formats = new Set<string>();
  /** Rating keys this worker has computed, with the snapshot token they were computed on. */
  private readonly warm = new Map<string, number>();
  /** Tasks posted and not yet answered, in posting order. */
  readonly inFlight: PostedTask[] = [];

  private readonly events: EngineHostEvents;
  private readonly entry: URL;
  /**
   * @param events where the pool hears of its tasks and of the thread stopping
   * @param entry the module the thread runs (engine-thread.ts; another in tests)
   */
  constructor(events: EngineHostEvents, entry: URL = ENGINE_THREAD) {
    this.events = events;
    this.entry = entry;
  }

  /** Starts the worker (once); resolves when it has loaded, rejects when it cannot start. */
  start(): Promise<void> {
    try {
      this.started();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.ready!;
  }

  /**
   * Posts `task` to the worker, with its snapshot first if the worker does not hold it. When the
   * worker cannot start, the pool is told the task was lost (EngineHostEvents.stopped).
   */
  post(task: PostedTask): void {
    let worker: Worker;
    try {
      worker = this.started();
    } catch (error) {
      this.events.stopped(this, [task], error as Error);
      return;
    }
    // Never 0 (an unset cell) and, with at most two tasks in flight, never two alike per cell.
    task.seq = this.nextSeq;
    this.nextSeq = (this.nextSeq % 0x3fffffff) + 1;
    Atomics.store(this.cancelCells, task.seq % CANCEL_CELLS, 0);
    const token = this.tokenOf(task.snapshot);
    if (!this.held.includes(token)) {
      // The caches' data goes along: on shared memory, every engine thread reads one copy.
      const caches = exportSnapshotCaches(task.snapshot);
      this.postMessage(worker, { type: 'snapshot', token, snapshot: task.snapshot, caches });
      this.hold(token);
    }
    const answer = task.answer;
    if (answer !== undefined && !this.formats.has(answer.format.route)) {
      // Once per route and worker: the serialiser's schema is tens of kilobytes to clone.
      this.postMessage(worker, { type: 'format', format: answer.format });
      this.formats.add(answer.format.route);
    }
    this.inFlight.push(task);
    this.postMessage(worker, {
      type: 'task',
      id: task.id,
      seq: task.seq,
      token,
      task: task.task,
      args: task.args,
      ...(answer === undefined
        ? {}
        : {
            answer: {
              route: answer.format.route,
              encodings: answer.encodings,
              ...(answer.plain === false ? { plain: false as const } : {}),
            },
          }),
    });
  }

  /** Asks the worker to drop `task`: before it starts, or at its next check while it runs. */
  cancel(task: PostedTask): void {
    if (task.seq !== 0) Atomics.store(this.cancelCells, task.seq % CANCEL_CELLS, task.seq);
  }

  /** Removes `id` from the tasks in flight; the task, or undefined when not held here. */
  take(id: number): PostedTask | undefined {
    const index = this.inFlight.findIndex((task) => task.id === id);
    return index < 0 ? undefined : this.inFlight.splice(index, 1)[0];
  }

  /** Forgets that the worker holds `snapshot` (it said it had let it go): the next post resends it. */
  forget(snapshot: Snapshot): void {
    const held = this.held.indexOf(this.tokenOf(snapshot));
    if (held >= 0) this.held.splice(held, 1);
  }

  /** Whether this worker has computed the ratings keyed `key` on `snapshot`. */
  isWarm(key: string, snapshot: Snapshot): boolean {
    const token = this.tokens.get(snapshot);
    return token !== undefined && this.warm.get(key) === token;
  }

  /** Notes that this worker now keeps the ratings keyed `key` on `snapshot`. */
  noteWarm(key: string, snapshot: Snapshot): void {
    this.warm.delete(key);
    this.warm.set(key, this.tokenOf(snapshot));
    if (this.warm.size > WARM_KEYS) this.warm.delete(this.warm.keys().next().value as string);
  }

  /**
   * Announces a snapshot the loading thread will post to the worker on the returned port
   * (snapshot-handoff.ts); once `received` names this thread's copy of it, tasks on it are
   * posted without the snapshot. A worker that was restarted meanwhile is sent it again.
   */
  expect(): { port: MessagePort; received: (snapshot: Snapshot) => void } {
    const worker = this.started();
    const token = this.nextToken++;
    const { port1, port2 } = new MessageChannel();
    this.postMessage(worker, { type: 'receive', token, port: port1 }, [port1]);
    const received = (snapshot: Snapshot) => {
      if (this.worker !== worker || this.tokens.has(snapshot)) return;
      this.tokens.set(snapshot, token);
      this.hold(token);
    };
    return { port: port2, received };
  }

  /** Stops the worker; the pool is told of the tasks it held. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === null) return;
    this.lose(worker, new Error('the engine thread was closed'));
    await worker.terminate();
  }

  /** Notes that the worker keeps `token`, within the window it keeps. */
  private hold(token: number): void {
    this.held.push(token);
    this.held.splice(0, Math.max(0, this.held.length - KEPT_SNAPSHOTS));
  }

  private postMessage(worker: Worker, message: ToEngineThread, transfer: MessagePort[] = []) {
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
    const worker = startThread(this.entry, { bundled: true });
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
    worker.on('message', (message: FromEngineThread) => {
      if (!('ready' in message)) this.events.settled(this, message);
    });
    worker.on('error', (error) => this.lose(worker, new Error(`stopped: ${error.message}`)));
    worker.on('exit', (code) => this.lose(worker, new Error(`exited with code ${code}`)));
    this.worker = worker;
    this.postMessage(worker, { type: 'cells', cells: this.cancelCells });
    return worker;
  }

  private lose(worker: Worker, cause: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
    this.held.length = 0;
    this.formats.clear();
    this.warm.clear();
    const lost = this.inFlight.splice(0);
    this.events.stopped(this, lost, cause);
  }
}
