/**
 * The server half of `npm run bench`, run as its own process so the load generator does not
 * share its event loop: the real app over the benchmark store, loaded the way `muster serve`
 * loads (a worker thread builds the snapshot and the engine's caches) and computing on a pool of
 * BENCH_ENGINE_THREADS engine threads (default 1), as `muster serve` does with one per core,
 * without and with the response cache on two ports, plus a hello-world route and a reload
 * trigger. Prints one JSON line with its URLs, load figures and RSS once it listens.
 */
import { benchConfig } from './bench-config.ts';
import { buildApp } from '../src/http/app.ts';
import { EnginePool } from '../src/threads/engine-pool.ts';
import { servingSnapshots } from '../src/threads/serving-snapshots.ts';
import { loadersEnded } from '../src/threads/load-snapshot-host.ts';
import { openStore } from '../src/store/store.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
// BENCH_STALLS=MS: log to stderr every gap of the serving thread's event loop longer than MS,
// with the time since the server started, to find what holds it during a reload.
const stallMs = Number(process.env.BENCH_STALLS ?? '0');
const origin = performance.now();
const mark = (text: string) =>
  stallMs > 0 &&
  console.error(`[server +${((performance.now() - origin) / 1000).toFixed(3)} s] ${text}`);
if (stallMs > 0) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > stallMs + 5) mark(`event loop held ${(now - last - 5).toFixed(0)} ms`);
    last = now;
  }, 5).unref();
}
const threads = Number(process.env.BENCH_ENGINE_THREADS ?? '1');

/** The reload the benchmark started last, as GET /bench/reload-state reports it. */
type ReloadState =
  | { state: 'running' }
  | { state: 'done'; reloadMs: number; longestWarmStepMs: number }
  | { state: 'failed'; message: string };

/**
 * The server: the app over the store, loaded as `muster serve` loads it, twice over one
 * snapshot and one engine pool: without a response cache on BENCH_PORT and with one on BENCH_CACHED_PORT, so the
 * uncached and cached loads need one load of the data, not two.
 */
async function runServer(): Promise<void> {
  const store = await openStore(databaseUrl);
  let longestWarmStepMs = 0;
  // BENCH_CLIENT_SHARE=off: no client's share of the expensive lane (as before it had one), for
  // the costs section's comparison; the service always has one.
  const unshared = process.env.BENCH_CLIENT_SHARE === 'off';
  const engineThread = new EnginePool({
    threads,
    maxQueued: 64,
    ...(unshared ? { clientExpensiveRunning: threads, clientExpensiveWaiting: 1_000_000 } : {}),
  });
  const snapshotFile = process.env.BENCH_SNAPSHOT_FILE ?? null;
  const manager = servingSnapshots(store, databaseUrl, {
    pollMs: 3_600_000,
    snapshotFile,
    onNote: (note) => console.error(note),
    engines: engineThread,
    onWarm: (ms) => {
      mark(`caches attached on the serving thread (longest step ${ms.toFixed(0)} ms)`);
      longestWarmStepMs = ms;
    },
  });
  const started = performance.now();
  await Promise.all([manager.start(), engineThread.start()]);
  const readyMs = performance.now() - started;
  // Memory once the loading thread has ended: after a build it still writes the snapshot file
  // (its heap and write buffers, some hundreds of MiB at ten million games, for seconds).
  await loadersEnded();
  global.gc?.();
  // The whole process, every engine thread with the snapshot attached included.
  const memory = process.memoryUsage();
  let reload: ReloadState | undefined;
  const app = async (cacheMb: string) => {
    const config = benchConfig({
      MUSTER_RESPONSE_CACHE_MB: cacheMb,
      // The burst section measures the service's own deadline; the others must never meet one.
      MUSTER_REQUEST_TIMEOUT_MS: process.env.BENCH_REQUEST_TIMEOUT_MS ?? '600000',
    });
    const built = await buildApp(
      { config, store, snapshots: manager, engineThread },
      { logger: false },
    );
    built.get('/bench/hello', async () => ({ hello: 'world' }));
    // The ceiling of a POST route: the same origin guard, rate limit and JSON body parsing.
    built.post('/bench/hello-post', async () => ({ hello: 'world' }));
    // The whole process's memory after a collection on this thread (engine threads collect
    // on their own): what the load section reads once every route has answered.
    built.get('/bench/memory', async () => {
      global.gc?.();
      return process.memoryUsage();
    });
    // A reload at ten million games takes minutes, longer than any HTTP client or the app's
    // own request time limit waits: POST starts it and answers at once, /bench/reload-state tells how it went.
    built.post('/bench/reload', async (_, reply) => {
      if (reload?.state === 'running') return reply.code(409).send({ state: 'running' });
      const t = performance.now();
      reload = { state: 'running' };
      mark('reload started');
      manager.reload().then(
        () => {
          mark('reload done');
          reload = { state: 'done', reloadMs: performance.now() - t, longestWarmStepMs };
        },
        (error: unknown) => {
          reload = { state: 'failed', message: String(error) };
        },
      );
      return reply.code(202).send(reload);
    });
    // CPU time so far, of the serving thread and of the whole process (every engine thread,
    // libuv's pool and the collector's threads too), both in microseconds: the benchmark reads
    // it before and after a load (bench-http.ts).
    built.get('/bench/cpu', async () => {
      // process.threadCpuUsage() counts this (the main) thread only; process.cpuUsage(), every one.
      const serving = process.threadCpuUsage();
      const { user, system } = process.cpuUsage();
      return { servingUs: serving.user + serving.system, processUs: user + system };
    });
    built.get('/bench/reload-state', async () => reload ?? { state: 'none' });
    // Engine tasks not yet answered: requests a finished load left behind (its clients stop
    // with requests in flight, whose tasks still run) would otherwise be counted in the next.
    built.get('/bench/engine-queue', async () => ({ queued: engineThread.queued() }));
    return built;
  };
  const apps = [await app('0'), await app('64')];
  const ports = [process.env.BENCH_PORT, process.env.BENCH_CACHED_PORT];
  const [url, cachedUrl] = await Promise.all(
    apps.map((a, i) => a.listen({ host: '127.0.0.1', port: Number(ports[i] ?? 0) })),
  );
  const status = manager.status()!;
  console.log(
    JSON.stringify({
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
      workers: threads,
      ...(snapshotFile === null
        ? {}
        : { snapshotFile: manager.current()?.restoredFrom === undefined ? 'written' : 'read' }),
    }),
  );
  process.once('SIGTERM', () => {
    // A snapshot file still being written is waited for (the next start reads it); a reload
    // still running holds the loading thread, and the benchmark is over either way.
    const closed = Promise.all(apps.map((a) => a.close()))
      .then(() => engineThread.close())
      .then(() => store.close())
      .then(() => loadersEnded());
    const late = new Promise((done) => setTimeout(done, 60_000).unref());
    void Promise.race([closed, late]).then(() => process.exit(0));
  });
}

await runServer();
