/**
 * The server half of `npm run bench`, run as its own process so the load generator does not
 * share its event loop: the real app over the benchmark store, loaded the way `muster serve`
 * loads (a worker thread builds the snapshot and the engine's caches), without and with the
 * response cache on two ports, plus a hello-world route and a reload trigger. Prints one JSON
 * line with its URLs, load figures and RSS once it listens.
 * With BENCH_WORKERS=N (N > 1) it runs N such servers as node:cluster workers on one port, as
 * `muster serve` does, and prints the first worker's line with the count.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { benchConfig } from './bench-config.ts';
import { buildApp } from '../src/http/app.ts';
import { EngineThread } from '../src/http/engine-thread/engine-thread.ts';
import { servingSnapshots } from '../src/cli/serving-snapshots.ts';
import { openStore } from '../src/store/store.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const workers = Number(process.env.BENCH_WORKERS ?? '1');

/** Prints the server's line, or hands it to the primary when this is a cluster worker. */
function report(info: Record<string, unknown>): void {
  if (cluster.isWorker) process.send!(info);
  else console.log(JSON.stringify(info));
}

/**
 * One server process: the app over the store, loaded as `muster serve` loads it, twice over one
 * snapshot: without a response cache on BENCH_PORT and with one on BENCH_CACHED_PORT, so the
 * uncached and cached loads need one load of the data, not two.
 */
async function runServer(): Promise<void> {
  const store = await openStore(databaseUrl);
  let longestWarmStepMs = 0;
  const manager = servingSnapshots(store, databaseUrl, {
    pollMs: 3_600_000,
    onWarm: (ms) => {
      longestWarmStepMs = ms;
    },
  });
  const started = performance.now();
  await manager.start();
  const readyMs = performance.now() - started;
  global.gc?.();
  const memory = process.memoryUsage();
  const engineThread = new EngineThread();
  await engineThread.start();
  const app = async (cacheMb: string) => {
    const config = benchConfig({
      MUSTER_RESPONSE_CACHE_MB: cacheMb,
      MUSTER_REQUEST_TIMEOUT_MS: '600000',
    });
    const built = await buildApp(
      { config, store, snapshots: manager, engineThread },
      { logger: false },
    );
    built.get('/bench/hello', async () => ({ hello: 'world' }));
    // The ceiling of a POST route: the same origin guard, rate limit and JSON body parsing.
    built.post('/bench/hello-post', async () => ({ hello: 'world' }));
    built.get('/bench/reload', async () => {
      const t = performance.now();
      await manager.reload();
      return { reloadMs: performance.now() - t, longestWarmStepMs };
    });
    return built;
  };
  const apps = [await app('0'), await app('64')];
  const ports = [process.env.BENCH_PORT, process.env.BENCH_CACHED_PORT];
  const [url, cachedUrl] = await Promise.all(
    apps.map((a, i) => a.listen({ host: '127.0.0.1', port: Number(ports[i] ?? 0) })),
  );
  const status = manager.status()!;
  report({
    url,
    cachedUrl,
    games: status.games,
    loadMs: status.loadMs,
    readyMs,
    longestWarmStepMs,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    arrayBuffersBytes: memory.arrayBuffers,
    snapshotBytes: status.bytes,
    workers: 1,
  });
  process.once('SIGTERM', () => {
    // A cluster worker's channel to its primary would keep it alive: leave once closed.
    void Promise.all(apps.map((a) => a.close()))
      .then(() => engineThread.close())
      .then(() => store.close())
      .then(() => cluster.isWorker && process.exit(0));
  });
}

/** A free TCP port on loopback, for the workers to share. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** The cluster primary: forks the workers on one port and prints once all of them listen. */
async function runPrimary(): Promise<void> {
  const [port, cachedPort] = [await freePort(), await freePort()];
  const infos: Array<Record<string, unknown>> = [];
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork({
      ...process.env,
      BENCH_PORT: String(port),
      BENCH_CACHED_PORT: String(cachedPort),
    });
    worker.on('message', (info: Record<string, unknown>) => {
      infos.push(info);
      if (infos.length === workers) console.log(JSON.stringify({ ...infos[0], workers }));
    });
  }
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  });
}

if (cluster.isPrimary && workers > 1) await runPrimary();
else await runServer();
