/**
 * `npm run bench [-- --games N] [--seconds S]`: one run of the whole benchmark on a
 * deterministic data set (default 1,000,000 games), reported as Markdown and JSON under
 * bench/results/ with the machine it ran on. Sections: data set, snapshot load, engine beside
 * SQL on SQLite and PostgreSQL, HTTP with autocannon (uncached and cached, beside hello world,
 * on one engine thread and on one per core), a reload, the real T9A window (bench-t9a.ts) and import
 * throughput.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { warmEngine } from '../src/engine/warm-engine.ts';
import { loadSnapshot } from '../src/snapshot/load-snapshot.ts';
import { openStore } from '../src/store/store.ts';
import { copyToPostgres, generate } from './bench-data.ts';
import { loadTarget, measureRankingsStall, measureReload, startServer } from './bench-http.ts';
import type {
  LoadResult,
  RankingsStallResult,
  ReloadResult,
  ServerInfo,
  Target,
} from './bench-http.ts';
import { CASES, ROUTES, time, timeAsync } from './bench-queries.ts';
import { renderMarkdown } from './bench-report.ts';
import { measureImportThroughput } from './import-throughput.ts';
import { measureT9aWindow } from './bench-t9a.ts';
import type { BenchResults, EngineRow, HttpRow } from './bench-results.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '3' },
    'engine-runs': { type: 'string', default: '100' },
    'sql-runs': { type: 'string', default: '1' },
    'skip-import': { type: 'boolean', default: false },
    // Import throughput is a rate: a tenth of a million games measures it as well as a million
    // (20,000-game batches either way) and keeps the whole run under 15 minutes.
    'import-games': { type: 'string', default: '100000' },
  },
});
const GAMES = Number(values.games);
const SECONDS = Number(values.seconds);
const POSTGRES_URL =
  process.env.MUSTER_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/muster_bench';
const RESULTS = resolve(import.meta.dirname, 'results');
const log = (text: string) =>
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);

/**
 * Null when PostgreSQL answers at POSTGRES_URL, else why not. A missing database is created
 * (through the server's `postgres` database), so a fresh machine needs no set-up step.
 */
async function postgresAnswers(): Promise<string | null> {
  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    return client;
  };
  try {
    await (await connect(POSTGRES_URL)).end();
    return null;
  } catch (error) {
    // 3D000: invalid_catalog_name, the database does not exist (PostgreSQL appendix A).
    if ((error as { code?: string }).code !== '3D000') return (error as Error).message;
  }
  const url = new URL(POSTGRES_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  try {
    const admin = await connect(url.toString());
    try {
      await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    } finally {
      await admin.end();
    }
    log(`created PostgreSQL database ${name}`);
    return null;
  } catch (error) {
    return `database ${name} is missing and could not be created: ${(error as Error).message}`;
  }
}

async function engineSection(
  file: string,
  pgSchema: string | null,
): Promise<{
  rows: EngineRow[];
  loadMs: number;
}> {
  const store = await openStore(`sqlite:${file}`);
  const t = performance.now();
  const snapshot = await loadSnapshot(store);
  const loadMs = performance.now() - t;
  await store.close();
  warmEngine(snapshot);
  const sqlite = new SQLite(file, { readonly: true });
  const client = pgSchema === null ? null : new pg.Client({ connectionString: POSTGRES_URL });
  await client?.connect();
  await client?.query(`set search_path to ${pgSchema}`);
  const rows: EngineRow[] = [];
  const engineRuns = Number(values['engine-runs']);
  const sqlRuns = Number(values['sql-runs']);
  try {
    for (const route of ROUTES) {
      for (const c of CASES) {
        const engine = time(() => route.engine(snapshot, c.filter), engineRuns);
        const texts = route.sql(c.sqlWhere);
        const statements = texts.map((text) => sqlite.prepare(text));
        const onSqlite = await timeAsync(() => statements.forEach((st) => st.all()), sqlRuns);
        const onPostgres =
          client === null
            ? null
            : await timeAsync(async () => {
                for (const text of texts) await client.query(text);
              }, sqlRuns);
        rows.push({
          route: route.route,
          filter: c.name,
          engineMedianMs: engine.median,
          engineP99Ms: engine.p99,
          sqliteMedianMs: onSqlite.median,
          postgresMedianMs: onPostgres?.median ?? null,
        });
        log(`engine ${route.route} / ${c.name}: ${engine.median.toFixed(2)} ms`);
      }
    }
  } finally {
    sqlite.close();
    await client?.end();
  }
  return { rows, loadMs };
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

/** Loads every target against `url`; one row per target. */
async function loadTargets(url: string, cached: boolean, workers: number): Promise<HttpRow[]> {
  const rows: HttpRow[] = [];
  for (const target of TARGETS) {
    // One request first: rankings computes and keeps its ratings on its first call.
    await loadTarget(url, target, 1, 1);
    const results: LoadResult[] = [];
    for (const connections of [8, 64]) {
      results.push(await loadTarget(url, target, connections, SECONDS));
    }
    log(
      `http ${workers} engine thread(s) ${cached ? 'cached' : 'uncached'} ${target.name}: ${results.map((r) => r.rps.toFixed(0)).join(' / ')} req/s`,
    );
    rows.push({ target: target.name, cached, workers, results });
  }
  return rows;
}

/** The HTTP loads, uncached then cached, on `workers` engine threads; with one, the reload. */
async function httpSection(
  databaseUrl: string,
  workers = 1,
): Promise<{
  rows: HttpRow[];
  server: ServerInfo;
  reload: ReloadResult | null;
  rankings: RankingsStallResult | null;
}> {
  const server = await startServer(databaseUrl, workers);
  try {
    const rows = [
      ...(await loadTargets(server.info.url, false, workers)),
      ...(await loadTargets(server.info.cachedUrl, true, workers)),
    ];
    const single = workers === 1;
    const reload = single ? await measureReload(server.info.cachedUrl) : null;
    const rankings = single ? await measureRankingsStall(server.info.cachedUrl) : null;
    return { rows, server: server.info, reload, rankings };
  } finally {
    await server.stop();
  }
}

/** Import throughput on SQLite, and on PostgreSQL at `postgresUrl` when it answered. */
async function importSection(
  games: number,
  postgresUrl: string | undefined,
): Promise<BenchResults['import']> {
  if (values['skip-import'] === true) return { skipped: '--skip-import' };
  const size = Math.min(games, Number(values['import-games']));
  const runs = await measureImportThroughput({ games: size, postgresUrl, log });
  return { games: size, runs };
}

async function main(): Promise<void> {
  const started = performance.now();
  const kept = process.env.BENCH_DB;
  const dir = mkdtempSync(join(tmpdir(), 'muster-bench-'));
  const file = kept ?? join(dir, 'bench.db');
  try {
    log(`${GAMES} games`);
    let t = performance.now();
    if (kept === undefined || !existsSync(kept)) await generate(file, GAMES);
    const generateMs = performance.now() - t;
    const pgProblem = await postgresAnswers();
    const pgSchema = pgProblem === null ? `bench_${GAMES}` : null;
    t = performance.now();
    if (pgSchema !== null) await copyToPostgres(file, POSTGRES_URL, pgSchema);
    const postgres =
      pgSchema === null
        ? { skipped: `PostgreSQL at ${POSTGRES_URL}: ${pgProblem}` }
        : { copyMs: performance.now() - t };
    log('data ready');
    const engine = await engineSection(file, pgSchema);
    global.gc?.();
    const single = await httpSection(`sqlite:${file}`);
    // One engine thread per core, as `muster serve` runs by default.
    const cores = availableParallelism();
    const spread = cores > 1 ? await httpSection(`sqlite:${file}`, cores) : null;
    const t9a = await measureT9aWindow(100, log);
    const results: BenchResults = {
      startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryBytes: totalmem(),
        node: process.version,
      },
      games: GAMES,
      seconds: SECONDS,
      generateMs,
      postgres,
      inThreadLoadMs: engine.loadMs,
      server: single.server,
      engine: engine.rows,
      http: [...single.rows, ...(spread?.rows ?? [])],
      reload: single.reload!,
      rankingsStall: single.rankings!,
      t9a,
      import: await importSection(GAMES, pgProblem === null ? POSTGRES_URL : undefined),
      totalMs: performance.now() - started,
    };
    mkdirSync(RESULTS, { recursive: true });
    const base = join(RESULTS, `bench-${GAMES}`);
    writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
    const markdown = renderMarkdown(results);
    writeFileSync(`${base}.md`, markdown);
    console.log(markdown);
    log(`wrote ${base}.md and .json`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
