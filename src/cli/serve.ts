/**
 * `muster serve`: opens and migrates the store, optionally seeds the demo, loads the snapshot,
 * listens, and shuts down gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight
 * requests, close the store).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import { buildApp } from '../http/app.ts';
import { EngineThread } from '../http/engine-thread/engine-thread.ts';
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

/** Runs the service until a stop signal; resolves to the exit code. */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const { io } = options;
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
  // The app's logger exists only once the app is built, and the app needs the snapshots first.
  const logger: { current?: FastifyBaseLogger } = {};
  const snapshots = servingSnapshots(store, config.databaseUrl, {
    pollMs: config.snapshotPollMs,
    onError: (error) =>
      logger.current?.error({ err: error }, 'snapshot reload failed; serving the previous one'),
    onLoad: (status) => logger.current?.info({ snapshot: status }, 'snapshot loaded'),
  });
  // Rankings compute on the engine thread; started now so the first one does not wait for it.
  const engineThread = new EngineThread();
  const app = await buildApp({ config, store, snapshots, engineThread });
  logger.current = app.log;
  await Promise.all([snapshots.start(), engineThread.start()]);

  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { allowedOrigins: config.allowedOrigins, store: store.location },
    'origins allowed to POST',
  );
  io.out(`Muster is listening on ${address} (store: ${store.location})`);
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
  await engineThread.close();
  await store.close();
  return 0;
}
