#!/usr/bin/env node
// `npm test`: the whole suite on SQLite, then again on PostgreSQL (docs/operations.md#tests: both
// backends pass the same suite). PostgreSQL is MUSTER_TEST_POSTGRES_URL (default: the local test
// database); when it does not answer, the second pass is skipped with a message, or fails when
// CI=true. MUSTER_TEST_DATABASE_URL=... runs a single pass on that store (for development), file
// arguments narrow the run (`npm test -- test/ingest/import-sources.test.ts`), `--side-by-side`
// runs the two passes at once, and MUSTER_TEST_TIMINGS=FILE records each test file's time.
import { spawn } from 'node:child_process';
import {
  existsSync,
  globSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import pg from 'pg';

/** The test files under `dir`, not looking into fixture folders. */
function find(dir) {
  const exclude = (path) => basename(path) === 'fixtures';
  return globSync('**/*.test.ts', { cwd: dir, exclude }).map((file) => join(dir, file));
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const sideBySide = process.argv.includes('--side-by-side');
// Longest first: a pass runs two files at a time, and one that starts late and runs long leaves
// the other slot idle at the end. The browser tests (each drives Chromium) and the tests that start
// `muster serve` processes take several times as long as most files (docs/operations.md#tests);
// the rest follow in name order.
const LONG_FIRST = [/^test\/web\//, /^test\/cli\/serve/, /^test\/http\/rankings-satellites/];
const rank = (file) => {
  const i = LONG_FIRST.findIndex((pattern) => pattern.test(file));
  return i === -1 ? LONG_FIRST.length : i;
};
const files = (
  only.length ? only.flatMap((p) => (statSync(p).isDirectory() ? find(p) : [p])) : find('test')
)
  .map((f) => relative(process.cwd(), f))
  .sort()
  .sort((a, b) => rank(a) - rank(b));
const tapDir = mkdtempSync(join(tmpdir(), 'muster-tap-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

// Stores a pass's test files share read-only (test/support/t9a-data.ts) are named after the
// pass and removed after it: SQLite files in the temp folder here, PostgreSQL schemas (t_run_...)
// with the other test schemas.
function removeSharedFiles(run) {
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith(`muster-test-${run}-`)) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/**
 * Starts one pass (scripts/test-pass.mjs over every file) and resolves once it has ended.
 * Its spec output goes to `out`; the runner's totals come from its TAP file.
 */
function startPass(label, databaseUrl, out) {
  out(`\n# ${label}: ${files.length} test files\n`);
  const tap = join(tapDir, `${label.replace(/\W+/g, '-')}.tap`);
  const run = `${Date.now().toString(36)}${label.replace(/[^a-z0-9]/g, '')}`;
  const env = {
    ...process.env,
    MUSTER_LOG_LEVEL: process.env.MUSTER_LOG_LEVEL ?? 'silent',
    MUSTER_TEST_RUN: run,
    // Node's on-disk compile cache (keyed by each module's source) for every process the tests
    // start: a test file's process compiles the app's modules in about 0.8 s of CPU instead of
    // 1.4 s once the first one has filled it (docs/operations.md#tests).
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'muster-compile-cache'),
  };
  if (databaseUrl === null) delete env.MUSTER_TEST_DATABASE_URL;
  else env.MUSTER_TEST_DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['scripts/test-pass.mjs', `--tap=${tap}`, ...files], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  child.stdout.on('data', (chunk) => out(chunk));
  const started = Date.now();
  return new Promise((done) => {
    child.on('close', (status) => {
      out(`\n# ${label} pass took ${Math.round((Date.now() - started) / 1000)} s\n`);
      removeSharedFiles(run);
      count(status, tap);
      done();
    });
  });
}

/** Adds a finished pass's TAP counts to the totals; a pass that failed counts at least once. */
function count(status, tap) {
  if (status !== 0) exitCode = 1;
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const number = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  totals.passed += number('pass');
  totals.failed += number('fail') + number('cancelled');
  totals.skipped += number('skipped') + number('todo');
  if (status !== 0 && number('fail') + number('cancelled') === 0) totals.failed += 1;
}

/**
 * The output of a pass that runs beside another: held back until the pass before it has
 * printed everything, then written as it comes, so the log reads one pass after the other.
 */
function heldOutput() {
  const held = [];
  let live = false;
  return {
    write: (chunk) => (live ? process.stdout.write(chunk) : held.push(chunk)),
    release() {
      live = true;
      for (const chunk of held.splice(0)) process.stdout.write(chunk);
    },
  };
}

const print = (chunk) => process.stdout.write(chunk);

/** The ten slowest test files of the run, from scripts/test-timings.mjs's lines. */
function printSlowest(path) {
  if (!existsSync(path)) return;
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  console.log("\n# slowest test files (wall s, CPU s of the file's own process, backend)");
  for (const l of lines.sort((a, b) => b.wallMs - a.wallMs).slice(0, 10)) {
    const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);
    console.log(`# ${seconds(l.wallMs)} ${seconds(l.cpuMs)}  ${l.backend.padEnd(8)} ${l.file}`);
  }
}

// Test schemas (t_..., cli_...) are dropped here, before and after a PostgreSQL pass, not by the
// tests: a DROP SCHEMA racing another test process's migration breaks its introspection.
async function dropTestSchemas(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select schema_name from information_schema.schemata where schema_name ~ '^(t|cli)_[a-z0-9_]+$'",
    );
    for (const { schema_name: name } of rows)
      await client.query(`drop schema if exists ${name} cascade`);
  } finally {
    await client.end();
  }
}

async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error.message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

if (process.env.MUSTER_TEST_DATABASE_URL) {
  const url = process.env.MUSTER_TEST_DATABASE_URL;
  const postgres = /^postgres/i.test(url);
  if (postgres) await dropTestSchemas(url);
  await startPass(postgres ? 'postgresql' : 'sqlite', url, print);
  if (postgres) await dropTestSchemas(url);
} else {
  const pgUrl = process.env.MUSTER_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const problem = await postgresAnswers(pgUrl);
  if (problem === null) {
    await dropTestSchemas(pgUrl);
    if (sideBySide) {
      // Four test files at once instead of two: faster where cores are free, but the suite's
      // timing bounds (health during a reload, a child process's shutdown) failed this way on a
      // loaded 2-core machine, so it is not the default (docs/operations.md#tests).
      const held = heldOutput();
      const sqlite = startPass('sqlite', null, print).then(held.release);
      await Promise.all([sqlite, startPass('postgresql', pgUrl, held.write)]);
    } else {
      await startPass('sqlite', null, print);
      await startPass('postgresql', pgUrl, print);
    }
    await dropTestSchemas(pgUrl);
  } else {
    await startPass('sqlite', null, print);
    if (process.env.CI === 'true') {
      console.log(
        `\n# PostgreSQL pass FAILED: ${pgUrl} does not answer (${problem}) and CI=true requires it`,
      );
      totals.failed += 1;
      exitCode = 1;
    } else {
      console.log(`\n# PostgreSQL pass SKIPPED: ${pgUrl} does not answer (${problem}).`);
      console.log(
        '# Set MUSTER_TEST_POSTGRES_URL to a reachable database to run the suite on PostgreSQL too.',
      );
    }
  }
}
rmSync(tapDir, { recursive: true, force: true });
if (process.env.MUSTER_TEST_TIMINGS) printSlowest(process.env.MUSTER_TEST_TIMINGS);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
