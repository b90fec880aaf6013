/**
 * Issue-level behaviour on the generated demo data: a balance patch read with compareTo, matchup
 * cells shrunk, item deltas with their interval and a skill control, clustered intervals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe(`uncertainty on the demo data (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let stats: StatsApp;
  before(async () => {
    store = await openTestStore();
    await importCanonical(store, generateDemo({ today: '2025-06-15' }));
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats.close();
    await store.close();
  });

  it('answers rules version 2.2 against 2.1 with per-faction differences and intervals', async () => {
    const { status, json } = await stats.post('/api/faction-stats', {
      rulesVersions: ['2.2'],
      compareTo: { rulesVersions: ['2.1'] },
    });
    assert.equal(status, 200);
    const rows = (json.data as Row).factions as Row[];
    assert.ok(rows.length > 5);
    for (const row of rows) {
      const c = row.compare;
      assert.ok(c.games > 0, row.faction.id);
      assert.ok(Math.abs(c.difference - (row.winRate - c.winRate)) < 1e-12);
      assert.ok(
        c.differenceInterval.low < c.difference && c.difference < c.differenceInterval.high,
      );
      assert.equal(c.excludesZero, c.differenceInterval.low > 0 || c.differenceInterval.high < 0);
    }
    assert.ok((json.meta as Row).compareSample.games > 0);
    // The demo world moves faction strengths between versions: some changes are not noise.
    assert.ok(rows.some((r) => r.compare.excludesZero));
  });

  it('carries shrunkWinRate on matchup cells, pulled toward the row, more for small cells', async () => {
    const { json } = await stats.post('/api/army-matchup', {});
    const strength = (json.meta as Row).shrinkage.priorStrength;
    assert.ok(strength > 0 && strength < 1_000_000, String(strength));
    for (const cell of (json.data as Row).cells as Row[]) {
      assert.equal(typeof cell.shrunkWinRate, 'number');
      if (cell.faction === cell.opponent) continue;
      // Shrinking never overshoots: the shrunk rate lies between the raw rate and the prior.
      assert.ok(Math.abs(cell.shrunkWinRate - 0.5) <= Math.abs(cell.winRate - 0.5) + 0.2);
    }
  });

  it("gives item rows the delta's interval and skillAdjustedDelta", async () => {
    const { json } = await stats.post('/api/item-use-stats', { minLists: 20 });
    const items = (json.data as Row).items as Row[];
    assert.ok(items.length > 0);
    const withBoth = items.filter((i) => i.deltaInterval !== null && i.skillAdjustedDelta !== null);
    assert.ok(withBoth.length > 0);
    for (const i of withBoth) {
      assert.ok(i.deltaInterval.low <= i.delta && i.delta <= i.deltaInterval.high);
    }
  });

  it('sorts items by evidence: clear effects first, a big delta from few lists not ahead of them', async () => {
    const items: Row[] = [];
    for (let page = 1; page <= 2; page++) {
      const { status, json } = await stats.post('/api/item-use-stats', {
        sort: 'evidence',
        page,
        pageSize: 200,
      });
      assert.equal(status, 200);
      items.push(...((json.data as Row).items as Row[]));
      if (page === 2) assert.equal(items.length, (json.data as Row).total);
    }
    const evidence = (i: Row) =>
      i.deltaInterval === null
        ? -1
        : i.deltaInterval.low > 0
          ? i.deltaInterval.low
          : i.deltaInterval.high < 0
            ? -i.deltaInterval.high
            : 0;
    for (let k = 1; k < items.length; k++) {
      assert.ok(evidence(items[k - 1]) >= evidence(items[k]), `out of order at ${k}`);
    }
    const clear = items.filter((i) => evidence(i) > 0);
    assert.ok(clear.length > 0, 'no item with an interval excluding 0');
    // The item with the largest |delta| and an interval spanning 0 comes after every clear one.
    const noisy = items
      .filter((i) => i.delta !== null && evidence(i) === 0)
      .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))[0];
    assert.ok(items.indexOf(noisy) >= clear.length);
    const byDelta = await stats.post('/api/item-use-stats', { sort: 'delta', pageSize: 5 });
    const top = ((byDelta.json.data as Row).items as Row[])[0];
    // Sort "delta" no longer lets a handful of lists lead (docs/statistics.md#emphasis).
    assert.equal(top.deltaEnoughLists, true, 'sort "delta" is headed by 20 lists a side');
  });

  it('widens intervals with interval "event-clustered", never narrowing one', async () => {
    const wilson = await stats.post('/api/faction-stats', {});
    const clustered = await stats.post('/api/faction-stats', { interval: 'event-clustered' });
    const byId = new Map<string, Row>(
      ((wilson.json.data as Row).factions as Row[]).map((f) => [f.faction.id, f]),
    );
    for (const row of (clustered.json.data as Row).factions as Row[]) {
      const w = byId.get(row.faction.id)!.winRateInterval;
      const c = row.winRateInterval;
      assert.ok(c.high - c.low >= w.high - w.low - 1e-12, row.faction.id);
    }
  });
});
