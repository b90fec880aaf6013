/**
 * Import throughput (docs/operations.md): generates a deterministic canonical document of N games
 * (lists on a fifth of the sides) as canonical JSON, NDJSON and CSV, and the same events as
 * pairing-app exports (one folder per event, no lists), then times `muster import`
 * of each into a fresh SQLite file and a fresh PostgreSQL schema, each as a child process, and
 * reports games per second and the child's peak RSS, with the load average beside each run. With
 * NDJSON, two baselines run in the same way on the same file (bench/import-baseline.ts: parsing
 * alone, and a raw better-sqlite3 insert of the same rows), so the import's figure is also a ratio.
 * Only the formats asked for are generated, a game at a time, so `--games 10000000 --formats
 * ndjson` needs memory for one event, and disk for the file (about 3 GiB) and the store. Run alone:
 *
 *   node bench/import-throughput.ts [--games 1000000] [--dir /tmp/x]
 *        [--postgres postgres://postgres@127.0.0.1:5432/muster] [--formats canonical,ndjson,csv,bcp]
 *        [--batch-games 20000] [--no-baselines] [--keep]
 *
 * or call `measureImportThroughput` from a benchmark harness.
 */
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { mulberry32 } from '../src/domain/mulberry32.ts';

const REPO = resolve(import.meta.dirname, '..');

export type BenchFormat = 'canonical' | 'ndjson' | 'csv' | 'bcp';

export interface ImportThroughputOptions {
  /** Games in the generated document (default 1,000,000). */
  games?: number;
  /** Where the input files and the SQLite store go (default /tmp/muster-import-bench). */
  dir?: string;
  /** A PostgreSQL URL to import into (a fresh schema is used and dropped); omit to skip. */
  postgresUrl?: string;
  formats?: BenchFormat[];
  /** `muster import --batch-games` for the streamed formats (default: the command's own). */
  batchGames?: number;
  /** With NDJSON on SQLite, also time the baselines (default true). */
  baselines?: boolean;
  /** Use input files a run with --keep left in `dir` instead of generating them again. */
  reuse?: boolean;
  /** Delete the generated files afterwards (default true). */
  cleanUp?: boolean;
  log?: (line: string) => void;
}

export interface ImportThroughputResult {
  format: BenchFormat;
  backend: 'sqlite' | 'postgres';
  games: number;
  seconds: number;
  gamesPerSecond: number;
  /** Peak resident set of the import process (VmHWM), MiB; null where /proc is unavailable. */
  peakRssMiB: number | null;
  exitCode: number | null;
  fileMiB: number;
  /** A second import of the same file into the same store (nothing changes). */
  reimport: boolean;
  /**
   * The import's own time as it reports it (reading, validating, writing), without the start of
   * the process and the store's migrations, about 2 s here; null if it printed none.
   */
  importSeconds: number | null;
  importGamesPerSecond: number | null;
  /** The 1-minute load average when the run started and when it ended. */
  load?: [number, number];
}

export type BaselineMode = 'parse' | 'raw-insert';

/** A baseline run of bench/import-baseline.ts on the NDJSON file. */
export interface ImportBaselineResult {
  mode: BaselineMode;
  games: number;
  /** The baseline's own time, after start-up (and, for raw-insert, migration). */
  seconds: number;
  gamesPerSecond: number;
  peakRssMiB: number | null;
  load: [number, number];
}

/** The duration `muster import` prints in its summary line ("imported in 12.3 s"). */
function reportedSeconds(output: string): number | null {
  const match = /: \w+ in (\d+(?:\.\d+)?) s, data version/.exec(output);
  return match === null ? null : Number(match[1]);
}

const FACTIONS = Array.from({ length: 16 }, (_, i) => `F${String(i).padStart(2, '0')}`);
const GAMES_PER_EVENT = 100;
const UNITS = ['General', 'Spearmen', 'Archers', 'Knights', 'Catapult', 'Wizard'];

function list(next: () => number) {
  const units = Array.from({ length: 3 + Math.floor(next() * 4) }, (_, u) => ({
    name: UNITS[(u + Math.floor(next() * 6)) % UNITS.length],
    category: u === 0 ? 'Characters' : 'Core',
    cost: 100 + Math.floor(next() * 400),
    options: [{ name: 'Shield', type: 'equipment' }],
  }));
  return { units };
}

interface BenchGame {
  event: number;
  round: number;
  players: [string, string];
  factions: [string, string];
  scores: [number, number];
}

function* events(games: number, seed = 7) {
  const next = mulberry32(seed);
  const players = Math.max(100, Math.floor(games / 50));
  for (let e = 0; e * GAMES_PER_EVENT < games; e++) {
    const count = Math.min(GAMES_PER_EVENT, games - e * GAMES_PER_EVENT);
    const day = new Date(Date.UTC(2020, 0, 4) + (e % 1500) * 86_400_000).toISOString().slice(0, 10);
    const rows: BenchGame[] = [];
    for (let g = 0; g < count; g++) {
      // Distinct pairs within an event, so that a CSV's derived game ids never collide.
      const a = (e * 2 * GAMES_PER_EVENT + 2 * g) % players;
      const b = (a + 1) % players;
      const score = Math.floor(next() * 21);
      rows.push({
        event: e,
        round: Math.floor(g / 10) + 1,
        players: [`p${a}`, `p${b}`],
        factions: [FACTIONS[Math.floor(next() * 16)], FACTIONS[Math.floor(next() * 16)]],
        scores: [score, 20 - score],
      });
    }
    yield { id: `bench-${e}`, day, rows, next };
  }
}

const REFERENCE = {
  format: 'muster/v1',
  systems: [{ id: 'bench', name: 'Bench', score: { min: 0, max: 20, total: 20 } }],
  factions: FACTIONS.map((id) => ({ id, system: 'bench', name: `Faction ${id}` })),
};

function eventJson(e: ReturnType<typeof events> extends Generator<infer T> ? T : never): string {
  let side = 0;
  return JSON.stringify({
    id: e.id,
    system: 'bench',
    name: `Bench Event ${e.id}`,
    start: e.day,
    games: e.rows.map((g, i) => ({
      id: `${e.id}-${i}`,
      round: g.round,
      sides: [0, 1].map((s) => ({
        player: g.players[s],
        faction: g.factions[s],
        score: g.scores[s],
        // Lists on a fifth of the sides.
        ...(side++ % 5 === 0 ? { list: list(e.next) } : {}),
      })),
    })),
  });
}

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines)
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((done, fail) => {
    out.once('error', fail);
    out.end(() => done());
  });
}

/**
 * The same events as a pairing app's exports (docs/import-formats.md#pairing-app-exports): one
 * folder per event with `event.json`, `players.json` and `pairings.json`. Exports carry no
 * lists (rosters come beside them), so this input has none.
 */
async function writeBcpExports(games: number, dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const person = (id: string) => ({ userId: id, firstName: 'Player', lastName: id });
  for (const e of events(games)) {
    const folder = join(dir, e.id);
    mkdirSync(folder);
    const players = new Map<string, string>();
    for (const g of e.rows) g.players.forEach((p, s) => players.set(p, g.factions[s]));
    writeFileSync(
      join(folder, 'event.json'),
      JSON.stringify({
        objectId: e.id,
        name: `Bench Event ${e.id}`,
        eventDate: `${e.day}T09:00:00.000Z`,
      }),
    );
    writeFileSync(
      join(folder, 'players.json'),
      JSON.stringify([...players].map(([id, army]) => ({ ...person(id), army: { name: army } }))),
    );
    writeFileSync(
      join(folder, 'pairings.json'),
      JSON.stringify(
        e.rows.map((g, i) => {
          const side = (s: 0 | 1) => ({
            ...person(g.players[s]),
            army: g.factions[s],
            parentArmy: g.factions[s],
            game: {
              gameResult:
                g.scores[s] > g.scores[1 - s] ? 2 : g.scores[s] === g.scores[1 - s] ? 1 : 0,
              gamePoints: g.scores[s],
            },
          });
          return {
            objectId: `${e.id}-${i}`,
            round: g.round,
            table: i + 1,
            player1: side(0),
            player2: side(1),
          };
        }),
      ),
    );
  }
}

/** Bytes of a file, or of every file in a folder. */
function sizeOf(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0);
}

/** Writes the document of `games` games in the four formats; returns their paths. */
export async function generateImportFiles(
  games: number,
  dir: string,
  formats: readonly BenchFormat[] = ['canonical', 'ndjson', 'csv', 'bcp'],
  /** Keep a file generated before (same games, same deterministic content) instead of writing it again. */
  reuse = false,
): Promise<Record<BenchFormat, string>> {
  mkdirSync(dir, { recursive: true });
  const paths = {
    canonical: join(dir, `bench-${games}.json`),
    ndjson: join(dir, `bench-${games}.ndjson`),
    csv: join(dir, `bench-${games}.csv`),
    bcp: join(dir, `bench-${games}-bcp`),
  };
  if (formats.includes('canonical') && !(reuse && existsSync(paths.canonical)))
    await writeLines(
      paths.canonical,
      (function* () {
        yield `${JSON.stringify(REFERENCE).slice(0, -1)},"events":[`;
        let first = true;
        for (const e of events(games)) {
          yield `${first ? '' : ','}${eventJson(e)}\n`;
          first = false;
        }
        yield ']}\n';
      })(),
    );
  if (formats.includes('ndjson') && !(reuse && existsSync(paths.ndjson)))
    await writeLines(
      paths.ndjson,
      (function* () {
        yield `${JSON.stringify(REFERENCE)}\n`;
        for (const e of events(games)) yield `{"format":"muster/v1","events":[${eventJson(e)}]}\n`;
      })(),
    );
  if (formats.includes('csv') && !(reuse && existsSync(paths.csv)))
    await writeLines(
      paths.csv,
      (function* () {
        yield 'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score\n';
        for (const e of events(games)) {
          let text = '';
          for (const g of e.rows)
            text += `${e.id},Bench Event ${e.id},${e.day},${g.round},${g.players[0]},${g.factions[0]},${g.scores[0]},${g.players[1]},${g.factions[1]},${g.scores[1]}\n`;
          yield text;
        }
      })(),
    );
  if (formats.includes('bcp') && !(reuse && existsSync(paths.bcp)))
    await writeBcpExports(games, paths.bcp);
  return paths;
}

function peakRss(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Runs a command in a child process; resolves with its time, peak RSS and output. */
async function timeChild(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{
  seconds: number;
  peakRssMiB: number | null;
  exitCode: number | null;
  output: string;
  load: [number, number];
}> {
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let peak: number | null = null;
  const poll = setInterval(() => {
    const now = peakRss(child.pid as number);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  }, 100);
  const exitCode = await new Promise<number | null>((done) => child.once('exit', done));
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  const load: [number, number] = [round2(loadBefore), round2(loadavg()[0])];
  return { seconds, peakRssMiB: peak, exitCode, output, load };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Runs `muster import` in a child process; resolves with its time and peak RSS. */
async function timeImport(
  format: BenchFormat,
  path: string,
  databaseUrl: string,
  batchGames?: number,
) {
  const args = [join(REPO, 'bin/muster.js'), 'import', '--format', format, '--max-rejects', '5'];
  if (format === 'csv' || format === 'bcp') args.push('--system', 'bench');
  if (batchGames !== undefined && format !== 'canonical')
    args.push('--batch-games', String(batchGames));
  args.push(path);
  return timeChild(args, {
    ...process.env,
    MUSTER_DATABASE_URL: databaseUrl,
    MUSTER_LOG_LEVEL: 'silent',
  });
}

/**
 * Times the baselines (bench/import-baseline.ts) on the NDJSON file: parsing alone, and a raw
 * better-sqlite3 insert of the same rows into a fresh SQLite file.
 */
export async function measureImportBaselines(
  ndjson: string,
  dir: string,
  log: (line: string) => void = () => undefined,
): Promise<ImportBaselineResult[]> {
  const results: ImportBaselineResult[] = [];
  const dbFile = join(dir, 'bench-baseline.db');
  for (const mode of ['parse', 'raw-insert'] as const) {
    const args = [join(REPO, 'bench/import-baseline.ts'), mode, ndjson, dbFile];
    const run = await timeChild(args, process.env);
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
    if (run.exitCode !== 0) {
      log(`baseline ${mode} failed (exit ${run.exitCode}): ${run.output.slice(-2000)}`);
      continue;
    }
    const { games, seconds } = JSON.parse(run.output.trim().split('\n').pop() as string) as {
      games: number;
      seconds: number;
    };
    const result: ImportBaselineResult = {
      mode,
      games,
      seconds,
      gamesPerSecond: Math.round(games / seconds),
      peakRssMiB: run.peakRssMiB === null ? null : Math.round(run.peakRssMiB),
      load: run.load,
    };
    results.push(result);
    log(
      `baseline  ${mode.padEnd(10)} ${games} games in ${seconds.toFixed(1)} s: ${result.gamesPerSecond} games/s, peak RSS ${result.peakRssMiB ?? '?'} MiB (load ${run.load.join(' -> ')})`,
    );
  }
  return results;
}

/** Generates the files, imports each into each backend, and returns one result per run. */
export async function measureImportThroughput(
  options: ImportThroughputOptions = {},
): Promise<ImportThroughputResult[]> {
  return (await measureImportRuns({ baselines: false, ...options })).results;
}

/** As measureImportThroughput, with the NDJSON baselines timed just before the NDJSON import. */
export async function measureImportRuns(
  options: ImportThroughputOptions = {},
): Promise<{ results: ImportThroughputResult[]; baselines: ImportBaselineResult[] }> {
  const games = options.games ?? 1_000_000;
  const dir = options.dir ?? '/tmp/muster-import-bench';
  const formats = options.formats ?? ['canonical', 'ndjson', 'csv', 'bcp'];
  const log = options.log ?? (() => undefined);
  const paths = await generateImportFiles(games, dir, formats, options.reuse === true);
  const results: ImportThroughputResult[] = [];
  let baselines: ImportBaselineResult[] = [];
  try {
    for (const backend of ['sqlite', 'postgres'] as const) {
      if (backend === 'postgres' && options.postgresUrl === undefined) continue;
      for (const format of formats) {
        const schema = `bench_import_${format}`;
        const dbFile = join(dir, `bench-${format}.db`);
        let url: string;
        if (backend === 'sqlite') {
          for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
          url = dbFile;
        } else {
          const base = options.postgresUrl as string;
          await dropSchema(base, schema);
          url = `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
        }
        if (backend === 'sqlite' && format === 'ndjson' && options.baselines !== false)
          baselines = await measureImportBaselines(paths.ndjson, dir, log);
        // NDJSON is imported twice: the second, unchanged import must cost less than the first.
        for (const reimport of format === 'ndjson' ? [false, true] : [false]) {
          const run = await timeImport(format, paths[format], url, options.batchGames);
          const importSeconds = reportedSeconds(run.output);
          const result: ImportThroughputResult = {
            format,
            backend,
            games,
            seconds: run.seconds,
            gamesPerSecond: Math.round(games / run.seconds),
            peakRssMiB: run.peakRssMiB === null ? null : Math.round(run.peakRssMiB),
            exitCode: run.exitCode,
            fileMiB: Math.round(sizeOf(paths[format]) / 1024 / 1024),
            reimport,
            importSeconds,
            importGamesPerSecond:
              importSeconds === null || importSeconds === 0
                ? null
                : Math.round(games / importSeconds),
            load: run.load,
          };
          results.push(result);
          log(
            `${format.padEnd(9)} ${backend.padEnd(8)} ${reimport ? 're-import' : 'import   '} ${games} games in ${run.seconds.toFixed(1)} s: ${result.gamesPerSecond} games/s (${result.importGamesPerSecond ?? '?'} in the import), peak RSS ${result.peakRssMiB ?? '?'} MiB (file ${result.fileMiB} MiB, exit ${run.exitCode}, load ${run.load.join(' -> ')})`,
          );
          if (run.exitCode !== 0) log(run.output.split('\n').slice(-12).join('\n'));
        }
        if (backend === 'sqlite')
          for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
        else await dropSchema(options.postgresUrl as string, schema);
      }
    }
  } finally {
    if (options.cleanUp !== false)
      for (const p of Object.values(paths)) rmSync(p, { recursive: true, force: true });
  }
  return { results, baselines };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: {
      games: { type: 'string' },
      dir: { type: 'string' },
      postgres: { type: 'string' },
      formats: { type: 'string' },
      keep: { type: 'boolean' },
      reuse: { type: 'boolean' },
      'batch-games': { type: 'string' },
      'no-baselines': { type: 'boolean' },
    },
  });
  const runs = await measureImportRuns({
    games: values.games === undefined ? undefined : Number(values.games),
    dir: values.dir,
    postgresUrl: values.postgres,
    formats: values.formats?.split(',') as BenchFormat[] | undefined,
    cleanUp: values.keep !== true,
    reuse: values.reuse === true,
    batchGames: values['batch-games'] === undefined ? undefined : Number(values['batch-games']),
    baselines: values['no-baselines'] !== true,
    log: (line) => console.log(line),
  });
  console.log(
    JSON.stringify(
      {
        cpus: cpus().length,
        memoryMiB: Math.round(totalmem() / 2 ** 20),
        node: process.version,
        ...runs,
      },
      null,
      2,
    ),
  );
}
