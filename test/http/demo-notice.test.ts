/**
 * The demo label belongs to the data (docs/import-formats.md#game-systems): a system imported
 * with `demo: true` is announced in every answer about it and flagged by GET /api/filters; real
 * results beside it are not; an export carries the flag into another store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportStore } from '../../src/cli/export-store.ts';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { loadConfig } from '../../src/config/config.ts';
import { buildAppWithEngine } from '../../src/threads/app-with-engine.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { demoSlice } from '../support/test-app.ts';
import { randomBytes } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { migrationProvider } from '../../src/store/migrations.ts';
import { openStore } from '../../src/store/store.ts';
import { openTestStore, TEST_BACKEND, TEST_DATABASE_URL } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

async function serving(store: TestStore) {
  const snapshots = new SnapshotManager(store, { pollMs: 60_000 });
  await snapshots.start();
  const app = await buildAppWithEngine(
    { config: loadConfig({}), store, snapshots },
    { logger: false },
  );
  const post = async (url: string, payload: object) =>
    (
      await app.inject({
        method: 'POST',
        url,
        headers: { origin: 'http://localhost:8080', 'content-type': 'application/json' },
        payload,
      })
    ).json().meta.warnings as string[];
  const filters = async () =>
    (await app.inject({ method: 'GET', url: '/api/filters' })).json() as {
      data: { systems: Array<{ id: string; demo: boolean }> };
      meta: { demo: boolean };
    };
  return {
    post,
    filters,
    async close() {
      snapshots.stop();
      await app.close();
    },
  };
}

const DEMO_NOTICE = /^DEMO DATA: generated, not real tournament results$/;

describe(`demo data is labelled per system (${TEST_BACKEND})`, () => {
  it('leads the warnings with the demo notice only in answers about a demo system', async () => {
    const store = await openTestStore();
    try {
      await importCanonical(store, demoSlice());
      await importCanonical(store, smallDocument());
      const served = await serving(store);
      try {
        const answer = await served.filters();
        assert.equal(answer.meta.demo, true);
        assert.deepEqual(
          answer.data.systems.map((s) => [s.id, s.demo]),
          [
            ['demo-fantasy', true],
            ['tow', false],
          ],
        );
        for (const url of ['/api/faction-stats', '/api/army-matchup', '/api/rankings']) {
          assert.match((await served.post(url, { system: 'demo-fantasy' }))[0], DEMO_NOTICE, url);
          const real = await served.post(url, { system: 'tow' });
          assert.ok(!real.some((w) => /DEMO/.test(w)), `${url}: real results labelled demo`);
        }
        const satellites = await served.post('/api/upcoming-satellites', { system: 'tow' });
        assert.ok(!satellites.some((w) => /DEMO/.test(w)));
      } finally {
        await served.close();
      }
    } finally {
      await store.close();
    }
  });

  it('says nothing of demo data on real results alone', async () => {
    const store = await openTestStore();
    try {
      await importCanonical(store, smallDocument());
      const served = await serving(store);
      try {
        assert.ok(!(await served.post('/api/faction-stats', {})).some((w) => /DEMO/.test(w)));
        const answer = await served.filters();
        assert.equal(answer.meta.demo, false);
        assert.deepEqual(
          answer.data.systems.map((s) => s.demo),
          [false],
        );
      } finally {
        await served.close();
      }
    } finally {
      await store.close();
    }
  });

  it('keeps the label through an export imported into another store', async () => {
    const source = await openTestStore();
    const target = await openTestStore();
    try {
      await importCanonical(source, demoSlice());
      const lines: string[] = [];
      await exportStore(source.db, (line) => {
        lines.push(line);
      });
      const first = JSON.parse(lines[0]) as CanonicalDocument;
      assert.equal(first.systems?.[0].demo, true, 'the export drops the demo flag');
      for (const line of lines) {
        await importCanonical(target, JSON.parse(line) as CanonicalDocument);
      }
      const served = await serving(target);
      try {
        const answer = await served.filters();
        assert.equal(answer.meta.demo, true);
        assert.deepEqual(
          answer.data.systems.map((s) => [s.id, s.demo]),
          [['demo-fantasy', true]],
        );
        assert.match((await served.post('/api/faction-stats', {}))[0], DEMO_NOTICE);
      } finally {
        await served.close();
      }
    } finally {
      await source.close();
      await target.close();
    }
  });

  it('marks the seeded demo system, and no other, when a store from before the label migrates', async () => {
    const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const store =
      TEST_BACKEND === 'sqlite'
        ? await openStore('sqlite::memory:')
        : await openStore(TEST_DATABASE_URL, { schema });
    try {
      const migrator = new Migrator({
        db: store.db,
        provider: migrationProvider(store.dialect),
        ...(TEST_BACKEND === 'sqlite' ? {} : { migrationTableSchema: schema }),
      });
      const { error } = await migrator.migrateTo('0002-optional-score-rules');
      assert.equal(error, undefined);
      await sql`insert into systems (id, name) values ('demo-fantasy', 'Demo'), ('t9a', 'T9A')`.execute(
        store.db,
      );
      await sql`insert into meta (key, value) values ('demo', 'seeded before')`.execute(store.db);
      await store.migrate();
      const rows = await store.db
        .selectFrom('systems')
        .select(['id', 'demo'])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.id, Number(r.demo)]),
        [
          ['demo-fantasy', 1],
          ['t9a', 0],
        ],
      );
    } finally {
      await store.close();
    }
  });
});
