/**
 * Stores the test files of one pass fill once and then only read (docs/operations.md#tests): a
 * SQLite file in the temp folder or a PostgreSQL schema (t_run_...), named after the pass and
 * removed by the runner after it (scripts/run-tests.mjs). A file run on its own fills a store of
 * its own. Never write to one.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openMigratedStore, openStore } from '../../src/store/store.ts';
import type { Store } from '../../src/store/store.ts';
import { buildOnce, passName } from './build-once.ts';
import { openTestStore, TEST_BACKEND, TEST_DATABASE_URL } from './test-store.ts';
import type { TestStore } from './test-store.ts';

/**
 * A handle on the pass's store named `name` (lower-case letters, digits and _), filled by `fill`
 * by the first test process to ask; close it when done.
 */
export async function sharedStore(
  name: string,
  fill: (store: Store) => Promise<void>,
): Promise<TestStore> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`shared store name "${name}"`);
  const run = passName();
  if (run === null) {
    const store = await openTestStore();
    await fill(store);
    return store;
  }
  return TEST_BACKEND === 'postgres'
    ? sharedOnPostgres(`t_run_${run}_${name}`, fill)
    : sharedOnSqlite(join(tmpdir(), `muster-test-${run}-${name}.db`), fill);
}

/** The pass's SQLite file: the first process to take the lock fills it, the others wait. */
async function sharedOnSqlite(
  file: string,
  fill: (store: Store) => Promise<void>,
): Promise<TestStore> {
  await buildOnce(file, async (building) => {
    const store = await openMigratedStore(`sqlite:${building}`);
    try {
      await fill(store);
    } finally {
      await store.close();
    }
  });
  const url = `sqlite:${file}`;
  return Object.assign(await openStore(url), { url });
}

/** The pass's PostgreSQL schema, filled under an advisory lock by the first process. */
async function sharedOnPostgres(
  schema: string,
  fill: (store: Store) => Promise<void>,
): Promise<TestStore> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [schema]);
    const done = await client.query(
      'select 1 from information_schema.tables where table_schema = $1 and table_name = $2',
      [schema, 'shared_import_done'],
    );
    if (done.rowCount === 0) {
      // A pass that crashed mid-fill leaves a partial schema: start it again.
      await client.query(`drop schema if exists ${schema} cascade`);
      const store = await openMigratedStore(TEST_DATABASE_URL, { schema });
      try {
        await fill(store);
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
