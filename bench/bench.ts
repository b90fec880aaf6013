/**
 * `npm run bench [-- --games N] [--sections a,b] [--data-dir DIR] [--label L]`: the benchmark on
 * a deterministic data set (default 1,000,000 games), reported as Markdown and JSON under
 * bench/results/ with the machine it ran on (docs/operations.md#benchmark). Sections
 * (bench-sections.ts): data (generate into SQLite, copy into PostgreSQL), load (server ready
 * time and memory per count of engine threads), engine, sql (the same aggregations in SQL),
 * http (autocannon, uncached and cached beside hello world), reload (and rankings with new
 * parameters), t9a (the real T9A window), import, burst (expensive requests at once, then
 * cheap ones: when cheap ones answer again), sockets (20,000 idle connections held), strength (the joint model's engine calls), pairing
 * (the defender-attacker draft solved exactly) and
 * costs (a CSV page's peak memory, the cancellation delay, a victim's answer times beside a
 * client sending the costliest requests at its full rate). Without --sections all run on a fresh
 * data set in a temporary directory; with it only those run and are merged into the results
 * file of the same size and label, so a large data set is generated once (--data-dir keeps
 * it) and each section measured alone.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { copyToPostgres, generate } from './bench-data.ts';
import { WARM_UP_SECONDS } from './bench-http.ts';
import {
  burstSection,
  socketsSection,
  engineSection,
  httpSection,
  importSection,
  loadSection,
  reloadSection,
  sqlSection,
  threadCounts,
} from './bench-sections.ts';
import { renderMarkdown } from './bench-report.ts';
import { measureT9aWindow } from './bench-t9a.ts';
import { strengthSection } from './bench-strength.ts';
import { pairingSection } from './bench-pairing.ts';
import { costsSection } from './bench-costs.ts';
import { SECTIONS } from './bench-results.ts';
import type { BenchResults, SectionName } from './bench-results.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '3' },
    sections: { type: 'string' },
    'data-dir': { type: 'string' },
    label: { type: 'string' },
    // Seconds the costs section's flooding client sends for, each run.
    'costs-seconds': { type: 'string', default: '30' },
    // Engine-thread counts the load and http sections run (default: 1, then one per core).
    threads: { type: 'string' },
    // The store the servers of the load, http and reload sections read: sqlite (the data set's
    // file) or postgres (its copy in the PostgreSQL schema bench_<games>).
    backend: { type: 'string', default: 'sqlite' },
    'engine-runs': { type: 'string', default: '100' },
    'sql-runs': { type: 'string', default: '1' },
    // Filters the sql section times (names or their beginnings, ';'-separated); all by default.
    'sql-filters': { type: 'string' },
    // Routes the sql section times (exact names, ';'-separated); all by default. At ten million
    // games a statement over a wide window takes up to a minute on either store.
    'sql-routes': { type: 'string' },
    'skip-import': { type: 'boolean', default: false },
    // Import throughput is a rate: a tenth of a million games measures it as well as a million
    // (20,000-game batches either way) and keeps the whole run under 15 minutes.
    'import-games': { type: 'string', default: '100000' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help === true) {
  console.log(
    [
      'npm run bench [-- --games N] [--sections a,b] [--threads 1,2] [--seconds S] [--label L]',
      '              [--data-dir DIR] [--backend sqlite|postgres] [--skip-import]',
      `sections: ${SECTIONS.join(', ')} (all by default; docs/operations.md#benchmark)`,
    ].join('\n'),
  );
  process.exit(0);
}
const GAMES = Number(values.games);
if (values.backend !== 'sqlite' && values.backend !== 'postgres') {
  throw new Error(`--backend: sqlite or postgres, not "${values.backend}"`);
}
const BACKEND: 'sqlite' | 'postgres' = values.backend;
const SECONDS = Number(values.seconds);
const POSTGRES_URL =
  process.env.MUSTER_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/muster_bench';
const RESULTS = resolve(import.meta.dirname, 'results');
const log = (text: string) =>
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);

/** The sections asked for: all by default; an unknown name stops the run. */
function chosenSections(): SectionName[] {
  if (values.sections === undefined) {
    return SECTIONS.filter((s) => !(s === 'import' && values['skip-import'] === true));
  }
  const names = values.sections.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!(SECTIONS as readonly string[]).includes(name)) {
      throw new Error(`unknown section "${name}"; sections: ${SECTIONS.join(', ')}`);
    }
  }
  return names as SectionName[];
}

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

/** The results file's path without extension: bench-N, or bench-N-label. */
function resultsBase(): string {
  return join(RESULTS, `bench-${GAMES}${values.label === undefined ? '' : `-${values.label}`}`);
}

/** The earlier results to merge this run's sections into: none for a whole run. */
function earlierResults(): BenchResults | null {
  const file = `${resultsBase()}.json`;
  if (values.sections === undefined || !existsSync(file)) return null;
  const earlier = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  // Results written before sections existed carry no `runs`: start afresh.
  return earlier.runs === undefined || earlier.games !== GAMES ? null : earlier;
}

/** Where the data set lives: kept in --data-dir (or BENCH_DB), else in a temporary directory. */
function dataFile(): { file: string; temporary: string | null } {
  if (values['data-dir'] !== undefined) {
    mkdirSync(values['data-dir'], { recursive: true });
    return { file: join(resolve(values['data-dir']), `bench-${GAMES}.db`), temporary: null };
  }
  if (process.env.BENCH_DB !== undefined) return { file: process.env.BENCH_DB, temporary: null };
  const temporary = mkdtempSync(join(tmpdir(), 'muster-bench-'));
  return { file: join(temporary, 'bench.db'), temporary };
}

/** Runs `work` as section `name` of `results`, stamping when it ran and the load around it. */
async function section<T>(
  results: BenchResults,
  name: SectionName,
  work: () => Promise<T>,
): Promise<T> {
  const before = loadavg();
  const startedAt = new Date().toISOString();
  const t = performance.now();
  log(`section ${name} (load average ${before.map((x) => x.toFixed(1)).join(' ')})`);
  const value = await work();
  results.runs[name] = {
    startedAt,
    ms: performance.now() - t,
    loadAverage: { before, after: loadavg() },
  };
  return value;
}

/** Runs the chosen sections into `results`. */
async function runSections(results: BenchResults, file: string): Promise<void> {
  const chosen = new Set(chosenSections());
  const threads = values.threads?.split(',').map(Number) ?? threadCounts();
  const serving = ['load', 'http', 'reload', 'costs'].some((name) =>
    chosen.has(name as SectionName),
  );
  const onPostgres = BACKEND === 'postgres' && serving;
  const pgProblem =
    chosen.has('data') || chosen.has('sql') || onPostgres ? await postgresAnswers() : 'unused';
  const pgSchema = pgProblem === null ? `bench_${GAMES}` : null;
  if (onPostgres && pgSchema === null) throw new Error(`--backend postgres: ${pgProblem}`);
  // The pairing section solves drafts on generated matrices: it alone needs no data set.
  const needsData = [...chosen].some((name) => name !== 'pairing');
  if (chosen.has('data') || (needsData && !existsSync(file))) {
    await section(results, 'data', async () => {
      let t = performance.now();
      results.generateMs = existsSync(file)
        ? null
        : (await generate(file, GAMES), performance.now() - t);
      t = performance.now();
      if (pgSchema !== null) await copyToPostgres(file, POSTGRES_URL, pgSchema);
      results.postgres =
        pgSchema === null
          ? { skipped: `PostgreSQL at ${POSTGRES_URL}: ${pgProblem}` }
          : { copyMs: performance.now() - t };
    });
    log('data ready');
  }
  // The servers' store: the SQLite file, or its copy in PostgreSQL (made once, then reused).
  let db = `sqlite:${file}`;
  if (onPostgres && pgSchema !== null) {
    await copyToPostgres(file, POSTGRES_URL, pgSchema);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('schema', pgSchema);
    db = url.toString();
  }
  results.backend = BACKEND;
  if (chosen.has('load')) {
    results.servers = await section(results, 'load', () =>
      loadSection(db, threads, `${file}.${BACKEND}.snapshot`, log),
    );
  }
  if (chosen.has('engine')) {
    const engine = await section(results, 'engine', () =>
      engineSection(file, Number(values['engine-runs']), log),
    );
    results.engine = engine.rows;
    results.inThreadLoadMs = engine.loadMs;
    global.gc?.();
  }
  if (chosen.has('strength')) {
    results.strength = await section(results, 'strength', () =>
      strengthSection(file, Number(values['engine-runs']), log),
    );
    global.gc?.();
  }
  if (chosen.has('pairing')) {
    results.pairing = await section(results, 'pairing', () => pairingSection(20, log));
  }
  if (chosen.has('sql')) {
    if (pgSchema !== null) await copyToPostgres(file, POSTGRES_URL, pgSchema);
    const postgres = pgSchema === null ? null : { url: POSTGRES_URL, schema: pgSchema };
    // Filter names hold commas: names are separated by ';' and matched by their beginning.
    const filters = values['sql-filters']?.split(';').map((s) => s.trim()) ?? null;
    const routes = values['sql-routes']?.split(';').map((s) => s.trim()) ?? null;
    results.sql = await section(results, 'sql', () =>
      sqlSection(file, postgres, Number(values['sql-runs']), filters, routes, log),
    );
  }
  if (chosen.has('http')) {
    const http = await section(results, 'http', () => httpSection(db, threads, SECONDS, log));
    results.http = http.rows;
    results.httpServers = http.servers;
    results.warmUpSeconds = WARM_UP_SECONDS;
  }
  if (chosen.has('reload')) {
    const cores = threads[threads.length - 1];
    Object.assign(results, await section(results, 'reload', () => reloadSection(db, cores, log)));
  }
  if (chosen.has('t9a')) {
    results.t9a = await section(results, 't9a', () => measureT9aWindow(100, log));
  }
  if (chosen.has('burst')) {
    results.burst = await section(results, 'burst', () => burstSection(db, threads, log));
  }
  if (chosen.has('sockets')) {
    results.sockets = await section(results, 'sockets', () => socketsSection(db, log));
  }
  if (chosen.has('costs')) {
    const cores = threads[threads.length - 1];
    const seconds = Number(values['costs-seconds']);
    results.costs = await section(results, 'costs', () => costsSection(db, cores, seconds, log));
  }
  if (chosen.has('import')) {
    const games = Math.min(GAMES, Number(values['import-games']));
    const pgUrl = (await postgresAnswers()) === null ? POSTGRES_URL : undefined;
    results.import = await section(results, 'import', () => importSection(games, pgUrl, log));
  }
}

async function main(): Promise<void> {
  const { file, temporary } = dataFile();
  const results: BenchResults = earlierResults() ?? {
    games: GAMES,
    seconds: SECONDS,
    machine: machine(),
    runs: {},
  };
  results.machine = machine();
  results.seconds = SECONDS;
  try {
    log(`${GAMES} games, data set ${file}`);
    await runSections(results, file);
    mkdirSync(RESULTS, { recursive: true });
    const base = resultsBase();
    writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
    const markdown = renderMarkdown(results);
    writeFileSync(`${base}.md`, markdown);
    console.log(markdown);
    log(`wrote ${base}.md and .json`);
  } finally {
    if (temporary !== null) rmSync(temporary, { recursive: true, force: true });
  }
}

function machine(): BenchResults['machine'] {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
  };
}

await main();
