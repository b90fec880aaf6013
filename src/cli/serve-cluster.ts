/**
 * `muster serve` on every core (docs/operations.md#every-core): a primary process prepares
 * the store once (migrations, the demo seed) and runs MUSTER_WORKERS worker processes
 * (node:cluster), each a complete server with its own snapshot, sharing the listening port. A
 * worker that dies is replaced; SIGTERM or SIGINT is passed to every worker, which finishes its
 * in-flight requests, and the primary exits once all have.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Config } from '../config/config.ts';
import { parseDatabaseUrl } from '../store/store.ts';
import { openMigratedStore } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';
import { printReport } from './print-report.ts';
import { seedDemo, storeIsEmpty } from './seed-demo.ts';

/** A worker that dies this soon after starting is not replaced at once, lest it loop. */
const RESTART_DELAY_MS = 1000;

/** How many worker processes `serve` should run: MUSTER_WORKERS, 0 meaning one per core. */
export function workerCount(config: Config): number {
  // An in-memory database exists in one process only: several workers would each see their own.
  if (parseDatabaseUrl(config.databaseUrl).target === ':memory:') return 1;
  return config.workers === 0 ? availableParallelism() : config.workers;
}

export interface ClusterOptions {
  seedIfEmpty: boolean;
  io: CliIo;
  workers: number;
}

/** Runs the primary: prepares the store, forks the workers, replaces the dead, stops on a signal. */
export async function serveCluster(config: Config, options: ClusterOptions): Promise<number> {
  const { io } = options;
  const store = await openMigratedStore(config.databaseUrl).catch((error: Error) => {
    io.err(`muster serve: cannot open the store at ${config.databaseUrl}: ${error.message}`);
    return null;
  });
  if (store === null) return 1;
  try {
    if (options.seedIfEmpty && (await storeIsEmpty(store))) {
      io.err(
        'muster serve: the store is empty; seeding the demo dataset (generated, not real results)…',
      );
      printReport(await seedDemo(store), io.err);
    }
  } finally {
    await store.close();
  }

  let stopping = false;
  const live = new Set<Worker>();
  const start = (): void => {
    const worker = cluster.fork();
    live.add(worker);
    io.out(`Muster worker ${worker.process.pid} started`);
    const startedAt = Date.now();
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) return;
      io.err(
        `muster serve: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`,
      );
      const wait = Math.max(0, startedAt + RESTART_DELAY_MS - Date.now());
      setTimeout(() => {
        if (!stopping) start();
      }, wait).unref();
    });
  };
  io.out(`Muster primary ${process.pid}: starting ${options.workers} worker processes`);
  for (let i = 0; i < options.workers; i++) start();

  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  stopping = true;
  io.err(`muster serve: ${signal}: stopping ${live.size} workers after their in-flight requests`);
  await Promise.all(
    [...live].map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          worker.process.kill('SIGTERM');
        }),
    ),
  );
  return 0;
}
