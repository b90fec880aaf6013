/**
 * Over-representation on faction-stats (docs/statistics.md#over-representation), worked by hand
 * on a document written for it: each faction's share of top-10% finishes, X-0 runs and event
 * wins over its share of entries, over events with published or rule-derived placings only,
 * with the delta-method interval on log ratio. A team event (placings published all the same)
 * and a system without a placing rule change nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const Z = 1.959963984540054;
const game = (id: string, a: [string, string, number], b: [string, string, number]) => ({
  id,
  sides: [
    { player: a[0], faction: a[1], score: a[2], result: a[2] > b[2] ? 'win' : 'loss' },
    { player: b[0], faction: b[1], score: b[2], result: b[2] > a[2] ? 'win' : 'loss' },
  ],
});

/** E1's twelve entries, placed 1 to 12 in this order: A B A B A B A B B C C C. */
const E1_FACTIONS = ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'B', 'C', 'C', 'C'];

/**
 * System `x` ranks by wins, then total score.
 * - E1 publishes 12 places (top 10% = ceil(12/10) = 2 places: e1 of A, e2 of B; winner e1 of A).
 *   Games: e1 beats e2, e3 beats e10, e4 beats e11, so X-0 runs: e1 (A), e3 (A), e4 (B).
 * - E2 publishes nothing and is placed by the rule: f1 (A) wins twice, f3 (B) and f2 (C) once
 *   (f3 has 12 + 9 = 21 points, f2 5 + 13 = 18), f4 (C) none: 1 f1, 2 f3, 3 f2, 4 f4; top 10% =
 *   ceil(4/10) = 1 place: f1 (A), who also wins the event and is its only X-0 run.
 * - T is a team event publishing places all the same: g1 (A) 1st, beating g2 (C). Not counted.
 * System `n` declares no rule: its event N publishes nothing, so nothing there has places.
 *
 * Over E1 and E2: entries A 4 + 1 = 5, B 5 + 1 = 6, C 3 + 2 = 5, field N = 16.
 * Top 10%: A 2, B 1, C 0 (field 3). Event wins: A 2 (field 2). X-0 runs: A 3, B 1, C 0 (field 4).
 */
const DOCUMENT = {
  format: 'muster/v1',
  systems: [
    {
      id: 'x',
      name: 'Ranked',
      score: { min: 0, max: 20, total: 20 },
      placementRule: { name: 'wins, then total score', rank: ['wins', 'score'] },
    },
    { id: 'n', name: 'No Rule', score: { min: 0, max: 20, total: 20 } },
  ],
  factions: ['x', 'n'].flatMap((system) =>
    ['A', 'B', 'C'].map((id) => ({ id, system, name: `Faction ${id}` })),
  ),
  events: [
    {
      id: 'E1',
      system: 'x',
      name: 'Published',
      start: '2025-03-01',
      entries: E1_FACTIONS.map((faction, i) => ({
        player: `e${i + 1}`,
        faction,
        placement: i + 1,
      })),
      games: [
        game('E1a', ['e1', 'A', 15], ['e2', 'B', 5]),
        game('E1b', ['e3', 'A', 12], ['e10', 'C', 8]),
        game('E1c', ['e4', 'B', 14], ['e11', 'C', 6]),
      ],
    },
    {
      id: 'E2',
      system: 'x',
      name: 'Derived',
      start: '2025-03-08',
      games: [
        game('E2a', ['f1', 'A', 15], ['f2', 'C', 5]),
        game('E2b', ['f3', 'B', 12], ['f4', 'C', 8]),
        game('E2c', ['f1', 'A', 11], ['f3', 'B', 9]),
        game('E2d', ['f2', 'C', 13], ['f4', 'C', 7]),
      ],
    },
    {
      id: 'T',
      system: 'x',
      name: 'Teams',
      start: '2025-03-15',
      format: 'teams',
      entries: [
        { player: 'g1', faction: 'A', team: 'Reds', placement: 1 },
        { player: 'g2', faction: 'C', team: 'Blues', placement: 2 },
      ],
      games: [game('T1', ['g1', 'A', 14], ['g2', 'C', 6])],
    },
    {
      id: 'N',
      system: 'n',
      name: 'Unranked',
      start: '2025-03-01',
      games: [game('N1', ['h1', 'A', 15], ['h2', 'B', 5])],
    },
  ],
} as unknown as CanonicalDocument;

/**
 * R = (a/n) / (A/N), 95% interval exp(ln R ± Z·√V), V = 1/a − 1/n − 1/A − 1/N + 2a/(nA)
 * (a = 0: low 0, high from a = 0.5). Each case below: [a, n, A, N] → R, V worked out by hand.
 */
const interval = (centre: number, variance: number) => ({
  low: Math.exp(Math.log(centre) - Z * Math.sqrt(variance)),
  high: Math.exp(Math.log(centre) + Z * Math.sqrt(variance)),
});
const EXPECTED: Record<string, Record<string, { ratio: number; low: number; high: number }>> = {
  A: {
    // [2, 5, 3, 16]: R = 0.4 / 0.1875 = 32/15 ≈ 2.1333; V = 1/2 − 1/5 − 1/3 − 1/16 + 4/15 =
    // (120 − 48 − 80 − 15 + 64) / 240 = 41/240 ≈ 0.17083: about [0.957, 4.755].
    topTen: { ratio: 32 / 15, ...interval(32 / 15, 41 / 240) },
    // [3, 5, 4, 16]: R = 0.6 / 0.25 = 2.4; V = 1/3 − 1/5 − 1/4 − 1/16 + 6/20 =
    // (80 − 48 − 60 − 15 + 72) / 240 = 29/240 ≈ 0.12083: about [1.219, 4.725].
    undefeated: { ratio: 2.4, ...interval(2.4, 29 / 240) },
    // [2, 5, 2, 16]: every win is A's: R = 0.4 / 0.125 = 3.2; V = 1/n − 1/N = 1/5 − 1/16 = 11/80.
    eventWins: { ratio: 3.2, ...interval(3.2, 11 / 80) },
  },
  B: {
    // [1, 6, 3, 16]: R = (1/6) / (3/16) = 8/9; V = 1 − 1/6 − 1/3 − 1/16 + 2/18 =
    // (144 − 24 − 48 − 9 + 16) / 144 = 79/144 ≈ 0.54861: about [0.209, 3.786].
    topTen: { ratio: 8 / 9, ...interval(8 / 9, 79 / 144) },
    // [1, 6, 4, 16]: R = (1/6) / (1/4) = 2/3; V = 1 − 1/6 − 1/4 − 1/16 + 2/24 =
    // (48 − 8 − 12 − 3 + 4) / 48 = 29/48 ≈ 0.60417.
    undefeated: { ratio: 2 / 3, ...interval(2 / 3, 29 / 48) },
  },
  C: {
    // [0, 5, 3, 16]: R = 0; high from a = 0.5: R' = 0.1 / 0.1875 = 8/15, V = 2 − 1/5 − 1/3 −
    // 1/16 + 1/15 = (480 − 48 − 80 − 15 + 16) / 240 = 353/240 ≈ 1.47083: high about 5.55.
    topTen: { ratio: 0, low: 0, high: interval(8 / 15, 353 / 240).high },
  },
};

describe(`over-representation on faction-stats (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: DOCUMENT });
  });
  after(async () => t.close());

  const rows = async (system: string): Promise<Map<string, Row>> => {
    const { status, json } = await post(t, '/api/faction-stats', { system });
    assert.equal(status, 200, JSON.stringify(json));
    return new Map((json.data.factions as Row[]).map((r) => [r.faction.id, r]));
  };
  const near = (actual: number, expected: number, what: string) =>
    assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);

  it('counts entries and outcomes over the placed events only, team event left out', async () => {
    const got = await rows('x');
    const counts = (r: Row) => ({
      events: r.overRepresentation.events,
      entries: r.overRepresentation.entries,
      fieldEntries: r.overRepresentation.fieldEntries,
      top: [r.overRepresentation.topTen.count, r.overRepresentation.topTen.fieldCount],
      x0: [r.overRepresentation.undefeated.count, r.overRepresentation.undefeated.fieldCount],
      wins: [r.overRepresentation.eventWins.count, r.overRepresentation.eventWins.fieldCount],
    });
    assert.deepEqual(counts(got.get('A')!), {
      events: 2,
      entries: 5,
      fieldEntries: 16,
      top: [2, 3],
      x0: [3, 4],
      wins: [2, 2],
    });
    assert.deepEqual(counts(got.get('B')!).top, [1, 3]);
    assert.deepEqual(counts(got.get('C')!).x0, [0, 4]);
    near(got.get('A')!.overRepresentation.entryShare, 5 / 16, 'A entryShare');
  });

  it('answers the hand-worked ratios and intervals to 1e-9', async () => {
    const got = await rows('x');
    for (const [faction, figures] of Object.entries(EXPECTED)) {
      for (const [figure, want] of Object.entries(figures)) {
        const o = got.get(faction)!.overRepresentation[figure];
        assert.equal(o.reason, null);
        near(o.ratio, want.ratio, `${faction} ${figure} ratio`);
        near(o.interval.low, want.low, `${faction} ${figure} low`);
        near(o.interval.high, want.high, `${faction} ${figure} high`);
      }
    }
  });

  it('gives topShare over the same events as its entries', async () => {
    const got = await rows('x');
    near(got.get('A')!.topShare, 32 / 15, 'A topShare');
    near(got.get('B')!.topShare, 8 / 9, 'B topShare');
  });

  it('gives a faction without the outcome 0, its interval from 0', async () => {
    const c = (await rows('x')).get('C')!.overRepresentation;
    // [0, 5, 2, 16]: R = 0; high from a = 0.5: R' = 0.1 / 0.125 = 0.8, V = 2 − 1/5 − 1/2 − 1/16
    // + 1/10 = (160 − 16 − 40 − 5 + 8) / 80 = 107/80.
    assert.equal(c.eventWins.ratio, 0);
    assert.equal(c.eventWins.interval.low, 0);
    near(c.eventWins.interval.high, interval(0.8, 107 / 80).high, 'C eventWins high');
  });

  it('answers null with a reason where no event in scope has placings', async () => {
    const a = (await rows('n')).get('A')!;
    assert.equal(a.overRepresentation.events, 0);
    assert.equal(a.topShare, null);
    for (const figure of ['topTen', 'undefeated', 'eventWins']) {
      assert.equal(a.overRepresentation[figure].ratio, null);
      assert.match(a.overRepresentation[figure].reason, /no event in scope has .*placings/);
    }
  });
});
