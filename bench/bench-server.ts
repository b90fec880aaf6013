/**
 * The server half of `npm run bench`, run as its own process so the load generator does not
 * share its event loop: the real app over the benchmark store, loaded the way `muster serve`
 * loads (a worker thread builds the snapshot and the engine's caches), plus a hello-world route
 * and a reload trigger. Prints one JSON line with its URL, load figures and RSS once it listens.
 */
import { loadConfig } from '../src/config/config.ts';
import { buildApp } from '../src/http/app.ts';
import { servingSnapshots } from '../src/cli/serving-snapshots.ts';
import { openStore } from '../src/store/store.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
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
const config = loadConfig({
  MUSTER_RATE_LIMIT_MAX: '1000000',
  MUSTER_LOG_LEVEL: 'silent',
  MUSTER_RESPONSE_CACHE_MB: process.env.BENCH_CACHE_MB ?? '64',
  MUSTER_REQUEST_TIMEOUT_MS: '600000',
});
const app = await buildApp({ config, store, snapshots: manager }, { logger: false });
app.get('/bench/hello', async () => ({ hello: 'world' }));
app.get('/bench/reload', async () => {
  const t = performance.now();
  await manager.reload();
  return { reloadMs: performance.now() - t, longestWarmStepMs };
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const status = manager.status()!;
console.log(
  JSON.stringify({
    url,
    games: status.games,
    loadMs: status.loadMs,
    readyMs,
    longestWarmStepMs,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    arrayBuffersBytes: memory.arrayBuffers,
    snapshotBytes: status.bytes,
  }),
);
process.once('SIGTERM', () => {
  void app.close().then(() => store.close());
});
