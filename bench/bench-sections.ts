/**
 * The sections of `npm run bench` (docs/operations.md#benchmark), each runnable alone on an
 * existing data set (`--sections`): the engine calls, the same aggregations in SQL, server
 * start-up and memory, HTTP loads, a reload, the real T9A window and import throughput.
 */
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { engineDerivation } from '../src/engine/engine-derivation.ts';
import { DEFAULT_MIN_SCORE, playerDuplicates } from '../src/engine/players/player-duplicates.ts';
import { warmEngine } from '../src/engine/warm-engine.ts';
import { loadersEnded, loadSnapshotInWorker } from '../src/threads/load-snapshot-host.ts';
import {
  BROWSER_ACCEPT_ENCODING,
  engineDrained,
  loadTarget,
  measureQuiet,
  measureRankingsStall,
  measureReload,
  rssAfterAnswering,
  startServer,
  WARM_UP_SECONDS,
} from './bench-http.ts';
import type { LoadResult, ServerInfo, Target } from './bench-http.ts';
import { measureBurst } from './bench-burst.ts';
import { measureIdleSockets } from './bench-sockets.ts';
import { benchConfig } from './bench-config.ts';
import type { BurstResult } from './bench-burst.ts';
import { CASES, ROUTES, time, timeAsync } from './bench-queries.ts';
import type { BenchResults, EngineRow, HttpRow, SqlRow } from './bench-results.ts';
import { measureImportThroughput } from './import-throughput.ts';

export type Log = (text: string) => void;

/**
 * The engine calls on a snapshot loaded as `muster serve` loads it (a loading thread builds it
 * and the engine's caches onto shared memory; this thread attaches them), timed on this
 * thread: median and p99 of `runs` calls. Built on this thread instead, the calls ran up to
 * half again slower at ten million games, among the loader's leftovers on this heap.
 */
export async function engineSection(
  file: string,
  runs: number,
  log: Log,
): Promise<{ rows: EngineRow[]; loadMs: number }> {
  const t = performance.now();
  const snapshot = await loadSnapshotInWorker(`sqlite:${file}`, { derivation: engineDerivation });
  const loadMs = performance.now() - t;
  await loadersEnded();
  warmEngine(snapshot);
  const rows: EngineRow[] = [];
  for (const route of ROUTES) {
    for (const c of CASES) {
      const engine = time(() => route.engine(snapshot, c.filter), runs);
      rows.push({
        route: route.route,
        filter: c.name,
        engineMedianMs: engine.median,
        engineP99Ms: engine.p99,
      });
      log(`engine ${route.route} / ${c.name}: ${engine.median.toFixed(2)} ms`);
    }
  }
  rows.push(duplicatesRow(snapshot, runs, log));
  return { rows, loadMs };
}

/** Runs of the suggestion pass at most: a maintenance pass, far slower than a statistics call. */
const DUPLICATES_RUNS = 7;

/**
 * The suggestion pass (`muster players suggest`, docs/operations.md#player-merges) over the
 * system's players at the default score: it takes no date filter, so one row.
 */
function duplicatesRow(
  snapshot: Awaited<ReturnType<typeof loadSnapshotInWorker>>,
  runs: number,
  log: Log,
): EngineRow {
  const request = { system: 't9a', minScore: DEFAULT_MIN_SCORE };
  // The first pass finds the system's alike names and player records, which the snapshot keeps:
  // timed apart, since the median is of the passes after it.
  const started = performance.now();
  const pairs = playerDuplicates(snapshot, request).data.pairs.length;
  const firstMs = performance.now() - started;
  const pass = time(() => playerDuplicates(snapshot, request), Math.min(runs, DUPLICATES_RUNS));
  log(
    `engine player-duplicates (suggestion pass): first ${firstMs.toFixed(0)} ms, ` +
      `then ${pass.median.toFixed(1)} ms, ${pairs} pairs`,
  );
  return {
    route: 'player-duplicates',
    filter: `whole system (suggestion pass; the first, ${firstMs.toFixed(0)} ms, not in the median)`,
    engineMedianMs: pass.median,
    engineP99Ms: pass.p99,
  };
}

/**
 * The same aggregations in SQL on SQLite (and on PostgreSQL in `pgSchema` when given), for the
 * filters named in `filters` and the routes named in `routes` (all when null): at ten million
 * games one all-time statement takes minutes, so a run may keep to the narrower filters.
 */
export async function sqlSection(
  file: string,
  postgres: { url: string; schema: string } | null,
  runs: number,
  filters: readonly string[] | null,
  routes: readonly string[] | null,
  log: Log,
): Promise<SqlRow[]> {
  const sqlite = new SQLite(file, { readonly: true });
  const client = postgres === null ? null : new pg.Client({ connectionString: postgres.url });
  await client?.connect();
  await client?.query(`set search_path to ${postgres!.schema}`);
  const rows: SqlRow[] = [];
  try {
    for (const route of ROUTES) {
      if (routes !== null && !routes.includes(route.route)) continue;
      for (const c of CASES) {
        if (filters !== null && !filters.some((f) => c.name.startsWith(f))) continue;
        const texts = route.sql(c.sqlWhere);
        const statements = texts.map((text) => sqlite.prepare(text));
        const onSqlite = await timeAsync(() => statements.forEach((st) => st.all()), runs);
        const onPostgres =
          client === null
            ? null
            : await timeAsync(async () => {
                for (const text of texts) await client.query(text);
              }, runs);
        rows.push({
          route: route.route,
          filter: c.name,
          sqliteMedianMs: onSqlite.median,
          postgresMedianMs: onPostgres?.median ?? null,
        });
        log(`sql ${route.route} / ${c.name}: SQLite ${onSqlite.median.toFixed(0)} ms`);
      }
    }
  } finally {
    sqlite.close();
    await client?.end();
  }
  return rows;
}

const FILTER = { from: '2025-01-01', to: '2025-12-31', minParticipants: 16 };
const TARGETS: Target[] = [
  { name: 'hello world (GET)', method: 'GET', path: '/bench/hello' },
  { name: 'hello world (POST)', method: 'POST', path: '/bench/hello-post', body: FILTER },
  { name: 'faction-stats', method: 'POST', path: '/api/faction-stats', body: FILTER },
  { name: 'army-matchup', method: 'POST', path: '/api/army-matchup', body: FILTER },
  { name: 'item-use-stats', method: 'POST', path: '/api/item-use-stats', body: FILTER },
  { name: 'scenario', method: 'POST', path: '/api/scenario', body: FILTER },
  { name: 'scenario-stats', method: 'POST', path: '/api/scenario-stats', body: FILTER },
  { name: 'rankings', method: 'POST', path: '/api/rankings', body: FILTER },
];

/**
 * The statistics targets again as a browser asks for them (BROWSER_ACCEPT_ENCODING, so answered
 * in Brotli): the loads whose answers are compressed.
 */
const COMPRESSED_TARGETS: Target[] = TARGETS.filter((t) => t.path.startsWith('/api/')).map((t) => ({
  ...t,
  name: `${t.name}, br`,
  acceptEncoding: BROWSER_ACCEPT_ENCODING,
}));

/** The engine-thread counts the load and HTTP sections run: one, and one per core. */
export function threadCounts(): number[] {
  const cores = availableParallelism();
  return cores > 1 ? [1, cores] : [1];
}

/**
 * Starts the benchmark server with each count of engine threads in turn and stops it once it
 * is ready: the time to ready and the process's memory, with nothing else running in it. The
 * last count's server builds its snapshot and writes `snapshotFile`; one more server with that
 * count then starts from the file (docs/architecture.md#the-snapshot-file).
 */
export async function loadSection(
  databaseUrl: string,
  threads: readonly number[],
  snapshotFile: string,
  log: Log,
): Promise<ServerInfo[]> {
  rmSync(snapshotFile, { force: true });
  const last = threads[threads.length - 1];
  const starts = [
    ...threads.map((count) => ({ count, file: count === last ? snapshotFile : undefined })),
    { count: last, file: snapshotFile },
  ];
  const servers: ServerInfo[] = [];
  for (const { count, file } of starts) {
    const server = await startServer(databaseUrl, count, file);
    let answeredRssBytes: number;
    try {
      answeredRssBytes = await rssAfterAnswering(server.info.url, TARGETS);
    } finally {
      await server.stop();
    }
    servers.push({ ...server.info, answeredRssBytes });
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
    const how =
      server.info.snapshotFile === undefined ? '' : `, snapshot file ${server.info.snapshotFile}`;
    log(
      `load ${count} engine thread(s)${how}: ready ${(server.info.readyMs / 1000).toFixed(1)} s, RSS ${mib(server.info.rssBytes)}, ${mib(answeredRssBytes)} after answering`,
    );
  }
  return servers;
}

/** Loads every target against `url`; one row per target. */
async function loadTargets(
  url: string,
  cached: boolean,
  workers: number,
  seconds: number,
  log: Log,
): Promise<HttpRow[]> {
  const rows: HttpRow[] = [];
  for (const target of [...TARGETS, ...COMPRESSED_TARGETS]) {
    // One request first: rankings computes and keeps its ratings on its first call.
    await loadTarget(url, target, 1, 1);
    const results: LoadResult[] = [];
    for (const connections of [8, 64]) {
      // A load ends with its clients' last requests in flight: their engine tasks still run,
      // and 64 of them left waiting made the next load's first requests 503 busy. So the
      // warm-up (the same load, not measured) is drained too before the measured load.
      await engineDrained(url);
      await loadTarget(url, target, connections, WARM_UP_SECONDS);
      await engineDrained(url);
      results.push(await loadTarget(url, target, connections, seconds));
    }
    const cpu = (r: LoadResult) =>
      r.servingCpuMs === undefined ? '' : `, serving ${r.servingCpuMs.toFixed(3)} ms`;
    log(
      `http ${workers} engine thread(s) ${cached ? 'cached' : 'uncached'} ${target.name}: ${results.map((r) => `${r.rps.toFixed(0)} req/s${cpu(r)}`).join(' / ')}`,
    );
    rows.push({ target: target.name, cached, workers, results });
  }
  return rows;
}

/** The HTTP loads, uncached then cached, on each count of engine threads. */
export async function httpSection(
  databaseUrl: string,
  threads: readonly number[],
  seconds: number,
  log: Log,
): Promise<{ rows: HttpRow[]; servers: ServerInfo[] }> {
  const rows: HttpRow[] = [];
  const servers: ServerInfo[] = [];
  for (const count of threads) {
    const server = await startServer(databaseUrl, count);
    servers.push(server.info);
    try {
      rows.push(...(await loadTargets(server.info.url, false, count, seconds, log)));
      rows.push(...(await loadTargets(server.info.cachedUrl, true, count, seconds, log)));
    } finally {
      await server.stop();
    }
  }
  return { rows, servers };
}

/** A reload, then rankings with new parameters, each under health probes, on one server. */
export async function reloadSection(
  databaseUrl: string,
  threads: number,
  log: Log,
): Promise<Pick<BenchResults, 'quiet' | 'reload' | 'rankingsStall'>> {
  const server = await startServer(databaseUrl, threads);
  try {
    const quiet = await measureQuiet(server.info.cachedUrl, 15_000);
    log(`quiet: longest wait ${quiet.maxWaitMs.toFixed(0)} ms`);
    const reload = await measureReload(server.info.cachedUrl);
    log(`reload ${reload.reloadMs.toFixed(0)} ms, longest wait ${reload.maxWaitMs.toFixed(0)} ms`);
    const rankingsStall = await measureRankingsStall(server.info.cachedUrl);
    log(`rankings with new parameters: longest wait ${rankingsStall.maxWaitMs.toFixed(0)} ms`);
    return { quiet, reload, rankingsStall };
  } finally {
    await server.stop();
  }
}

/** Import throughput on SQLite, and on PostgreSQL at `postgresUrl` when it answered. */
export async function importSection(
  games: number,
  postgresUrl: string | undefined,
  log: Log,
): Promise<NonNullable<BenchResults['import']>> {
  const runs = await measureImportThroughput({ games, postgresUrl, log });
  return { games, runs };
}

/** The service's own request deadline (MUSTER_REQUEST_TIMEOUT_MS's default) in the burst section. */
const BURST_DEADLINE_MS = 10_000;

/**
 * Bursts of 64 and of 200 expensive uncached requests, each followed by cheap uncached ones,
 * on one server with the service's own deadline (bench-burst.ts).
 */
export async function burstSection(
  databaseUrl: string,
  threadCounts: readonly number[],
  log: Log,
): Promise<NonNullable<BenchResults['burst']>> {
  const runs: NonNullable<BenchResults['burst']> = [];
  for (const threads of threadCounts) runs.push(await burstsOn(databaseUrl, threads, log));
  return runs;
}

async function burstsOn(
  databaseUrl: string,
  threads: number,
  log: Log,
): Promise<NonNullable<BenchResults['burst']>[number]> {
  const server = await startServer(databaseUrl, threads, undefined, {
    BENCH_REQUEST_TIMEOUT_MS: String(BURST_DEADLINE_MS),
  });
  try {
    const bursts: BurstResult[] = [];
    for (const [i, size] of [64, 200].entries()) {
      const burst = await measureBurst(
        server.info.url,
        size,
        BURST_DEADLINE_MS,
        threads * 2000 + i * 1000,
      );
      log(
        `${threads} engine thread(s), burst of ${size}: ${JSON.stringify(burst.outcomes)}; cheap answers again ${burst.cheapRecoveredMs.toFixed(0)} ms after its start (${burst.cheapRecoveredAfterDeadlineMs.toFixed(0)} ms after its deadline), longest health wait ${burst.healthMaxWaitMs.toFixed(0)} ms`,
      );
      bursts.push(burst);
    }
    return { threads, bursts };
  } finally {
    await server.stop();
  }
}

/** Idle connections held at once in the sockets section: as many as the server's descriptors. */
const IDLE_SOCKETS = 20_000;

/**
 * 20,000 idle keep-alive connections, each after one health request, held while health is
 * probed on new connections (bench-sockets.ts), on a server with the default connection bounds.
 */
export async function socketsSection(
  databaseUrl: string,
  log: Log,
): Promise<NonNullable<BenchResults['sockets']>> {
  const server = await startServer(databaseUrl, 1);
  try {
    const config = benchConfig();
    const result = await measureIdleSockets(server.info.url, IDLE_SOCKETS);
    log(
      `${result.opened} idle connections answered 200 and held (${result.closedByServer} closed by the server to make room, ${result.failed} refused); health on a new connection: ${result.healthProbes - result.healthFailures} of ${result.healthProbes} answered, slowest ${result.healthMaxMs.toFixed(0)} ms`,
    );
    return {
      ...result,
      maxConnections: config.maxConnections,
      maxConnectionsPerClient: config.maxConnectionsPerClient,
    };
  } finally {
    await server.stop();
  }
}
