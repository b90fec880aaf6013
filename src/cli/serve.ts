/**
 * `muster serve` (docs/operations.md#threads): one process. It checks that its port is free,
 * opens and migrates the store, optionally seeds the demo, loads the snapshot and serves it from
 * MUSTER_THREADS server threads that each listen on the service port
 * (src/threads/serving-modes.ts), and
 * shuts down gracefully on SIGTERM/SIGINT (every thread stops accepting and finishes its
 * requests in flight, then the store closes).
 */
import { createServer } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { originsForPort } from '../config/config.ts';
import type { Config } from '../config/config.ts';
import { ServiceMetrics } from '../http/metrics.ts';
import { listenForMetrics } from '../http/metrics-listener.ts';
import { ThrottledLog } from '../http/throttled-log.ts';
import { markInterruptedImports } from '../ingest/import-records.ts';
import { readImportRuns } from '../store/read-service-state.ts';
import { openMigratedStore } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';
import { printReport } from './print-report.ts';
import { storeIsEmpty } from '../store/read-known.ts';
import { seedDemo } from './seed-demo.ts';
import { loadLogFields } from './load-log-fields.ts';
import { servingSnapshots } from '../threads/serving-snapshots.ts';
import { reusePortRefusal, servingMode, startServing } from '../threads/serving-modes.ts';
import type { RunningServer } from '../threads/serving-modes.ts';

export interface ServeOptions {
  seedIfEmpty: boolean;
  io: CliIo;
  /** Resolves when the server should stop (tests); default: SIGTERM or SIGINT. */
  until?: Promise<unknown>;
  /** Why `reusePort` is refused here, or null (tests simulate a refusal); default: tried. */
  reusePortRefusal?: (host: string) => Promise<string | null>;
  /** Told what serves once it listens (tests). */
  onListening?: (server: RunningServer) => void;
}

/** The one line `serve` prints when its port (or its metrics port) is taken. */
export function portInUseMessage(config: Config, metrics = false): string {
  const [what, port, host, variable] = metrics
    ? ['metrics port', config.metricsPort, config.metricsHost, 'MUSTER_METRICS_PORT']
    : ['port', config.port, config.host, 'MUSTER_PORT'];
  return `muster serve: ${what} ${port} on ${host} is already in use; stop what holds it or set ${variable} to a free port`;
}

export const inUse = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE';

/**
 * Whether `port` can be bound on `host`, tried before anything slow (migrations, a snapshot
 * load of seconds), so a second `muster serve` on a taken port fails at once, not after loading.
 */
function portIsFree(host: string, port: number | null): Promise<boolean> {
  if (port === null || port === 0) return Promise.resolve(true);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => (inUse(error) ? resolve(false) : reject(error)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Logs store trouble once per interval and kind (a store outage fails every poll and every
 * pooled connection at once): on stderr until the app's logger exists, then through it
 * (docs/operations.md#store-outages).
 */
function throttledStoreLog(
  logger: { current?: FastifyBaseLogger },
  io: CliIo,
): (kind: string, message: string, error: unknown) => void {
  let log: ThrottledLog | undefined;
  return (kind, message, error) => {
    const reason = error instanceof Error ? error.message : String(error);
    if (logger.current === undefined) {
      io.err(`muster serve: ${message}: ${reason}`);
      return;
    }
    log ??= new ThrottledLog(logger.current);
    log.note(kind, message, { reason });
  };
}

/** Runs the service until a stop signal; resolves to the exit code. */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const { io } = options;
  for (const metrics of [false, true]) {
    const [host, port] = metrics
      ? [config.metricsHost, config.metricsPort]
      : [config.host, config.port];
    if (!(await portIsFree(host, port))) {
      io.err(portInUseMessage(config, metrics));
      return 1;
    }
  }
  // The app's logger exists only once the app is built, and the app needs the snapshots first.
  const logger: { current?: FastifyBaseLogger } = {};
  const storeTrouble = throttledStoreLog(logger, io);
  const store = await openMigratedStore(config.databaseUrl, {
    onConnectionError: (error) =>
      storeTrouble(
        'store-connection-ended',
        'a store connection ended; the next query opens another',
        error,
      ),
  }).catch((error: Error) => {
    io.err(`muster serve: cannot open the store at ${config.databaseUrl}: ${error.message}`);
    return null;
  });
  if (store === null) return 1;
  for (const { importId, summary } of await markInterruptedImports(store))
    io.err(`muster serve: import ${importId} marked interrupted: ${summary}`);
  if (options.seedIfEmpty && (await storeIsEmpty(store))) {
    io.err(
      'muster serve: the store is empty; seeding the demo dataset (generated, not real results)…',
    );
    printReport(await seedDemo(store), io.err);
  }
  const mode = await servingMode(config, options.reusePortRefusal ?? reusePortRefusal);
  // One series per service: the snapshot's loads are observed here, on the main thread.
  const metrics = new ServiceMetrics();
  const serving = startServing(config, store, mode, metrics);
  const snapshots = servingSnapshots(store, config.databaseUrl, {
    pollMs: config.snapshotPollMs,
    engines: serving.receivers,
    snapshotFile: config.snapshotFile,
    onNote: (note) => logger.current?.warn(note),
    onError: (error) =>
      storeTrouble(
        'snapshot-reload-failed',
        'snapshot reload failed; serving the previous one',
        error,
      ),
    onLoad: (status, readyMs) => {
      metrics.observeLoad(status, readyMs);
      const file = snapshots.current()?.restoredFrom;
      logger.current?.info(
        { snapshot: status, ...loadLogFields(snapshots.current()) },
        file === undefined ? 'snapshot loaded' : 'snapshot read from its file',
      );
    },
  });
  metrics.watch({
    snapshot: () => snapshots.status(),
    importRuns: () => store.probe(readImportRuns),
  });
  const server = await serving.build(snapshots);
  logger.current = server.log;
  await Promise.all([snapshots.start(), server.start()]);

  const address = await server.listen().catch((error) => {
    // Taken since the check at start (another process was quicker): the same one line.
    if (!inUse(error)) throw error;
    return null;
  });
  const metricsListener =
    address === null || config.metricsPort === null
      ? null
      : await listenForMetrics(metrics, config.metricsHost, config.metricsPort).catch((error) => {
          if (!inUse(error)) throw error;
          return undefined;
        });
  if (address === null || metricsListener === undefined) {
    io.err(portInUseMessage(config, address !== null));
    snapshots.stop();
    await server.close(0);
    await store.close();
    return 1;
  }
  // URL drops a default port; the service is plain HTTP.
  const boundPort = Number(new URL(address).port || 80);
  server.log.info(
    { allowedOrigins: originsForPort(config, boundPort), store: store.location },
    'origins allowed to POST',
  );
  io.out(`Muster is listening on ${address} (store: ${store.location}; ${mode.description})`);
  io.out(
    `  health: ${address}/api/health   docs: ${address}/docs   OpenAPI: ${address}/.well-known/openapi.json`,
  );
  if (metricsListener !== null) io.out(`  metrics (operators only): ${metricsListener.url}`);
  options.onListening?.(server);

  const signal = await (options.until ??
    new Promise<string>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    }));
  server.log.info({ signal }, 'shutting down: finishing in-flight requests');
  snapshots.stop();
  await server.close(config.shutdownGraceMs);
  await metricsListener?.close();
  await store.close();
  return 0;
}
