import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { buildAppWithEngine } from '../../src/threads/app-with-engine.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import { writeMeta } from '../../src/store/store.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

describe(`GET /api/health (${TEST_BACKEND})`, () => {
  it('passes with checks for the store, the data version, the snapshot and the last import', async () => {
    const store = await openTestStore();
    const snapshots = new SnapshotManager(store, { pollMs: 60_000 });
    const app = await buildAppWithEngine(
      { config: loadConfig({}), store, snapshots },
      { logger: false },
    );
    try {
      await importCanonical(store, smallDocument());
      await writeMeta(store.db, 'demo', 'generated for the test');
      await snapshots.start();
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^application\/health\+json/);
      const body = res.json();
      assert.equal(body.status, 'pass');
      assert.match(body.version, /^\d+\.\d+\.\d+$/);
      assert.equal(body.checks['store:responseTime'][0].componentId, TEST_BACKEND);
      assert.equal(body.checks['store:responseTime'][0].observedUnit, 'ms');
      assert.equal(body.checks['store:dataVersion'][0].observedValue, 1);
      const snapshot = body.checks['snapshot:games'][0];
      assert.equal(snapshot.observedValue, 3);
      assert.equal(snapshot.dataVersion, 1);
      assert.match(body.checks['import:last'][0].output, /games 3 imported/);
      assert.ok(
        body.notes.some((n: string) => /DEMO/.test(n)),
        'demo data is announced',
      );
    } finally {
      snapshots.stop();
      await app.close();
      await store.close();
    }
  });

  it('warns while the snapshot is behind the store, and passes again after the reload', async () => {
    const store = await openTestStore();
    const snapshots = new SnapshotManager(store, { pollMs: 60_000 });
    const app = await buildAppWithEngine(
      { config: loadConfig({}), store, snapshots },
      { logger: false },
    );
    try {
      await snapshots.start();
      await importCanonical(store, smallDocument());
      const stale = (await app.inject({ method: 'GET', url: '/api/health' })).json();
      assert.equal(stale.status, 'warn');
      assert.match(stale.checks['snapshot:games'][0].output, /reloading: store is at version 1/);
      await snapshots.refresh();
      assert.equal((await app.inject({ method: 'GET', url: '/api/health' })).json().status, 'pass');
    } finally {
      snapshots.stop();
      await app.close();
      await store.close();
    }
  });

  it('warns with 200 (degraded, not down) when the store is unreachable while a snapshot answers', async () => {
    const store = await openTestStore();
    const snapshots = new SnapshotManager(store, { pollMs: 60_000 });
    const app = await buildAppWithEngine(
      { config: loadConfig({}), store, snapshots },
      { logger: false },
    );
    try {
      await importCanonical(store, smallDocument());
      await snapshots.start();
      await store.close();
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.status, 'warn');
      assert.equal(body.checks['store:responseTime'][0].status, 'fail');
      assert.equal(body.checks['snapshot:games'][0].status, 'warn');
      assert.equal(body.checks['snapshot:games'][0].observedValue, 3);
      assert.match(body.checks['snapshot:games'][0].output, /snapshot of data version 1/);
    } finally {
      snapshots.stop();
      await app.close();
    }
  });

  it('fails with 503 when the store is unreachable and no snapshot is loaded', async () => {
    const store = await openTestStore();
    const app = await buildAppWithEngine({ config: loadConfig({}), store }, { logger: false });
    try {
      await store.close();
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      assert.equal(res.statusCode, 503);
      const body = res.json();
      assert.equal(body.status, 'fail');
      assert.equal(body.checks['store:responseTime'][0].status, 'fail');
      assert.match(body.checks['store:responseTime'][0].output, /store unreachable/);
    } finally {
      await app.close();
    }
  });
});
