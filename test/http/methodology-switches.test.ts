/**
 * The methodology switches of the win-rate routes (docs/statistics.md#methodology-switches) on the
 * hand fixture (test/snapshot/hand-fixture.ts). Its completed games: g1 A beats B, g2 A draws B,
 * g3 the mirror A beats A, g4 B beats C, g5 B beats A. So A's non-mirror games are one win, one
 * draw and one loss (3 games); its mirror adds a win and a loss side; B has 2 wins, 1 draw and
 * 1 loss (4 games); the cell A>B is 1/1/1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { wilson } from '../../src/engine/intervals.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { HAND_DOCUMENT } from '../snapshot/hand-fixture.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

describe(`methodology switches on the win-rate routes (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let stats: StatsApp;
  before(async () => {
    store = await openTestStore();
    const report = await importCanonical(store, HAND_DOCUMENT);
    assert.equal(report.rejects.length, 0, JSON.stringify(report.rejects));
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats.close();
    await store.close();
  });

  /** The route's answer for `body`, rows keyed by `key`, and its meta.filter. */
  async function ask(path: string, body: object, rows: string, key: (row: Row) => string) {
    const { status, json } = await stats.post(path, body);
    assert.equal(status, 200, JSON.stringify(json));
    const data = json.data as Row;
    return {
      data,
      filter: (json.meta as Row).filter as Row,
      rows: new Map<string, Row>((data[rows] as Row[]).map((r) => [key(r), r])),
    };
  }
  const byFaction = (path: string, body: object) =>
    ask(path, body, 'factions', (r) => r.faction.id as string);
  const byCell = (body: object) =>
    ask('/api/army-matchup', body, 'cells', (c) => `${c.faction}>${c.opponent}`);

  for (const path of ['/api/faction-stats', '/api/faction-strength']) {
    it(`${path}: a draw counts half by default, and draws "exclude" leaves it out of both counts`, async () => {
      const half = await byFaction(path, {});
      assert.deepEqual([half.filter.draws, half.filter.mirrors], ['half', 'exclude']);
      const b = half.rows.get('B')!;
      assert.deepEqual([b.games, b.wins, b.draws, b.losses], [4, 2, 1, 1]);
      close(b.winRate, 2.5 / 4, 'B half');
      assert.deepEqual(b.winRateInterval, wilson(2.5, 4));

      const out = await byFaction(path, { draws: 'exclude' });
      assert.equal(out.filter.draws, 'exclude');
      const bx = out.rows.get('B')!;
      assert.deepEqual([bx.games, bx.wins, bx.draws, bx.losses], [4, 2, 1, 1]);
      close(bx.winRate, 2 / 3, 'B without its draw');
      assert.deepEqual(bx.winRateInterval, wilson(2, 3));
      assert.deepEqual(out.rows.get('A')!.winRateInterval, wilson(1, 2));
    });

    it(`${path}: mirrors are out by default, and "include" counts both sides of A's mirror`, async () => {
      const out = await byFaction(path, {});
      const a = out.rows.get('A')!;
      assert.deepEqual([a.games, a.wins, a.draws, a.losses], [3, 1, 1, 1]);
      assert.deepEqual(a.winRateInterval, wilson(1.5, 3));

      const both = await byFaction(path, { mirrors: 'include' });
      assert.equal(both.filter.mirrors, 'include');
      const ai = both.rows.get('A')!;
      assert.deepEqual([ai.games, ai.wins, ai.draws, ai.losses], [5, 2, 1, 2]);
      close(ai.winRate, 2.5 / 5, 'A with its mirror');
      assert.deepEqual(ai.winRateInterval, wilson(2.5, 5));

      const bothNoDraws = await byFaction(path, { mirrors: 'include', draws: 'exclude' });
      assert.deepEqual(bothNoDraws.rows.get('A')!.winRateInterval, wilson(2, 4));
    });

    it(`${path}: naming the defaults answers exactly what the bare request answers`, async () => {
      const bare = await stats.post(path, {});
      const named = await stats.post(path, { draws: 'half', mirrors: 'exclude' });
      assert.equal(JSON.stringify(named.json.data), JSON.stringify(bare.json.data));
      assert.deepEqual((named.json.meta as Row).filter, (bare.json.meta as Row).filter);
    });
  }

  it('faction-stats: mirrors decides over the older excludeMirrors, and both are echoed', async () => {
    const legacy = await byFaction('/api/faction-stats', { excludeMirrors: false });
    assert.deepEqual([legacy.filter.excludeMirrors, legacy.filter.mirrors], [false, 'include']);
    assert.equal(legacy.rows.get('A')!.games, 5);
    const both = await byFaction('/api/faction-stats', {
      excludeMirrors: false,
      mirrors: 'exclude',
    });
    assert.deepEqual([both.filter.excludeMirrors, both.filter.mirrors], [true, 'exclude']);
    assert.equal(both.rows.get('A')!.games, 3);
  });

  it('army-matchup: keeps its mirror cells by default and drops them with mirrors "exclude"', async () => {
    const bare = await byCell({});
    assert.equal(bare.filter.mirrors, 'include');
    const mirror = bare.rows.get('A>A')!;
    assert.equal(mirror.games, 1);
    close(mirror.winRate, 0.5, 'mirror');
    assert.deepEqual(mirror.winRateInterval, wilson(0.5, 1));

    const out = await byCell({ mirrors: 'exclude' });
    assert.equal(out.rows.has('A>A'), false);
    assert.deepEqual(out.rows.get('A>B'), bare.rows.get('A>B'));

    const named = await stats.post('/api/army-matchup', { draws: 'half', mirrors: 'include' });
    const plain = await stats.post('/api/army-matchup', {});
    assert.equal(JSON.stringify(named.json.data), JSON.stringify(plain.json.data));
  });

  it('army-matchup: draws "exclude" takes the interval and the shrunk rate on decided games', async () => {
    const half = await byCell({});
    assert.equal(half.filter.draws, 'half');
    const ab = half.rows.get('A>B')!;
    assert.deepEqual([ab.games, ab.wins, ab.draws, ab.losses], [3, 1, 1, 1]);
    assert.deepEqual(ab.winRateInterval, wilson(1.5, 3));

    const out = await byCell({ draws: 'exclude' });
    const abx = out.rows.get('A>B')!;
    close(abx.winRate, 1 / 2, 'A>B decided');
    assert.deepEqual(abx.winRateInterval, wilson(1, 2));
    const bc = out.rows.get('B>C')!;
    close(bc.winRate, 1, 'B>C');
    assert.deepEqual(bc.winRateInterval, wilson(1, 1));
  });

  it('refuses draws "exclude" with event-clustered intervals, pointing at draws', async () => {
    for (const path of ['/api/faction-stats', '/api/army-matchup']) {
      const { status, json } = await stats.post(path, {
        draws: 'exclude',
        interval: 'event-clustered',
      });
      assert.equal(status, 400, `${path}: ${JSON.stringify(json)}`);
      assert.equal((json.errors as Row[])[0].pointer, '/draws');
    }
    const bad = await stats.post('/api/faction-strength', { draws: 'quarter' });
    assert.equal(bad.status, 400);
  });
});
