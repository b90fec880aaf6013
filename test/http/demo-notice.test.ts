import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import { writeMeta } from '../../src/store/store.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

describe(`demo data is announced in every answer (${TEST_BACKEND})`, () => {
  it('leads meta.warnings with the demo notice on statistics, rankings and satellites, and only on demo stores', async () => {
    const store = await openTestStore();
    const snapshots = new SnapshotManager(store, { pollMs: 60_000 });
    const app = await buildApp({ config: loadConfig({}), store, snapshots }, { logger: false });
    const post = async (url: string) =>
      (
        await app.inject({
          method: 'POST',
          url,
          headers: { origin: 'http://localhost:8080', 'content-type': 'application/json' },
          payload: {},
        })
      ).json().meta.warnings as string[];
    try {
      await importCanonical(store, smallDocument());
      await snapshots.start();
      assert.ok(!(await post('/api/faction-stats')).some((w) => /DEMO/.test(w)));
      await writeMeta(store.db, 'demo', 'generated for the test');
      await snapshots.reload();
      for (const url of [
        '/api/faction-stats',
        '/api/army-matchup',
        '/api/rankings',
        '/api/upcoming-satellites',
      ]) {
        const warnings = await post(url);
        assert.match(
          warnings[0],
          /^DEMO DATA: generated \(generated for the test\), not real tournament results$/,
          url,
        );
      }
    } finally {
      snapshots.stop();
      await app.close();
      await store.close();
    }
  });
});
