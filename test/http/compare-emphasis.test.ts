/**
 * Emphasis on a before/after comparison (docs/statistics.md#emphasis): a change is emphasised
 * only with 20 games in each window and, among the comparisons answered together, after the
 * Benjamini–Hochberg correction; a 1-game v 3-game swing of 100 pp is listed, not emphasised.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { thinChangeDocument } from '../support/thin-change-document.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BEFORE = { to: '2025-08-31' };
const AFTER = { system: 'thin', from: '2025-09-01' };

describe(`emphasis of a before/after change (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: thinChangeDocument() });
  });
  after(async () => t.close());

  it('does not emphasise a 0 % (1 game) to 100 % (3 games) matchup, and does emphasise 60 v 60', async () => {
    const { status, json } = await post(t, '/api/army-matchup', { ...AFTER, compareTo: BEFORE });
    assert.equal(status, 200, JSON.stringify(json));
    const cell = (f: string, o: string) =>
      (json.data.cells as Row[]).find((c) => c.faction === f && c.opponent === o)!.compare;
    const cd = cell('C', 'D');
    assert.deepEqual([cd.games, cd.difference], [1, 1]);
    // The interval alone would call it a change: it is the sample that stops it.
    assert.equal(cd.excludesZero, true);
    assert.equal(cd.enoughGames, false);
    assert.equal(cd.emphasised, false);
    assert.equal(cell('D', 'C').emphasised, false);
    const ab = cell('A', 'B');
    assert.deepEqual(
      [ab.games, ab.enoughGames, ab.excludesZero, ab.emphasised],
      [60, true, true, true],
    );
    assert.ok(ab.adjustedPValue < 0.05 && ab.adjustedPValue >= ab.pValue, JSON.stringify(ab));
    // A v B and B v A are one comparison: the same adjusted p-value.
    assert.equal(cell('B', 'A').adjustedPValue, ab.adjustedPValue);
  });

  it('does not emphasise a faction whose change rests on four games', async () => {
    const { json } = await post(t, '/api/faction-stats', { ...AFTER, compareTo: BEFORE });
    const byId = new Map((json.data.factions as Row[]).map((f) => [f.faction.id, f.compare]));
    assert.equal(byId.get('C').difference, 1);
    assert.equal(byId.get('C').emphasised, false);
    assert.equal(byId.get('A').emphasised, true);
  });
});

describe(`item deltas sorted by size (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
  });
  after(async () => t.close());

  it('puts the items with 20 lists on each side first, and emphasises no delta short of them', async () => {
    const { status, json } = await post(t, '/api/item-use-stats', {
      sort: 'delta',
      pageSize: 200,
    });
    assert.equal(status, 200, JSON.stringify(json));
    const items = json.data.items as Row[];
    const enough = items.map((r) => r.deltaEnoughLists as boolean);
    const firstShort = enough.indexOf(false);
    assert.ok(firstShort > 0, 'some items have enough lists, some do not');
    assert.ok(
      enough.slice(firstShort).every((e) => !e),
      'the short ones come after',
    );
    for (const r of items) {
      if (!r.deltaEnoughLists) assert.equal(r.deltaEmphasised, false, r.item.name);
      assert.ok(r.deltaAdjustedPValue === null || r.deltaAdjustedPValue <= 1);
    }
    // By delta alone a handful of lists would lead: the largest delta is a short one.
    const largest = items.reduce((a, b) => ((b.delta ?? -1) > (a.delta ?? -1) ? b : a));
    assert.equal(largest.deltaEnoughLists, false);
    assert.notEqual(items[0], largest);
  });
});
