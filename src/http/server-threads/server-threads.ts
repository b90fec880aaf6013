/**
 * The main thread's side of the server threads (docs/architecture.md#threads): starts them, each
 * a whole server (`muster serve`'s: src/cli/serve-thread.ts); posts each snapshot to every one and moves them all
 * to it once every one holds it; has them listen on one port with `reusePort`; and closes them
 * on SIGTERM, each finishing its requests in flight within the grace.
 */
import type { Worker } from 'node:worker_threads';
import type { Config } from '../../config/config.ts';
import { exportSnapshotCaches } from '../../engine/snapshot-cache.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { SnapshotStatus } from '../../snapshot/snapshot-status.ts';
import type { SnapshotHandoff } from '../../snapshot/threads/snapshot-handoff.ts';
import { typescriptWorker } from '../../snapshot/threads/typescript-worker.ts';
import type { FromServerThread, ToServerThread } from './server-thread-messages.ts';

/** A server thread that could not listen (the platform refused `reusePort`, or the port). */
export class ListenRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
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

  constructor(entry: URL, config: Config, index: number, limits: SharedArrayBuffer) {
    this.worker = typescriptWorker(entry, { workerData: { config, index, limits } });
    this.worker.on('message', (message: FromServerThread) => {
      const at = this.waiting.findIndex((w) => w.accepts(message));
      if (at >= 0) this.waiting.splice(at, 1)[0].done(message);
    });
    const stop = (error: Error) => {
      this.exited ??= error;
      for (const w of this.waiting.splice(0)) w.fail(error);
    };
    this.worker.on('error', stop);
    this.worker.on('exit', (code) => stop(new Error(`server thread ${index} exited (${code})`)));
  }

  post(message: ToServerThread): void {
    this.worker.postMessage(message);
  }

  /** The next message that `accepts` takes; rejects if the thread exits first. */
  next<M extends FromServerThread>(accepts: (m: FromServerThread) => boolean): Promise<M> {
    if (this.exited !== null) return Promise.reject(this.exited);
    return new Promise((done, fail) =>
      this.waiting.push({ accepts, done: (m) => done(m as M), fail }),
    );
  }
}

export class ServerThreads {
  private readonly threads: ServerThread[];
  private readonly tokens = new WeakMap<Snapshot, number>();
  private nextToken = 1;

  /**
   * Starts `size` threads running `entry`, a module that builds a server over `config` and
   * answers the messages of server-thread-messages.ts (`muster serve`'s: src/cli/serve-thread.ts).
   */
  constructor(
    entry: URL,
    config: Config,
    readonly size: number,
    limits: SharedArrayBuffer,
  ) {
    // The response cache's bound is the service's: each thread keeps its share of it.
    const own = { ...config, responseCacheBytes: Math.floor(config.responseCacheBytes / size) };
    this.threads = Array.from({ length: size }, (_, i) => new ServerThread(entry, own, i, limits));
  }

  /** Resolves once every thread has built its server. */
  async start(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.next((m) => m.type === 'built')));
  }

  /** Nothing is handed over by the loading thread: prepare posts each snapshot (see there). */
  handoff(): SnapshotHandoff {
    return { ports: [], received: () => undefined };
  }

  /**
   * Posts `snapshot` to every thread and, once every one has attached its caches, has them all
   * answer with it; until then each answers with the one before.
   */
  async prepare(snapshot: Snapshot): Promise<void> {
    const token = this.nextToken++;
    this.tokens.set(snapshot, token);
    // Its columns and the caches' data are on shared memory: each thread gets the small parts.
    const caches = exportSnapshotCaches(snapshot);
    await Promise.all(
      this.threads.map((t) => {
        const attached = t.next((m) => m.type === 'attached' && m.token === token);
        t.post({ type: 'snapshot', token, snapshot, caches });
        return attached;
      }),
    );
    const status = statusOf(snapshot);
    for (const t of this.threads) t.post({ type: 'serve', token, status });
  }

  /**
   * Has the first thread listen on `port` (0: any free one), then the others on the port it
   * got; resolves to the address. Rejects with ListenRefused if a thread cannot listen.
   */
  async listen(port: number): Promise<string> {
    let address = '';
    for (const t of this.threads) {
      const answer = t.next<Extract<FromServerThread, { type: 'listening' | 'refused' }>>(
        (m) => m.type === 'listening' || m.type === 'refused',
      );
      t.post({ type: 'listen', port });
      const m = await answer;
      if (m.type === 'refused') throw new ListenRefused(m.code, m.message);
      if (address === '') [address, port] = [m.address, m.port];
    }
    return address;
  }

  /** Every thread stops accepting and finishes its requests within `graceMs`, then ends. */
  async close(graceMs: number): Promise<void> {
    await Promise.all(
      this.threads.map(async (t) => {
        if (t.exited !== null) return;
        const closed = t.next((m) => m.type === 'closed').catch(() => undefined);
        t.post({ type: 'close', graceMs });
        await closed;
        await t.worker.terminate();
      }),
    );
  }
}
