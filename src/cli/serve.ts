/**
 * `muster serve` (docs/operations.md#engine-threads): one process. It checks that its port is
 * free, opens and migrates the store, optionally seeds the demo, loads the snapshot, starts
 * the pool of engine threads that compute on it, listens on its main thread, and shuts down
 * gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight requests, close the store).
 */
import { createServer } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import { buildApp } from '../http/app.ts';
import { availableParallelism } from 'node:os';
import { EnginePool } from '../http/engine-thread/engine-pool.ts';
import { closeGracefully } from '../http/graceful-close.ts';
import { markInterruptedImports } from '../ingest/import-records.ts';
import { openMigratedStore } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';
import { printReport } from './print-report.ts';
import { seedDemo, storeIsEmpty } from './seed-demo.ts';
import { servingSnapshots } from './serving-snapshots.ts';

export interface ServeOptions {
  seedIfEmpty: boolean;
  io: CliIo;
  /** Resolves when the server should stop (tests); default: SIGTERM or SIGINT. */
  until?: Promise<unknown>;
}

/** Tasks that may wait for the engine threads at once; one more is a 503 `busy`. */
const ENGINE_QUEUE = 64;

/** How many engine threads `serve` runs: MUSTER_ENGINE_THREADS, 0 meaning one per core. */
export function engineThreadCount(config: Config): number {
  return config.engineThreads === 0 ? availableParallelism() : config.engineThreads;
}

/** The one line `serve` prints when its port is taken (docs/operations.md#running). */
export function portInUseMessage(config: Config): string {
  return `muster serve: port ${config.port} on ${config.host} is already in use; stop what holds it or set MUSTER_PORT to a free port`;
}

const inUse = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE';

/**
 * Whether the port can be bound, tried before anything slow (migrations, a snapshot load of
 * seconds), so a second `muster serve` on a taken port fails at once rather than after loading.
 */
function portIsFree(config: Config): Promise<boolean> {
  if (config.port === 0) return Promise.resolve(true);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => (inUse(error) ? resolve(false) : reject(error)));
    probe.listen({ host: config.host, port: config.port, exclusive: true }, () =>
      probe.close(() => resolve(true)),
    );
  });
}

/** Runs the service until a stop signal; resolves to the exit code. */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const { io } = options;
  if (!(await portIsFree(config))) {
    io.err(portInUseMessage(config));
    return 1;
  }
  const store = await openMigratedStore(config.databaseUrl).catch((error: Error) => {
    io.err(`muster serve: cannot open the store at ${config.databaseUrl}: ${error.message}`);
    return null;
  });
  if (store === null) return 1;
  const interrupted = await markInterruptedImports(store);
  if (interrupted > 0)
    io.err(`muster serve: ${interrupted} import(s) had not finished; marked interrupted`);
  if (options.seedIfEmpty && (await storeIsEmpty(store))) {
    io.err(
      'muster serve: the store is empty; seeding the demo dataset (generated, not real results)…',
    );
    printReport(await seedDemo(store), io.err);
  }
  // The engine calls run on a pool of threads over the one snapshot; this thread does HTTP.
  const engines = new EnginePool({
    threads: engineThreadCount(config),
    maxQueued: ENGINE_QUEUE,
  });
  // The app's logger exists only once the app is built, and the app needs the snapshots first.
  const logger: { current?: FastifyBaseLogger } = {};
  const snapshots = servingSnapshots(store, config.databaseUrl, {
    pollMs: config.snapshotPollMs,
    engines,
    onError: (error) =>
      logger.current?.error({ err: error }, 'snapshot reload failed; serving the previous one'),
    onLoad: (status) => logger.current?.info({ snapshot: status }, 'snapshot loaded'),
  });
  const app = await buildApp({ config, store, snapshots, engineThread: engines });
  logger.current = app.log;
  await Promise.all([snapshots.start(), engines.start()]);

  const address = await app.listen({ host: config.host, port: config.port }).catch((error) => {
    // Taken since the check at start (another process was quicker): the same one line.
    if (!inUse(error)) throw error;
    return null;
  });
  if (address === null) {
    io.err(portInUseMessage(config));
    snapshots.stop();
    await app.close();
    await engines.close();
    await store.close();
    return 1;
  }
  app.log.info(
    { allowedOrigins: config.allowedOrigins, store: store.location },
    'origins allowed to POST',
  );
  io.out(
    `Muster is listening on ${address} (store: ${store.location}; ${engines.size} engine threads)`,
  );
  io.out(
    `  health: ${address}/api/health   docs: ${address}/docs   OpenAPI: ${address}/.well-known/openapi.json`,
  );

  const signal = await (options.until ??
    new Promise<string>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    }));
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  snapshots.stop();
  await closeGracefully(app, config.shutdownGraceMs);
  await engines.close();
  await store.close();
  return 0;
}
