#!/usr/bin/env node
// `npm test`: the whole suite on SQLite, then again on PostgreSQL (docs/operations.md#tests: both
// backends
// pass the same suite). PostgreSQL is MUSTER_TEST_POSTGRES_URL (default: the local test
// database); when it does not answer, the second pass is skipped with a message, or fails when
// CI=true. MUSTER_TEST_DATABASE_URL=... runs a single pass on that store (for development), and
// file arguments narrow the run: `npm test -- test/ingest/import-sources.test.ts`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = (
  only.length ? only.flatMap((p) => (statSync(p).isDirectory() ? find(p) : [p])) : find('test')
)
  .map((f) => relative(process.cwd(), f))
  .sort();
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

function runPass(label, databaseUrl) {
  console.log(`\n# ${label}: ${files.length} test files`);
  const tap = join(tapDir, `${label.replace(/\W+/g, '-')}.tap`);
  const run = `${Date.now().toString(36)}${label.replace(/[^a-z0-9]/g, '')}`;
  const env = {
    ...process.env,
    MUSTER_LOG_LEVEL: process.env.MUSTER_LOG_LEVEL ?? 'silent',
    MUSTER_TEST_RUN: run,
  };
  if (databaseUrl === null) delete env.MUSTER_TEST_DATABASE_URL;
  else env.MUSTER_TEST_DATABASE_URL = databaseUrl;
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { stdio: 'inherit', env },
  );
  removeSharedFiles(run);
  if (result.status !== 0) exitCode = 1;
  const text = readFileSync(tap, 'utf8');
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + count('cancelled');
  totals.skipped += count('skipped') + count('todo');
  if (result.status !== 0 && count('fail') + count('cancelled') === 0) totals.failed += 1;
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
  runPass(postgres ? 'postgresql' : 'sqlite', url);
  if (postgres) await dropTestSchemas(url);
} else {
  runPass('sqlite', null);
  const pgUrl = process.env.MUSTER_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const problem = await postgresAnswers(pgUrl);
  if (problem === null) {
    await dropTestSchemas(pgUrl);
    runPass('postgresql', pgUrl);
    await dropTestSchemas(pgUrl);
  } else if (process.env.CI === 'true') {
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
rmSync(tapDir, { recursive: true, force: true });
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
