/**
 * The five statistics routes on a tiny fixture whose every number is worked out by hand
 * (test/snapshot/hand-fixture.ts): draws count half, the A-v-A mirror is out of games but in
 * sides and avgScore, C plays once, g2 has no first-turn record, p3's list in g2 has no items.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wilson } from '../../src/engine/intervals.ts';
import { eloExpected } from '../../src/engine/ratings/elo.ts';
import { glicko2Update } from '../../src/engine/ratings/glicko2.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { HAND_DOCUMENT } from '../snapshot/hand-fixture.ts';
import { statsAppOver } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A game against a newcomer (1500, RD 350) scored `score`. */
const beat = (score: number) => ({ rating: 1500, rd: 350, score });

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);

describe(`statistics routes by hand (${TEST_BACKEND})`, () => {
  const stats = statsAppOver(HAND_DOCUMENT);

  it('counts faction W/D/L with draws as half and the mirror only in sides, avgScore and mirrorGames', async () => {
    const { status, json } = await stats.post('/api/faction-stats', {});
    assert.equal(status, 200);
    const data = json.data as Row;
    const byId = new Map<string, Row>(data.factions.map((f: Row) => [f.faction.id, f]));
    const a = byId.get('A')!;
    assert.deepEqual(a.faction, { id: 'A', name: 'Alpha' });
    assert.equal(a.sides, 5);
    assert.equal(a.games, 3);
    assert.deepEqual([a.wins, a.draws, a.losses, a.mirrorGames], [1, 1, 1, 1]);
    close(a.winRate, 0.5, 'A winRate');
    assert.deepEqual(a.winRateInterval, wilson(1.5, 3));
    close(a.avgScore, 51 / 5, 'A avgScore');
    // t(0.975, 4) = 2.776445; squared deviations of 15,10,12,8,6 from 10.2 sum to 48.8
    const half = 2.7764451051977987 * Math.sqrt(48.8 / 4 / 5);
    close(a.avgScoreInterval.low, 10.2 - half, 'A interval low');
    close(a.avgScoreInterval.high, 10.2 + half, 'A interval high');
    assert.equal(a.players, 2);
    assert.equal(a.entries, 3);
    close(a.metaShare, 0.5, 'A metaShare');
    assert.deepEqual(a.firstTurn, { games: 1, winRate: 1, avgScore: 13.5 });
    assert.deepEqual(a.secondTurn, { games: 1, winRate: 0, avgScore: 7 });
    assert.equal(a.eventWins, 1);
    assert.equal(a.undefeated, 1);
    // E2 is a team event: nobody is placed there, so E1's winner p1 (A) is the only top-10%
    // entry (docs/statistics.md#standings); A has 1 of E1's 2 entries (docs/statistics.md#top-share).
    close(a.topShare, 1 / 1 / (1 / 2), 'A topShare');
    // Skill by hand (docs/statistics.md#skill): Elo expectations on pre-game Glicko-2 ratings,
    // one period per event, mirrors out. Every E1 game starts at 1500 (expectation 1/2); g5 in
    // E2 reads p1 and p2 after E1 (Glickman 2012, steps 1-8): p1 beat p2 and p3, p2 lost to p1
    // and beat p4, all from 1500 / 350 / 0.06 with tau 0.5.
    const fresh = { rating: 1500, rd: 350, volatility: 0.06 };
    const p1 = glicko2Update(fresh, [beat(1), beat(1)], 0.5);
    const p2 = glicko2Update(fresh, [beat(0), beat(1)], 0.5);
    const g5 = eloExpected(p1.rating, p2.rating);
    assert.ok(a.skill !== null, 'A has rated sides');
    close(a.skill.expectedWinRate, (0.5 + 0.5 + g5) / 3, 'A expected (g1, g2, g5)');
    close(a.skill.overExpected, (1 + 0.5 + 0) / 3 - (0.5 + 0.5 + g5) / 3, 'A over expected');
    assert.equal(a.lowSample, true);

    const b = byId.get('B')!;
    assert.deepEqual(
      [b.sides, b.games, b.wins, b.draws, b.losses, b.mirrorGames],
      [4, 4, 2, 1, 1, 0],
    );
    close(b.winRate, 0.625, 'B winRate');
    close(b.avgScore, 12.25, 'B avgScore');
    assert.equal(b.entries, 3);
    assert.equal(b.eventWins, 0, 'p2 beat p1 at E2, a team event, which places nobody');
    close(b.topShare, 0, 'B topShare');
    close(b.skill.expectedWinRate, (0.5 + 0.5 + 0.5 + (1 - g5)) / 4, 'B expected (g1, g2, g4, g5)');
    close(b.skill.overExpected, (0 + 0.5 + 1 + 1) / 4 - (1.5 + (1 - g5)) / 4, 'B over expected');

    const c = byId.get('C')!;
    assert.deepEqual([c.sides, c.games, c.wins, c.losses], [1, 1, 0, 1]);
    assert.equal(c.winRate, 0);
    assert.equal(c.avgScore, 0);
    assert.equal(c.avgScoreInterval, null, 'a mean of one sample has no interval');
    assert.equal(c.entries, 0, "p4's most common faction is B (tie broken by game order)");
    assert.equal(c.topShare, null, 'no entry of C in an event with placings');

    const s = data.summary;
    assert.equal(s.games, 5);
    assert.equal(s.events, 2);
    close(s.avgScoreFirstTurn, 41 / 4, 'first turn');
    close(s.avgScoreSecondTurn, 39 / 4, 'second turn');
    assert.deepEqual(s.marginBands, {
      decisive: { games: 1, share: 0.25 },
      normal: { games: 2, share: 0.5 },
      close: { games: 1, share: 0.25 },
    });
    close(s.diversity.hhi, 0.42, 'hhi');
    close(s.diversity.effectiveFactions, 1 / 0.42, 'effective factions');
    const meta = json.meta as Row;
    assert.deepEqual(meta.sample, { events: 2, games: 5 });
    assert.equal(meta.filter.system, 'tt');
    assert.equal(meta.filter.excludeMirrors, true);
    assert.equal(meta.filter.format, 'all');
    assert.deepEqual(meta.warnings, []);
  });

  it('counts every side of a mirror when excludeMirrors is false', async () => {
    const { json } = await stats.post('/api/faction-stats', {
      excludeMirrors: false,
      factions: ['A'],
    });
    const [a] = (json.data as Row).factions;
    assert.equal((json.data as Row).factions.length, 1);
    assert.deepEqual([a.games, a.wins, a.draws, a.losses, a.mirrorGames], [5, 2, 1, 2, 1]);
    close(a.winRate, 2.5 / 5, 'winRate');
  });

  it('filters events by participants, format and date, and groups by month', async () => {
    const big = await stats.post('/api/faction-stats', { minParticipants: 5 });
    assert.deepEqual((big.json.meta as Row).sample, { events: 1, games: 4 });
    const teams = await stats.post('/api/faction-stats', { format: 'teams' });
    assert.deepEqual((teams.json.meta as Row).sample, { events: 1, games: 1 });
    const feb = await stats.post('/api/faction-stats', { from: '2025-02-01', to: '2025-02-28' });
    assert.deepEqual((feb.json.meta as Row).sample, { events: 1, games: 1 });
    const de = await stats.post('/api/faction-stats', { countries: ['de'] });
    assert.deepEqual((de.json.meta as Row).sample, { events: 1, games: 4 });
    const grouped = await stats.post('/api/faction-stats', { groupBy: 'month', factions: ['A'] });
    const [a] = (grouped.json.data as Row).factions;
    assert.deepEqual(
      a.series.map((p: Row) => [p.period, p.sides, p.games, p.wins, p.draws, p.losses]),
      [
        ['2025-01', 4, 2, 1, 1, 0],
        ['2025-02', 1, 1, 0, 0, 1],
      ],
    );
    const quarter = await stats.post('/api/faction-stats', { groupBy: 'quarter', factions: ['A'] });
    assert.deepEqual(
      (quarter.json.data as Row).factions[0].series.map((p: Row) => p.period),
      ['2025-Q1'],
    );
  });

  it('leaves out rows under minGames and answers an empty scope with 200 and a warning', async () => {
    const min = await stats.post('/api/faction-stats', { minGames: 2 });
    assert.deepEqual(
      (min.json.data as Row).factions.map((f: Row) => f.faction.id),
      ['B', 'A'],
    );
    const empty = await stats.post('/api/faction-stats', { from: '2030-01-01' });
    assert.equal(empty.status, 200);
    assert.deepEqual((empty.json.data as Row).factions, []);
    assert.deepEqual((empty.json.meta as Row).warnings, ['no games match the filter']);
  });

  it('builds matchup cells from the row side, a mirror cell once with win rate 0.5', async () => {
    const { status, json } = await stats.post('/api/army-matchup', {});
    assert.equal(status, 200);
    const cells = new Map<string, Row>(
      (json.data as Row).cells.map((c: Row) => [`${c.faction}-${c.opponent}`, c]),
    );
    assert.deepEqual([...cells.keys()].sort(), ['A-A', 'A-B', 'B-A', 'B-C', 'C-B']);
    const ab = cells.get('A-B')!;
    assert.deepEqual([ab.games, ab.wins, ab.draws, ab.losses], [3, 1, 1, 1]);
    close(ab.winRate, 0.5, 'A-B');
    close(ab.avgScore, 31 / 3, 'A-B avg');
    const ba = cells.get('B-A')!;
    close(ba.avgScore, 29 / 3, 'B-A avg');
    const aa = cells.get('A-A')!;
    assert.deepEqual([aa.games, aa.wins, aa.draws, aa.losses, aa.winRate], [1, 1, 0, 1, 0.5]);
    close(aa.avgScore, 10, 'A-A avg');
    assert.deepEqual(cells.get('B-C')!.winRate, 1);
    assert.deepEqual(cells.get('C-B')!.avgScore, 0);
    const only = await stats.post('/api/army-matchup', { factions: ['C'], opponents: ['B'] });
    assert.deepEqual((only.json.data as Row).factions, [{ id: 'C', name: 'Gamma' }]);
    assert.equal((only.json.data as Row).cells.length, 1);
  });

  it('counts items over lists as played, case-folding names, with same-faction lists without them', async () => {
    const { status, json } = await stats.post('/api/item-use-stats', { sort: 'name' });
    assert.equal(status, 200);
    const data = json.data as Row;
    assert.equal(data.lists, 4, 'g1 p1, g2 p3 (no items), g4 p4, g5 p1');
    const items = new Map<string, Row>(
      data.items.map((i: Row) => [`${i.item.category}/${i.item.name}`, i]),
    );
    assert.deepEqual(
      [...items.keys()],
      ['Magic Items/Sword', 'unit/Unit X', 'unit/Unit Y', 'unit/Unit Z'],
    );
    const sword = items.get('Magic Items/Sword')!;
    assert.deepEqual([sword.picks, sword.lists, sword.games], [3, 2, 2]);
    assert.deepEqual(sword.factions, ['A']);
    close(sword.share, 0.5, 'share');
    close(sword.winRate, 0.5, 'sword winRate');
    close(sword.winRateWithout, 0.5, 'sword without: the drawn empty list');
    close(sword.delta, 0, 'delta');
    close(sword.avgScore, 10.5, 'avg');
    close(sword.avgScoreWithout, 10, 'avg without');
    const y = items.get('unit/Unit Y')!;
    assert.deepEqual([y.picks, y.lists, y.games, y.winRate], [1, 1, 1, 0]);
    close(y.winRateWithout, 0.75, 'Y without');
    close(y.delta, -0.75, 'Y delta');
    close(y.avgScoreWithout, 12.5, 'Y avg without');
    const z = items.get('unit/Unit Z')!;
    assert.deepEqual([z.winRateWithout, z.delta, z.avgScoreWithout], [null, null, null]);
    const magic = await stats.post('/api/item-use-stats', {
      categories: ['magic items'],
      factions: ['A'],
    });
    assert.deepEqual(
      (magic.json.data as Row).items.map((i: Row) => i.item.name),
      ['Sword'],
    );
    assert.equal((magic.json.data as Row).lists, 3);
    const paged = await stats.post('/api/item-use-stats', { sort: 'name', page: 2, pageSize: 3 });
    assert.deepEqual(
      [(paged.json.data as Row).total, (paged.json.data as Row).items.map((i: Row) => i.item.name)],
      [4, ['Unit Z']],
    );
  });

  it('lists the scenario catalogue with games and first/last played', async () => {
    const { status, json } = await stats.post('/api/scenario', {});
    assert.equal(status, 200);
    const rows = (json.data as Row).scenarios.map((s: Row) => [
      s.kind,
      s.name,
      s.games,
      s.firstPlayed,
      s.lastPlayed,
    ]);
    assert.deepEqual(rows, [
      ['map', 'M1', 3, '2025-01-10', '2025-02-15'],
      ['map', 'M2', 1, '2025-01-10', '2025-01-10'],
      ['deployment', 'D1', 1, '2025-01-10', '2025-01-10'],
      ['primary', 'P1', 2, '2025-01-10', '2025-02-15'],
      ['secondary', 'S1', 1, '2025-01-10', '2025-01-10'],
    ]);
    const search = await stats.post('/api/scenario', { kinds: ['map'], search: 'm2' });
    assert.deepEqual(
      (search.json.data as Row).scenarios.map((s: Row) => s.name),
      ['M2'],
    );
  });

  it('gives attacker/defender/none on primaries, secondary rates and first-turn results per scenario', async () => {
    const { status, json } = await stats.post('/api/scenario-stats', {});
    assert.equal(status, 200);
    const rows = new Map<string, Row>(
      (json.data as Row).scenarios.map((s: Row) => [`${s.kind}/${s.name}`, s]),
    );
    const p1 = rows.get('primary/P1')!;
    assert.equal(p1.games, 2);
    assert.deepEqual(p1.primary, { attacker: 1, defender: 0, none: 1 });
    assert.deepEqual(p1.firstTurn, { games: 2, winRate: 1, avgScore: 14.5 });
    const m1 = rows.get('map/M1')!;
    assert.equal(m1.games, 3);
    assert.deepEqual(m1.firstTurn, { games: 2, winRate: 1, avgScore: 14.5 });
    assert.deepEqual(
      m1.factions.map((f: Row) => [f.faction.id, f.games, f.winRate, f.avgScore]),
      [
        ['A', 3, 0.5, 31 / 3],
        ['B', 3, 0.5, 29 / 3],
      ],
    );
    const m2 = rows.get('map/M2')!;
    assert.deepEqual(
      m2.factions.map((f: Row) => [f.faction.id, f.games, f.winRate, f.avgScore]),
      [['A', 0, null, 10]],
    );
    const s1 = rows.get('secondary/S1')!;
    assert.deepEqual(s1.secondary, {
      picked: 2,
      achieved: 1,
      achievedRate: 0.5,
      attackerRate: 0,
      defenderRate: 1,
    });
    assert.deepEqual(s1.marginBands.decisive, { games: 1, share: 1 });
    const named = await stats.post('/api/scenario-stats', { names: ['m1'], kinds: ['map'] });
    assert.deepEqual(
      (named.json.data as Row).scenarios.map((s: Row) => s.name),
      ['M1'],
    );
  });
});
