import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportReport } from '../../src/ingest/import-types.ts';
import { fullT9aData, T9A_SKIP_REASON } from '../support/t9a-data.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const data = await fullT9aData();

/** What a plain reading of the raw files says should import and be rejected. */
function expectedFromRawFiles(dir: string) {
  let reports = 0;
  let offScale = 0;
  let noId = 0;
  for (const t of readdirSync(dir)) {
    for (const name of readdirSync(join(dir, t)).filter((n) => n.startsWith('report_'))) {
      reports++;
      const r = JSON.parse(readFileSync(join(dir, t, name), 'utf8'));
      if (!r.id_match && !r.id) noId++;
      const [a, b] = [r.scoreOne, r.scoreTwo];
      const ok =
        Number.isInteger(a) &&
        Number.isInteger(b) &&
        a >= 0 &&
        a <= 20 &&
        b >= 0 &&
        b <= 20 &&
        a + b === 20;
      if (!ok) offScale++;
    }
  }
  return { tournaments: readdirSync(dir).length, reports, offScale, noId };
}

describe(
  `the whole T9A data set (${TEST_BACKEND})`,
  { skip: data === null ? T9A_SKIP_REASON : false },
  () => {
    let store: TestStore;
    let first: ImportReport;
    before(async () => {
      store = await openTestStore();
      first = await importSources(store, [data as string], { format: 't9a' });
    });
    after(async () => {
      await store?.close();
    });

    it('imports all 403 tournaments and every valid report (the id-less ones too), rejecting each bad one with its reason', () => {
      const expected = expectedFromRawFiles(data as string);
      assert.equal(expected.tournaments, 403);
      assert.equal(expected.reports, 15536);
      assert.equal(expected.noId, 4);
      assert.equal(first.counts.events.imported, 403);
      assert.equal(first.counts.games.imported, 15_258);
      assert.equal(first.counts.games.imported, expected.reports - expected.offScale);
      assert.equal(first.derivedIds, expected.noId);
      assert.equal(first.counts.games.rejected, expected.offScale);
      assert.equal(first.rejects.length, expected.offScale);
      for (const r of first.rejects) {
        assert.ok(r.source.includes('report_'), `reject names its file: ${r.source}`);
        assert.match(r.reason, /outside the t9a scale|do not sum to 20/);
      }
    });

    it('changes nothing when imported again', async () => {
      const again = await importSources(store, [data as string], { format: 't9a' });
      assert.equal(again.counts.games.imported + again.counts.games.updated, 0);
      assert.equal(again.counts.games.unchanged, first.counts.games.imported);
      assert.equal(again.counts.events.unchanged, 403);
      assert.equal(again.counts.lists.unchanged, first.counts.lists.imported);
      assert.equal(again.dataVersion, first.dataVersion);
      assert.equal(again.derivedIds, first.derivedIds, 'derived ids are the same the second time');
    });
  },
);
