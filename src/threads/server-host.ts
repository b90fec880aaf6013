/**
 * The main thread's side of the server threads (docs/architecture.md#threads): starts them, each
 * a whole server (`muster serve`'s: src/threads/server-thread.ts); posts each snapshot to every one
 * and moves them all to it once every one holds it; has them listen on one port with
 * `reusePort`; gathers their metrics for a scrape; starts a thread that dies again, on the
 * snapshot served and the same port; and closes them on SIGTERM, each finishing its requests
 * in flight within the grace.
 */
import { MessageChannel } from 'node:worker_threads';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import type { Config } from '../config/config.ts';
import { exportSnapshotCaches } from '../engine/snapshot-cache.ts';
import type { SnapshotCacheData } from '../engine/snapshot-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotStatus } from '../snapshot/snapshot-status.ts';
import type { SnapshotHandoff } from './snapshot-handoff.ts';
import { startThread } from './start-thread.ts';
import type { MetricsData } from '../http/metrics.ts';
import type {
  FromServerThread,
  ServerThreadData,
  ToServerThread,
} from './server-thread-messages.ts';
import type { EnginePoolHost } from './engine-pool-host.ts';
import { ThreadRoster, releaseThread } from './shared-limits.ts';
import { releaseDeadThread } from './shared-response-cache.ts';

/** A server thread that could not listen (the platform refused `reusePort`, or the port). */
export class ListenRefused extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = 'ListenRefused';
  }
}

/** The status health reports of `snapshot` (as SnapshotManager.status does). */
function statusOf(s: Snapshot): SnapshotStatus {
  const { dataVersion, games, sides, lists, loadedAt, loadMs, bytes } = s;
  return { dataVersion, games, sides, lists, loadedAt, loadMs, bytes };
}

/** One server thread as the main thread sees it. */
class ServerThread {
  readonly worker: Worker;
  private readonly waiting: Array<{
    accepts: (m: FromServerThread) => boolean;
    done: (m: FromServerThread) => void;
    fail: (e: Error) => void;
  }> = [];
  /** Set once it has exited, with why. */
  exited: Error | null = null;
  /** Whether it was told to close (an exit is then no death). */
  closing = false;

  constructor(
    entry: URL,
    workerData: object,
    transferList: NonNullable<WorkerOptions['transferList']>,
    onExit: (thread: ServerThread) => void,
  ) {
    this.worker = startThread(entry, { workerData, transferList });
    this.worker.on('message', (message: FromServerThread) => {
      const at = this.waiting.findIndex((w) => w.accepts(message));
      if (at >= 0) this.waiting.splice(at, 1)[0].done(message);
    });
    const stop = (error: Error) => {
      if (this.exited !== null) return;
      this.exited = error;
      for (const w of this.waiting.splice(0)) w.fail(error);
      onExit(this);
    };
    this.worker.on('error', stop);
    this.worker.on('exit', (code) => stop(new Error(`server thread exited (${code})`)));
  }

  post(message: ToServerThread): void {
    if (this.exited === null) this.worker.postMessage(message);
  }

  /** The next message that `accepts` takes; rejects if the thread exits first. */
  next<M extends FromServerThread>(accepts: (m: FromServerThread) => boolean): Promise<M> {
    if (this.exited !== null) return Promise.reject(this.exited);
    return new Promise((done, fail) =>
      this.waiting.push({ accepts, done: (m) => done(m as M), fail }),
    );
  }

  /** Posts `snapshot` under `token`; resolves once the thread has attached it. */
  attach(token: number, snapshot: Snapshot, caches: SnapshotCacheData): Promise<unknown> {
    const attached = this.next((m) => m.type === 'attached' && m.token === token);
    this.post({ type: 'snapshot', token, snapshot, caches });
    return attached;
  }

  /** Has it listen on `port`; rejects with ListenRefused when it cannot. */
  async listen(port: number): Promise<{ address: string; port: number }> {
    const answer = this.next<Extract<FromServerThread, { type: 'listening' | 'refused' }>>(
      (m) => m.type === 'listening' || m.type === 'refused',
    );
    this.post({ type: 'listen', port });
    const m = await answer;
    if (m.type === 'refused') throw new ListenRefused(m.code, m.message);
    return m;
  }
}

export interface ServerHostOptions {
  /**
   * A module that builds a server over the config it is given and answers the messages of
   * server-thread-messages.ts (`muster serve`'s: src/threads/server-thread.ts).
   */
  readonly entry: URL;
  readonly config: Config;
  readonly size: number;
  /** The shared memory of shared-limits.ts, made for `size` threads. */
  readonly limits: SharedArrayBuffer;
  /**
   * The response cache's one store for every thread (shared-response-cache.ts), of the
   * service's MUSTER_RESPONSE_CACHE_MB; null when the cache is off.
   */
  readonly cache: SharedArrayBuffer | null;
  /** The one engine pool every thread sends its tasks with a warm key to (engine-pool-host.ts). */
  readonly engines: EnginePoolHost;
  /** Told when a thread died and was started again. */
  readonly onRestart?: (index: number, cause: Error) => void;
}

export class ServerHost {
  readonly size: number;
  readonly roster: ThreadRoster;
  private readonly threads: ServerThread[];
  private readonly config: Config;
  private nextToken = 1;
  private nextMetrics = 1;
  /** What every thread answers with, and the port they listen on, once known. */
  private serving: { token: number; snapshot: Snapshot } | null = null;
  private port: number | null = null;
  private closing = false;

  private readonly options: ServerHostOptions;
  constructor(options: ServerHostOptions) {
    this.options = options;
    this.size = options.size;
    this.roster = new ThreadRoster(options.limits, options.size);
    this.config = options.config;
    this.threads = Array.from({ length: options.size }, (_, i) => this.startThread(i));
  }

  private startThread(index: number): ServerThread {
    this.roster.mark(index, 'starting');
    const { entry, limits, size, engines, cache } = this.options;
    // A thread started again gets a channel of its own; the dead one's closes with it.
    const { port1, port2 } = new MessageChannel();
    engines.attach(port1);
    const { pressure } = engines;
    const config = this.config;
    const data: ServerThreadData = {
      config,
      index,
      threads: size,
      limits,
      cache,
      pressure,
      pool: port2,
    };
    return new ServerThread(entry, data, [port2], (thread) => {
      port1.close();
      this.exited(index, thread);
    });
  }

  /** A thread ended: on its own (it died), it is started again where it was. */
  private exited(index: number, thread: ServerThread): void {
    this.roster.mark(index, 'stopped');
    // Ended while it held the cache's lock (terminated mid-request): the others wait no more.
    if (this.options.cache !== null) releaseDeadThread(this.options.cache, index);
    if (thread.closing || this.closing || this.threads[index] !== thread) return;
    releaseThread(this.options.limits, this.options.size, index);
    const fresh = this.startThread(index);
    this.threads[index] = fresh;
    this.options.onRestart?.(index, thread.exited!);
    void this.resume(fresh).catch(() => undefined);
  }

  /** Brings a thread started again to where the others are: the snapshot served, the port. */
  private async resume(thread: ServerThread): Promise<void> {
    await thread.next((m) => m.type === 'built');
    const serving = this.serving;
    if (serving !== null) {
      await thread.attach(serving.token, serving.snapshot, exportSnapshotCaches(serving.snapshot));
      thread.post({ type: 'serve', token: serving.token, status: statusOf(serving.snapshot) });
    }
    if (this.port !== null) await thread.listen(this.port);
  }

  /** Resolves once every thread has built its server. */
  async start(): Promise<void> {
    await Promise.all([
      this.options.engines.pool.start(),
      ...this.threads.map((t) => t.next((m) => m.type === 'built')),
    ]);
  }

  /**
   * The engine pool's threads as receivers of the next snapshot loaded; the server threads are
   * handed nothing by the loading thread: prepare posts each snapshot (see there).
   */
  handoff(): SnapshotHandoff {
    return this.options.engines.handoff();
  }

  /**
   * Posts `snapshot` to every thread and, once every one has attached its caches, has them all
   * answer with it; until then each answers with the one before.
   */
  async prepare(snapshot: Snapshot): Promise<void> {
    const token = this.nextToken++;
    // Its columns and the caches' data are on shared memory: each thread gets the small parts.
    const caches = exportSnapshotCaches(snapshot);
    await Promise.all([
      this.options.engines.prepare(token, snapshot),
      ...this.threads.map((t) => t.attach(token, snapshot, caches)),
    ]);
    this.serving = { token, snapshot };
    const status = statusOf(snapshot);
    for (const t of this.threads) t.post({ type: 'serve', token, status });
  }

  /**
   * Has the first thread listen on `port` (0: any free one), then the others on the port it
   * got; resolves to the address. Rejects with ListenRefused if a thread cannot listen.
   */
  async listen(port: number): Promise<string> {
    const first = await this.threads[0].listen(port);
    this.port = first.port;
    for (const t of this.threads.slice(1)) await t.listen(first.port);
    return first.address;
  }

  /** Every thread's metrics, for a scrape of the whole service (metrics.ts). */
  metrics(): Promise<MetricsData[]> {
    const id = this.nextMetrics++;
    return Promise.all(
      this.threads.map(async (t) => {
        const answer = t.next<Extract<FromServerThread, { type: 'metrics' }>>(
          (m) => m.type === 'metrics' && m.id === id,
        );
        t.post({ type: 'metrics', id });
        // A thread that died meanwhile counts nothing in this scrape.
        return answer.then((m) => m.data).catch(() => []);
      }),
    );
  }

  /** Ends thread `index` abruptly, as a crash would; it is started again (tests). */
  async terminate(index: number): Promise<void> {
    await this.threads[index].worker.terminate();
  }

  /** Every thread stops accepting and finishes its requests within `graceMs`, then ends. */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.threads.map(async (t) => {
        t.closing = true;
        const closed = t.next((m) => m.type === 'closed').catch(() => undefined);
        t.post({ type: 'close', graceMs });
        await closed;
        await t.worker.terminate();
      }),
    );
    await this.options.engines.close();
  }
}
