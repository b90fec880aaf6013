/**
 * Opens an isolated, migrated store for one test on the backend under test: SQLite in memory by
 * default, PostgreSQL (a fresh schema) when MUSTER_TEST_DATABASE_URL names one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedStore } from '../../src/store/store.ts';
import type { Store } from '../../src/store/store.ts';

export const TEST_DATABASE_URL = process.env.MUSTER_TEST_DATABASE_URL ?? 'sqlite::memory:';
export const TEST_BACKEND = /^postgres/i.test(TEST_DATABASE_URL) ? 'postgres' : 'sqlite';

export interface TestStore extends Store {
  /** The URL (with schema) another process or a second store instance can open. */
  readonly url: string;
}

/** A fresh migrated store (on PostgreSQL in a schema named t_..., dropped by the runner). */
export async function openTestStore(): Promise<TestStore> {
  if (TEST_BACKEND === 'sqlite') {
    const store = await openMigratedStore('sqlite::memory:');
    return Object.assign(store, { url: 'sqlite::memory:' });
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const store = await openMigratedStore(TEST_DATABASE_URL, { schema });
  const sep = TEST_DATABASE_URL.includes('?') ? '&' : '?';
  // The schema is not dropped here: a DROP SCHEMA racing another test process's migration makes
  // that migration's catalogue introspection fail. The runner drops every test schema when the
  // PostgreSQL pass is over (scripts/run-tests.mjs).
  return Object.assign(store, { url: `${TEST_DATABASE_URL}${sep}schema=${schema}` });
}

/**
 * A fresh migrated store that another thread or process can open too (a file on SQLite, a
 * schema on PostgreSQL), and how to remove it once closed.
 */
export async function openSharedTestStore(): Promise<{ store: TestStore; cleanup: () => void }> {
  if (TEST_BACKEND === 'postgres') return { store: await openTestStore(), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'muster-shared-'));
  const url = `sqlite:${join(dir, 'muster.db')}`;
  const store = Object.assign(await openMigratedStore(url), { url });
  return { store, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
