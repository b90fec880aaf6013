/**
 * A suite's store holding a seeded random document (random-document.ts), which another thread
 * can open too (a file on SQLite, a schema on PostgreSQL): opened and filled before the suite's
 * tests, closed and removed after them.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { openSharedTestStore } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { randomDocument } from './random-document.ts';
import type { RandomOptions } from './random-document.ts';

/** Registers the suite's hooks; `store` is set once its `before` hook has run. */
export function sharedRandomStore(options: RandomOptions): { store: TestStore } {
  const fixture = {} as { store: TestStore };
  let cleanup = () => {};
  before(async () => {
    ({ store: fixture.store, cleanup } = await openSharedTestStore());
    const report = await importCanonical(fixture.store, randomDocument(options));
    assert.equal(report.rejects.length, 0);
  });
  after(async () => {
    await fixture.store?.close();
    cleanup();
  });
  return fixture;
}
