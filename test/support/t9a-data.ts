/**
 * The full T9A data set from ../shared (CI has it; a user's clone does not), unpacked once per
 * test pass. Returns null, for the test to skip, when it is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openMigratedStore, openStore } from '../../src/store/store.ts';
import { buildOnce, passName } from './build-once.ts';
import { openTestStore, TEST_BACKEND, TEST_DATABASE_URL } from './test-store.ts';
import type { TestStore } from './test-store.ts';

export const T9A_ARCHIVE = resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'data',
  't9a',
  't9a-data-until-2026-04-19.tar.xz',
);
export const T9A_SKIP_REASON = `the full T9A data set is not here (${T9A_ARCHIVE}); only the committed slice is tested`;

let unpacked: Promise<string | null> | null = null;

/**
 * The unpacked `data` folder, or null when ../shared/data/t9a is absent. Unpacking takes seconds
 * (15,536 small files), so within a test pass it is done once, by the first process to ask, into
 * a folder the runner removes after the pass; a file run on its own unpacks into a folder of its
 * own.
 */
export function fullT9aData(): Promise<string | null> {
  unpacked ??= unpack();
  return unpacked;
}

async function unpack(): Promise<string | null> {
  if (!existsSync(T9A_ARCHIVE)) return null;
  const run = passName();
  let dir: string;
  if (run === null) {
    dir = mkdtempSync(join(tmpdir(), 'muster-t9a-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    execFileSync('tar', ['-xJf', T9A_ARCHIVE, '-C', dir]);
  } else {
    dir = join(tmpdir(), `muster-test-${run}-t9a-data`);
    await buildOnce(dir, (building) => {
      mkdirSync(building);
      execFileSync('tar', ['-xJf', T9A_ARCHIVE, '-C', building]);
      return Promise.resolve();
    });
  }
  const data = join(dir, 'data');
  if (readdirSync(data).length === 0)
    throw new Error(`unpacking ${T9A_ARCHIVE} gave no tournaments`);
  return data;
}

/**
 * A store holding the whole T9A set, imported once per test pass and shared by the test files
 * that only read it: the runner names the pass in MUSTER_TEST_RUN and removes the store after
 * it (scripts/run-tests.mjs). A file run on its own imports into a store of its own. Null when
 * the set is absent. Never write to it.
 */
export async function sharedT9aStore(): Promise<TestStore | null> {
  if (!existsSync(T9A_ARCHIVE)) return null;
  const run = passName();
  if (run === null) {
    const data = await fullT9aData();
    const store = await openTestStore();
    await importSources(store, [data as string], { format: 't9a' });
    return store;
  }
  return TEST_BACKEND === 'postgres' ? sharedOnPostgres(run) : sharedOnSqlite(run);
}

/** The pass's SQLite file: the first process to take the lock imports it, the others wait. */
async function sharedOnSqlite(run: string): Promise<TestStore> {
  const file = join(tmpdir(), `muster-test-${run}-t9a.db`);
  await buildOnce(file, async (building) => {
    const data = await fullT9aData();
    const store = await openMigratedStore(`sqlite:${building}`);
    try {
      await importSources(store, [data as string], { format: 't9a' });
    } finally {
      await store.close();
    }
  });
  const url = `sqlite:${file}`;
  return Object.assign(await openStore(url), { url });
}

/** The pass's PostgreSQL schema, imported under an advisory lock by the first process. */
async function sharedOnPostgres(run: string): Promise<TestStore> {
  const schema = `t_run_${run}_t9a`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [schema]);
    const done = await client.query(
      'select 1 from information_schema.tables where table_schema = $1 and table_name = $2',
      [schema, 'shared_import_done'],
    );
    if (done.rowCount === 0) {
      // A pass that crashed mid-import leaves a partial schema: start it again.
      await client.query(`drop schema if exists ${schema} cascade`);
      const data = await fullT9aData();
      const store = await openMigratedStore(TEST_DATABASE_URL, { schema });
      try {
        await importSources(store, [data as string], { format: 't9a' });
      } finally {
        await store.close();
      }
      await client.query(`create table ${schema}.shared_import_done (at timestamptz)`);
    }
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [schema]).catch(() => {});
    await client.end();
  }
  const sep = TEST_DATABASE_URL.includes('?') ? '&' : '?';
  const store = await openStore(TEST_DATABASE_URL, { schema });
  return Object.assign(store, { url: `${TEST_DATABASE_URL}${sep}schema=${schema}` });
}
