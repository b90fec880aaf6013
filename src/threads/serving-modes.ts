/**
 * How `muster serve` serves (docs/operations.md#threads): MUSTER_THREADS server threads that each
 * listen on the service port with `reusePort` and answer their own connections end to end, or,
 * where the platform refuses `reusePort`, the store is open to the main thread only, or one
 * thread is asked for, the main thread serving with a pool of engine threads. Chosen once, at
 * start, and said in the line that gives the address.
 */
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { availableParallelism } from 'node:os';
import Fastify from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { SnapshotSource } from '../http/app-context.ts';
import { buildApp } from '../http/app.ts';
import { EnginePool } from './engine-pool.ts';
import type { EngineRunner } from '../http/engine-runner.ts';
import type { SnapshotReceivers } from './snapshot-handoff.ts';
import { closeGracefully } from '../http/graceful-close.ts';
import type { ServiceMetrics } from '../http/metrics.ts';
import { EnginePoolHost } from './engine-pool-host.ts';
import { ServerHost } from './server-host.ts';
import { sharedLimitsBuffer } from './shared-limits.ts';
import { sharedCacheBuffer } from './shared-response-cache.ts';
import { parseDatabaseUrl } from '../store/store.ts';
import type { Store } from '../store/store.ts';

/** The module each server thread runs. */
const SERVE_THREAD = new URL('./server-thread.ts', import.meta.url);

/** Tasks that may wait for the engine threads at once; one more is a 503 `busy`. */
const ENGINE_QUEUE = 64;

export interface ServingMode {
  /** Server threads listening on the port; 0: the main thread serves. */
  readonly serverThreads: number;
  /** Engine threads the main thread computes on when it serves. */
  readonly engineThreads: number;
  /** What runs, and why when it is not one server per thread: said once, at start. */
  readonly description: string;
}

/** How many threads `serve` runs: MUSTER_THREADS, 0 meaning one per core. */
export function threadCount(config: Config): number {
  return config.threads === 0 ? availableParallelism() : config.threads;
}

function listening(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, reusePort: true }, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/**
 * Why two listeners of this process cannot share a port on `host` (Node throws on platforms
 * without SO_REUSEPORT), or null when they can: tried with two servers on a free port.
 */
export async function reusePortRefusal(host: string): Promise<string | null> {
  const [first, second] = [createServer(), createServer()];
  try {
    await listening(second, await listening(first, 0, host), host);
    return null;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return `${e.code ?? 'error'}: ${e.message ?? String(error)}`;
  } finally {
    for (const server of [first, second]) if (server.listening) server.close();
  }
}

/** The mode `serve` runs in for `config`, `refusal` saying whether `reusePort` works here. */
export async function servingMode(
  config: Config,
  refusal: (host: string) => Promise<string | null>,
): Promise<ServingMode> {
  const threads = threadCount(config);
  const one = (why: string): ServingMode => ({
    serverThreads: 0,
    engineThreads: threads,
    description: `one serving thread and ${threads} engine thread${threads === 1 ? '' : 's'}: ${why}`,
  });
  if (threads === 1) return one('MUSTER_THREADS is 1');
  const { dialect, target } = parseDatabaseUrl(config.databaseUrl);
  if (dialect === 'sqlite' && target === ':memory:') {
    return one('an in-memory store is open to the main thread only');
  }
  const refused = await refusal(config.host);
  if (refused !== null) return one(`the threads cannot share the port here (${refused})`);
  return {
    serverThreads: threads,
    engineThreads: 0,
    description: `${threads} server threads on the one port`,
  };
}

/** What serves, as `serve` drives it. */
export interface RunningServer {
  readonly log: FastifyBaseLogger;
  /** Resolves once it can take the snapshot and listen. */
  start(): Promise<void>;
  /** Listens on the service port; resolves to its address. */
  listen(): Promise<string>;
  /** Stops accepting and finishes requests in flight within `graceMs`. */
  close(graceMs: number): Promise<void>;
  /** The server threads, when they serve. */
  readonly threads?: ServerHost;
}

/** The serving side of `mode`: who receives each snapshot, and the server built over them. */
export function startServing(
  config: Config,
  store: Store,
  mode: ServingMode,
  metrics: ServiceMetrics,
): {
  receivers: Pick<EngineRunner, 'prepare'> & SnapshotReceivers;
  build(snapshots: SnapshotSource): Promise<RunningServer>;
} {
  if (mode.serverThreads > 0) {
    // The main thread answers nothing, but logs what it does (loads, shutdown) as the app would.
    const { log } = Fastify({ logger: { level: config.logLevel } });
    // Tasks with a warm key run on one pool for the service, with the lanes and shares of the
    // one-serving-thread mode (engine-pool-host.ts); half the threads leave the rest serving.
    const engines = new EnginePoolHost(
      new EnginePool({
        threads: Math.max(1, Math.floor(mode.serverThreads / 2)),
        maxQueued: ENGINE_QUEUE,
      }),
    );
    const threads = new ServerHost({
      engines,
      entry: SERVE_THREAD,
      config,
      size: mode.serverThreads,
      limits: sharedLimitsBuffer(mode.serverThreads),
      // One store for every thread, of the whole MUSTER_RESPONSE_CACHE_MB.
      cache: config.responseCacheBytes > 0 ? sharedCacheBuffer(config.responseCacheBytes) : null,
      onRestart: (index, cause) =>
        log.error({ thread: index, err: cause }, 'a server thread died; started it again'),
    });
    metrics.watch({
      roster: threads.roster,
      threads: () => threads.metrics(),
      // Each server thread counts its own tasks, those it sent to the pool included.
      engines: {
        queued: () => 0,
        size: mode.serverThreads,
        expensive: () => engines.pool.expensiveComputations(),
      },
    });
    const server: RunningServer = {
      log,
      threads,
      start: () => threads.start(),
      listen: () => threads.listen(config.port),
      close: (graceMs) => threads.close(graceMs),
    };
    return { receivers: threads, build: () => Promise.resolve(server) };
  }
  // The engine calls run on a pool of threads over the one snapshot; this thread does HTTP.
  const engines = new EnginePool({ threads: mode.engineThreads, maxQueued: ENGINE_QUEUE });
  return {
    receivers: engines,
    build: async (snapshots) => {
      const app = await buildApp({ config, store, snapshots, engineThread: engines, metrics });
      return {
        log: app.log,
        start: () => engines.start(),
        listen: () => app.listen({ host: config.host, port: config.port }),
        close: async (graceMs) => {
          await closeGracefully(app, graceMs);
          await engines.close();
        },
      };
    },
  };
}
