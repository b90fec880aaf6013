/**
 * The HTTP half of the benchmark (DESIGN.md §7): each route's latency and throughput through the
 * real Fastify app (validation, origin guard, rate limiter, serialisation), beside a hello-world
 * route on the same server in the same run. The client runs in this process on loopback, so the
 * absolute figures include its cost; the ratios to hello-world are what to compare.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/config.ts';
import { buildApp } from '../src/http/app.ts';
import type { Snapshot } from '../src/snapshot/snapshot.ts';
import type { Store } from '../src/store/store.ts';

const ORIGIN = 'http://localhost:8080';

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Closed-loop load: `concurrency` clients send back to back for `seconds`. */
async function load(base: string, target: Target, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const init: RequestInit = {
    method: target.method,
    headers: target.method === 'POST' ? { origin: ORIGIN, 'content-type': 'application/json' } : {},
    body: target.body === undefined ? undefined : JSON.stringify(target.body),
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(base + target.path, init);
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (res.status !== 200) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    median: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
  };
}

/** Serves `snapshot` and measures every POST route beside GET /bench/hello. */
export async function benchHttp(snapshot: Snapshot, store: Store): Promise<void> {
  const config = loadConfig({ MUSTER_RATE_LIMIT_MAX: '1000000', MUSTER_LOG_LEVEL: 'silent' });
  const snapshots = {
    current: () => snapshot,
    status: () => null,
  };
  const app = await buildApp({ config, store, snapshots }, { logger: false });
  app.get('/bench/hello', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const filter = { from: '2025-01-01', to: '2025-12-31', minParticipants: 16 };
  const targets: Target[] = [
    { name: 'hello world (GET)', method: 'GET', path: '/bench/hello' },
    { name: 'faction-stats', method: 'POST', path: '/api/faction-stats', body: filter },
    { name: 'army-matchup', method: 'POST', path: '/api/army-matchup', body: filter },
    { name: 'item-use-stats', method: 'POST', path: '/api/item-use-stats', body: filter },
    { name: 'scenario', method: 'POST', path: '/api/scenario', body: filter },
    { name: 'scenario-stats', method: 'POST', path: '/api/scenario-stats', body: filter },
    { name: 'rankings (glicko2, cached)', method: 'POST', path: '/api/rankings', body: filter },
  ];
  const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
  const concurrency = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 8);
  try {
    // One call each first: rankings computes and caches its ratings on its first request.
    for (const target of targets) await load(base, target, 1, 0.001);
    console.log('');
    console.log(
      `HTTP through the app on loopback (${concurrency} clients, ${seconds} s each, filter: last 12 months, 16+ players):`,
    );
    console.log(
      '| route | requests/s | median ms | p99 ms | throughput vs hello world | non-200 |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    let hello = 0;
    for (const target of targets) {
      const r = await load(base, target, concurrency, seconds);
      if (hello === 0) hello = r.rps;
      console.log(
        `| ${target.name} | ${r.rps.toFixed(0)} | ${r.median.toFixed(2)} | ${r.p99.toFixed(2)} | ` +
          `${((r.rps / hello) * 100).toFixed(0)} % | ${r.failures} |`,
      );
    }
  } finally {
    await app.close();
  }
}
