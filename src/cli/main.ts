/**
 * The `muster` command line: serve, migrate, import, seed-demo. Returns an exit code instead of
 * exiting so that tests can run it in-process.
 */
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ConfigError, loadConfig } from '../config/config.ts';
import type { Config } from '../config/config.ts';
import { IMPORT_FORMATS, formatOfPaths, importFormatNamed } from '../ingest/formats/index.ts';
import { importSources } from '../ingest/import-sources.ts';
import type { ImportFormat } from '../ingest/import-types.ts';
import {
  importExists,
  latestFinishedImport,
  readRejects,
  supersedingImport,
} from '../store/read-rejects.ts';
import { openMigratedStore } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import { printReport } from './print-report.ts';
import { PLAYERS_HELP, runPlayers } from './players-command.ts';
import { watchImports } from './import-watch.ts';
import { progressLine, runExport } from './cli-commands.ts';
import { storeIsEmpty } from '../store/read-known.ts';
import { seedDemo } from './seed-demo.ts';
import { parseEvery, replayEvent } from './replay-command.ts';
import type { ReplayOptions } from './replay-command.ts';
import type { CliIo } from './cli-io.ts';

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  env: process.env,
  write: (line) =>
    new Promise<void>((resolve, reject) => {
      if (process.stdout.write(line + '\n')) resolve();
      else process.stdout.once('drain', resolve).once('error', reject);
    }),
  progress: process.stderr.isTTY ? (line) => process.stderr.write(`\r\u001b[2K${line}`) : undefined,
};

/**
 * A full collection between an import's batches (docs/operations.md#import-limits). V8 lets an
 * import's garbage grow to several times its live heap before collecting, so a large file of
 * rejected lines peaks far above what it keeps. A batch's records are garbage once it is written, so
 * collecting then keeps the peak near one batch. `gc` is reached without --expose-gc by turning
 * the flag on and reading it from a fresh context, once.
 */
let gcFunction: (() => void) | null | undefined;
function collectGarbage(): void {
  if (gcFunction === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  gcFunction?.();
}

/** `--format`'s choices in the help, one a line (or two), from the list of formats. */
function formatLines(): string {
  const width = 91;
  return IMPORT_FORMATS.map((f) => {
    const words = `${f.name}: ${f.reads}`.split(' ');
    const lines: string[] = [];
    let line = '';
    for (const word of words) {
      if (line !== '' && 17 + line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
    return lines.map((l, i) => `${' '.repeat(i === 0 ? 17 : 19)}${l}`).join('\n');
  }).join('\n');
}

const HELP: Record<string, string> = {
  main: `muster: statistics for competitive tabletop wargames

Usage: muster <command> [options]

Commands:
  serve        start the HTTP service
  migrate      create or upgrade the store's schema
  import       import games, events and lists (canonical JSON, NDJSON, CSV, T9A folders,
               pairing-app exports, list-builder rosters)
  export       write the store (or a selection of it) as NDJSON, for import elsewhere
  seed-demo    fill an empty store with the generated demo dataset
  rejects      print the records an import rejected, with their raw payloads
  players      suggest duplicate players; merge two ids of one player, and undo a merge
  replay       play a finished event's rounds into the store one by one (demonstrations)

Run "muster <command> --help" for a command's options. Configuration comes from MUSTER_*
environment variables (see the README); MUSTER_DATABASE_URL picks the store.`,
  serve: `Usage: muster serve [--seed-if-empty]

Starts the HTTP service on MUSTER_HOST:MUSTER_PORT (default 127.0.0.1:8080), migrating the store
first. SIGTERM or SIGINT stop it gracefully: no new connections, in-flight requests finish.

Options:
  --seed-if-empty   import the demo dataset when the store holds no event (npm start does)

Examples:
  muster serve
  MUSTER_DATABASE_URL=postgres://postgres@127.0.0.1:5432/muster MUSTER_PORT=3000 muster serve`,
  migrate: `Usage: muster migrate

Creates or upgrades the schema of the store named by MUSTER_DATABASE_URL. serve and import do
this too; run it alone to prepare a database ahead of a deployment.

Example:
  MUSTER_DATABASE_URL=postgres://postgres@127.0.0.1:5432/muster muster migrate`,
  import: `Usage: muster import [--format ${IMPORT_FORMATS.map((f) => f.name).join('|')}] [--strict]
                     [--system ID] [--event ID] PATH...

Imports files, folders (read recursively) or - for standard input, as one batch in one
transaction (NDJSON, CSV and pairing-app exports go in batches of 20,000 games, one transaction
each). Valid records are written; every invalid one is reported with its file, record and
reason and kept in the rejects table. Exits 1 when anything was rejected, 2 on a usage error.
Importing the same input again changes nothing.

Options:
  --format F     one of (without it: ndjson or csv when every file named ends so, else canonical):
${formatLines()}
  --strict       refuse the whole batch if any record is rejected (a new faction one edit
                 away from a known one counts as rejected)
  --system ID    csv and bcp: the game system of the games (default: bcp the system the
                 export names, else the only one in the store; a system the store does not
                 know is created without score rules)
  --event ID     roster: the stored event whose players the rosters belong to (matched by the
                 player's id or name in the file name, or by rosters.csv: file,player)
  --max-rejects N  print at most N reject lines (default 50; all are stored and counted)
  --batch-games N  ndjson, csv and bcp: games per batch, one transaction each (default 20000);
                 an ndjson or csv batch also ends at N records of any kind, rejects included
  --max-record-mb N  the largest line or document read, in MiB (default 128): an NDJSON line,
                 a CSV row, a JSON file or stdin document; a larger one fails the import
  --watch        import the paths, then keep watching them: a file that appears or changes
                 is imported again; SIGINT or SIGTERM stops after the import under way

Examples, one per format, each then read on the dashboard (muster serve, http://127.0.0.1:8080/):
${IMPORT_FORMATS.map((f) => `  ${f.example.command}\n                      # ${f.example.see}`).join('\n')}
  cat events.json | muster import -`,
  export: `Usage: muster export [--system ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD]

Writes the store as NDJSON to standard output, streaming: one muster/v1 document per line
(reference data, then players, then one event with its entries and games per line). With a
selection, only the events of that system and start-date window (and that system's reference
data) are written. The output imports with "muster import --format ndjson -".

Options:
  --system ID   only this game system
  --from DATE   only events starting on or after DATE
  --to DATE     only events starting on or before DATE

Example:
  muster export | MUSTER_DATABASE_URL=postgres://postgres@127.0.0.1:5432/muster muster import --format ndjson -`,
  'seed-demo': `Usage: muster seed-demo [--force]

Fills an empty store with the deterministic demo dataset (about 150 events over the last two years,
2,000+ players, upcoming satellites). The data is generated, not real, and the service says so.

Options:
  --force   seed even when the store already holds events

Example:
  MUSTER_DATABASE_URL=./data/demo.db muster seed-demo`,
};

HELP.players = PLAYERS_HELP;

HELP.replay = `Usage: muster replay EVENT_FILE [--every 10s] [--event ID] [--db URL]

Plays a finished event into the store round by round, as if it were being played now: first
its first round paired and nothing played, then, every --every, that round's results and the
next round's pairings, until the event is finished. Each step is an ordinary import, so a
running "muster serve" picks it up and its live stream tells the event page. The file is
canonical JSON or NDJSON (what "muster export" writes); every game needs a round number. The
store must not hold the event yet. SIGINT or SIGTERM stops between rounds.

Options:
  --every T    time between rounds: 500ms, 10s, 2m, 1h (a bare number is seconds), from
               100ms to 1h (default 10s)
  --event ID   the event to play when the file holds several with games
  --db URL     the store (default MUSTER_DATABASE_URL)

Example:
  muster export --from 2025-06-01 --to 2025-06-01 > event.ndjson
  MUSTER_DATABASE_URL=./data/replay.db muster replay event.ndjson --every 30s`;

HELP.rejects = `Usage: muster rejects [--import N]

Prints the records an import rejected (default: the newest finished import) as JSON
lines: {importId, source, record, field, reason, payload}. The payload is the record as it was
read (a canonical game, a CSV row, a raw T9A report), so it can be fixed and imported again.
Importing the same files again takes their rejects over: each is kept once, with the newest
import that saw it.

Options:
  --import N   the import id that "muster import" printed

Examples:
  muster rejects > rejects.jsonl
  muster rejects --import 3 | jq -r .reason | sort | uniq -c`;

const FORMATS: readonly ImportFormat[] = IMPORT_FORMATS.map((f) => f.name);

/** Runs one command; resolves to the process exit code. */
export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP.main);
    return command === undefined ? 2 : 0;
  }
  if (!(command in HELP) || command === 'main') {
    io.err(`muster: unknown command "${command}"\n\n${HELP.main}`);
    return 2;
  }
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs({
      args: rest,
      allowPositionals: command === 'import' || command === 'players' || command === 'replay',
      options: {
        help: { type: 'boolean', short: 'h' },
        format: { type: 'string' },
        strict: { type: 'boolean' },
        system: { type: 'string' },
        'max-rejects': { type: 'string' },
        'batch-games': { type: 'string' },
        'max-record-mb': { type: 'string' },
        'seed-if-empty': { type: 'boolean' },
        force: { type: 'boolean' },
        import: { type: 'string' },
        event: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        note: { type: 'string' },
        'min-score': { type: 'string' },
        watch: { type: 'boolean' },
        every: { type: 'string' },
        db: { type: 'string' },
      },
      strict: true,
    });
  } catch (error) {
    io.err(`muster ${command}: ${(error as Error).message}\n\n${HELP[command]}`);
    return 2;
  }
  if (args.values.help) {
    io.out(HELP[command]);
    return 0;
  }
  const replay = command === 'replay' ? replayArguments(args, io) : null;
  if (replay === 'usage') return 2;
  let config: Config;
  try {
    // replay's --db names the store in place of MUSTER_DATABASE_URL.
    const { db: url } = args.values as { db?: string };
    const store = command === 'replay' ? url : undefined;
    config = loadConfig(store === undefined ? io.env : { ...io.env, MUSTER_DATABASE_URL: store });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`muster: invalid configuration: ${error.message}`);
      return 2;
    }
    throw error;
  }

  if (command === 'serve') {
    const seedIfEmpty = args.values['seed-if-empty'] === true;
    // Loaded only to serve: the HTTP stack (Fastify, OpenAPI, the web client's files) costs an
    // import or an export tens of MiB it never uses.
    const { serve } = await import('./serve.ts');
    return serve(config, { seedIfEmpty, io });
  }

  const store = await openMigratedStore(config.databaseUrl).catch((error: Error) => {
    io.err(`muster: cannot open the store at ${config.databaseUrl}: ${error.message}`);
    return null;
  });
  if (store === null) return 1;
  try {
    if (command === 'migrate') {
      io.out(
        `store ${store.location} is at the latest schema (data version ${await store.dataVersion()})`,
      );
      return 0;
    }
    if (command === 'seed-demo') {
      if (!args.values.force && !(await storeIsEmpty(store))) {
        io.err(
          'muster seed-demo: the store already holds events; pass --force to add the demo anyway',
        );
        return 1;
      }
      const report = await seedDemo(store);
      printReport(report, io.out);
      return report.rejects.length > 0 ? 1 : 0;
    }
    if (command === 'export') return await runExport(store, args.values, io);
    if (command === 'rejects') return await runRejects(store, args.values, io);
    if (command === 'players') return await runPlayers(store, args.positionals, args.values, io);
    if (replay !== null) return await replayEvent(store, replay.file, replay.options, io);
    return await runImportCommand(store, args, io);
  } catch (error) {
    io.err(`muster ${command}: ${(error as Error).message}`);
    return 1;
  } finally {
    await store.close();
  }
}

type CliArgs = ReturnType<typeof parseArgs>;

/** `muster replay`'s file and options, or 'usage' once the mistake is printed. */
function replayArguments(
  args: CliArgs,
  io: CliIo,
): { file: string; options: ReplayOptions } | 'usage' {
  const [file, ...more] = args.positionals;
  if (file === undefined || more.length > 0) {
    io.err(`muster replay: name one EVENT_FILE\n\n${HELP.replay}`);
    return 'usage';
  }
  const text = (args.values.every as string | undefined) ?? '10s';
  const everyMs = parseEvery(text);
  if (everyMs === null) {
    io.err(
      `muster replay: --every takes a time from 100ms to 1h (500ms, 10s, 2m, 1h), got "${text}"`,
    );
    return 'usage';
  }
  const event = args.values.event as string | undefined;
  return { file, options: { everyMs, ...(event !== undefined ? { event } : {}) } };
}

/** `muster rejects [--import N]`: an import's rejected records as JSON lines. */
async function runRejects(store: Store, values: CliArgs['values'], io: CliIo): Promise<number> {
  const text = values.import as string | undefined;
  if (text !== undefined && !/^\d+$/.test(text)) {
    io.err(`muster rejects: --import takes an import id (a whole number), got "${text}"`);
    return 2;
  }
  const importId = text !== undefined ? Number(text) : await latestFinishedImport(store);
  if (importId !== null && !(await importExists(store, importId))) {
    io.err(`muster rejects: no import ${importId} in this store`);
    return 2;
  }
  if (importId === null) {
    io.err('muster rejects: no import has run yet');
    return 0;
  }
  const rejects = await readRejects(store, importId);
  for (const r of rejects) io.out(JSON.stringify(r));
  if (rejects.length === 0) {
    const later = await supersedingImport(store, importId);
    io.err(
      later === null
        ? `muster rejects: import ${importId} rejected nothing`
        : `muster rejects: import ${importId}'s rejects were taken over by import ${later}, a later import of the same files (muster rejects --import ${later})`,
    );
  }
  return 0;
}

/** `muster import`: reads the paths with the format's adapter, imports, prints the report. */
async function runImportCommand(store: Store, args: CliArgs, io: CliIo): Promise<number> {
  // Without --format, `muster export > store.ndjson; muster import store.ndjson` reads it line by
  // line as NDJSON, each bad line rejected alone, not as one canonical document.
  const format = (args.values.format ?? formatOfPaths(args.positionals).name) as ImportFormat;
  if (!FORMATS.includes(format)) {
    io.err(`muster import: --format must be one of ${FORMATS.join(', ')}, got "${format}"`);
    return 2;
  }
  const spec = importFormatNamed(format)!;
  if (spec.needsEvent !== (args.values.event !== undefined)) {
    const takers = IMPORT_FORMATS.filter((f) => f.needsEvent).map((f) => f.name);
    io.err(
      spec.needsEvent
        ? `muster import: --format ${format} needs --event ID, the event whose players the rosters belong to`
        : `muster import: --event is for --format ${takers.join(', ')} only, not ${format}`,
    );
    return 2;
  }
  if (args.positionals.length === 0) {
    io.err(`muster import: name at least one PATH (or - for stdin)\n\n${HELP.import}`);
    return 2;
  }
  const maxRejects = Number(args.values['max-rejects'] ?? 50);
  const batchText = args.values['batch-games'] as string | undefined;
  if (batchText !== undefined && !/^[1-9]\d{0,6}$/.test(batchText)) {
    io.err(
      `muster import: --batch-games takes a whole number from 1 to 9999999, got "${batchText}"`,
    );
    return 2;
  }
  const recordText = args.values['max-record-mb'] as string | undefined;
  if (recordText !== undefined && !/^[1-9]\d{0,3}$/.test(recordText)) {
    io.err(
      `muster import: --max-record-mb takes a whole number of MiB from 1 to 9999, got "${recordText}"`,
    );
    return 2;
  }
  const watching = args.values.watch === true;
  if (watching && args.positionals.includes('-')) {
    io.err('muster import: --watch watches files and folders, not standard input');
    return 2;
  }
  const progress = progressLine(io);
  const options: Parameters<typeof importSources>[2] = {
    format,
    strict: args.values.strict === true,
    system: args.values.system as string | undefined,
    event: args.values.event as string | undefined,
    onProgress: (message) => progress.note(message),
    onBatch: (p) => {
      progress.batch(p);
      collectGarbage();
    },
    ...(batchText !== undefined ? { batchGames: Number(batchText) } : {}),
    ...(recordText !== undefined ? { maxRecordBytes: Number(recordText) * 1024 * 1024 } : {}),
  };
  const shown = Number.isFinite(maxRejects) ? maxRejects : 50;
  if (watching) {
    return watchImports(store, args.positionals, options, io, { spec, maxRejects: shown });
  }
  const report = await importSources(store, args.positionals, options);
  progress.done();
  printReport(report, io.out, shown);
  return report.rejects.length > 0 ? 1 : 0;
}
