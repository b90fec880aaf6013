/**
 * Where an event's placings come from (docs/statistics.md#standings), on a document written by
 * hand: published placings are used; without them a system's placing rule derives them and
 * every answer names the rule; with no rule, and at a team event, nobody is placed and the event
 * counts in no statistic that needs places (event wins, best-N points), while its games and its
 * undefeated runs still count. An undefeated run needs every round played at an event whose games
 * are there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const game = (id: string, a: [string, string, number], b: [string, string, number]) => ({
  id,
  sides: [
    { player: a[0], faction: a[1], score: a[2], result: a[2] > b[2] ? 'win' : 'loss' },
    { player: b[0], faction: b[1], score: b[2], result: b[2] > a[2] ? 'win' : 'loss' },
  ],
});

/**
 * System `nr` declares no rule: P publishes p1 1st, p2 2nd; U publishes nothing (p3 of B beats
 * p4 of A). System `wr` ranks by wins, then total score: in D each of q1..q3 wins once, so the
 * totals decide (q2 28, q1 21, q3 11); T is a team event that publishes placings all the same.
 * I declares 15 entrants and holds 2 games of 4 of them: too few to derive places from. M holds 5
 * of the 6 games of its 6 players over 2 rounds (enough), but m5 and m6 played one game each.
 */
const DOCUMENT = {
  format: 'muster/v1',
  systems: [
    { id: 'nr', name: 'No Rule', score: { min: 0, max: 20, total: 20 } },
    {
      id: 'wr',
      name: 'With Rule',
      score: { min: 0, max: 20, total: 20 },
      placementRule: { name: 'wins, then total score', rank: ['wins', 'score'] },
    },
  ],
  factions: ['nr', 'wr'].flatMap((system) => [
    { id: 'A', system, name: 'Alpha' },
    { id: 'B', system, name: 'Beta' },
  ]),
  events: [
    {
      id: 'P',
      system: 'nr',
      name: 'Published',
      start: '2025-03-01',
      entries: [
        { player: 'p1', faction: 'A', placement: 1 },
        { player: 'p2', faction: 'B', placement: 2 },
      ],
      games: [game('P1', ['p1', 'A', 15], ['p2', 'B', 5])],
    },
    {
      id: 'U',
      system: 'nr',
      name: 'Unplaced',
      start: '2025-03-08',
      games: [game('U1', ['p3', 'B', 15], ['p4', 'A', 5])],
    },
    {
      id: 'D',
      system: 'wr',
      name: 'Derived',
      start: '2025-03-01',
      games: [
        game('D1', ['q1', 'A', 12], ['q2', 'B', 8]),
        game('D2', ['q3', 'A', 11], ['q1', 'A', 9]),
        game('D3', ['q2', 'B', 20], ['q3', 'A', 0]),
      ],
    },
    {
      id: 'I',
      system: 'wr',
      name: 'Incomplete',
      start: '2025-03-15',
      participants: 15,
      games: [
        game('I1', ['i1', 'A', 15], ['i2', 'B', 5]),
        game('I2', ['i3', 'A', 12], ['i4', 'B', 8]),
      ],
    },
    {
      id: 'M',
      system: 'wr',
      name: 'Missing games',
      start: '2025-03-22',
      rounds: 2,
      games: [
        game('M1', ['m1', 'A', 11], ['m2', 'B', 9]),
        game('M2', ['m3', 'A', 11], ['m4', 'B', 9]),
        game('M3', ['m5', 'A', 20], ['m6', 'B', 0]),
        game('M4', ['m1', 'A', 11], ['m3', 'A', 9]),
        game('M5', ['m2', 'B', 12], ['m4', 'B', 8]),
      ],
    },
    {
      id: 'T',
      system: 'wr',
      name: 'Teams',
      start: '2025-03-08',
      format: 'teams',
      entries: [
        { player: 'r1', faction: 'A', team: 'Reds', placement: 1 },
        { player: 'r2', faction: 'B', team: 'Blues', placement: 2 },
      ],
      games: [game('T1', ['r1', 'A', 14], ['r2', 'B', 6])],
    },
  ],
} as unknown as CanonicalDocument;

describe(`where placings come from (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: DOCUMENT });
  });
  after(async () => t.close());

  const events = async (body: Row): Promise<Map<string, Row>> => {
    const { status, json } = await post(t, '/api/events', { pageSize: 10, ...body });
    assert.equal(status, 200, JSON.stringify(json));
    return new Map((json.data.events as Row[]).map((e) => [e.id, e]));
  };
  const page = async (system: string, event: string): Promise<Row> =>
    (await post(t, '/api/events', { system, event, pageSize: 1 })).json.data.event;
  const places = (p: Row) =>
    Object.fromEntries((p.standings as Row[]).map((s) => [s.player.id, s.placement]));

  it('uses published placings and says so', async () => {
    const p = (await events({ system: 'nr' })).get('P')!;
    assert.equal(p.placements, 'published');
    assert.equal(p.placementRule, null);
    assert.deepEqual(places(await page('nr', 'P')), { p1: 1, p2: 2 });
  });

  it('derives placings by the system rule, always naming the rule', async () => {
    const d = (await events({ system: 'wr' })).get('D')!;
    assert.equal(d.placements, 'derived');
    assert.equal(d.placementRule, 'wins, then total score');
    assert.deepEqual(
      d.winners.map((w: Row) => w.player.id),
      ['q2'],
    );
    const pg = await page('wr', 'D');
    assert.deepEqual(pg.event.placementRule, 'wins, then total score');
    assert.deepEqual(places(pg), { q2: 1, q1: 2, q3: 3 });
  });

  it('places nobody without a rule or published placings, and leaves the event out of event wins', async () => {
    const u = (await events({ system: 'nr' })).get('U')!;
    assert.equal(u.placements, 'none');
    assert.equal(u.placementRule, null);
    assert.deepEqual(u.winners, []);
    assert.deepEqual(places(await page('nr', 'U')), { p3: null, p4: null });
    const { json } = await post(t, '/api/faction-stats', { system: 'nr' });
    const byId = new Map((json.data.factions as Row[]).map((f) => [f.faction.id, f]));
    // A won P (published); B's p3 won U, which has no places: no event win, an undefeated run.
    assert.equal(byId.get('A')!.eventWins, 1);
    assert.equal(byId.get('B')!.eventWins, 0);
    assert.equal(byId.get('B')!.undefeated, 1);
    assert.equal(byId.get('B')!.games, 2, "the unplaced event's games still count");
  });

  it('derives no places from an event whose games are mostly missing, and says why', async () => {
    const i = (await events({ system: 'wr' })).get('I')!;
    assert.equal(i.placements, 'none');
    assert.equal(i.placementRule, null);
    assert.equal(i.placementsWithheld, 'the source holds 2 games of 4 of 15 entrants');
    assert.deepEqual(i.winners, []);
    const pg = await page('wr', 'I');
    assert.deepEqual(places(pg), { i1: null, i2: null, i3: null, i4: null });
    assert.equal(pg.event.placementsWithheld, 'the source holds 2 games of 4 of 15 entrants');
    // i1 won the most points of the system from one game: no event win, no best-N points.
    const { json } = await post(t, '/api/rankings', {
      system: 'wr',
      method: 'points',
      includeProvisional: true,
      minGames: 0,
    });
    const rating = new Map((json.data.players as Row[]).map((r) => [r.player.id, r.rating]));
    assert.equal(rating.get('i1') ?? 0, 0);
  });

  it('says how many event wins are derived', async () => {
    for (const [system, wins] of [
      ['nr', { A: [1, 0], B: [0, 0] }],
      // q2 of B wins D; m1 of A wins M (two wins); I has no places; T is a team event.
      ['wr', { A: [1, 1], B: [1, 1] }],
    ] as const) {
      const { json } = await post(t, '/api/faction-stats', { system });
      const got = Object.fromEntries(
        (json.data.factions as Row[]).map((f) => [f.faction.id, [f.eventWins, f.derivedEventWins]]),
      );
      assert.deepEqual(got, wins, system);
    }
  });

  it('marks a player with fewer games than the others in a derived event', async () => {
    const pg = await page('wr', 'M');
    assert.equal(pg.event.placements, 'derived');
    assert.equal(pg.event.placementsWithheld, null);
    const fewer = Object.fromEntries(
      (pg.standings as Row[]).map((s) => [s.player.id, [s.games, s.fewerGames]]),
    );
    assert.deepEqual(fewer, {
      m1: [2, false],
      m2: [2, false],
      m3: [2, false],
      m4: [2, false],
      m5: [1, true],
      m6: [1, true],
    });
  });

  it('counts an undefeated run only for an entry that played every round of an event whose games are there', async () => {
    // I: i1 and i3 won the only game the source holds of each (2 games of 15 entrants); M: m1
    // won both rounds, m5 won the one game it played; T: r1 won the event's one game.
    const { json } = await post(t, '/api/faction-stats', { system: 'wr' });
    const undefeated = Object.fromEntries(
      (json.data.factions as Row[]).map((f) => [f.faction.id, f.undefeated]),
    );
    assert.deepEqual(undefeated, { A: 2, B: 0 });
    const unbeaten = (p: Row) =>
      (p.standings as Row[]).filter((s) => s.undefeated).map((s) => s.player.id);
    assert.deepEqual(unbeaten(await page('wr', 'M')), ['m1']);
    assert.deepEqual(unbeaten(await page('wr', 'I')), []);
    assert.deepEqual((await events({ system: 'wr' })).get('I')!.undefeated, []);
  });

  it('gives no player of a team event a placing, though the source publishes some', async () => {
    const team = (await events({ system: 'wr' })).get('T')!;
    assert.equal(team.format, 'teams');
    assert.equal(team.placements, 'none');
    assert.deepEqual(team.winners, []);
    const pg = await page('wr', 'T');
    assert.deepEqual(places(pg), { r1: null, r2: null });
    // The teams as the source gives them, summed, unplaced (no team rule); the match told in
    // name order.
    assert.equal(pg.teams.rule, null);
    assert.deepEqual(
      pg.teams.teams.map((tm: Row) => [tm.name, tm.members.map((m: Row) => m.player.id), tm.score]),
      [
        ['Blues', ['r2'], 6],
        ['Reds', ['r1'], 14],
      ],
    );
    assert.deepEqual(pg.teams.matches, [
      {
        round: null,
        teams: ['Blues', 'Reds'],
        games: 1,
        wins: [0, 1],
        draws: 0,
        score: [6, 14],
        matchScore: null,
      },
    ]);
    assert.equal((await page('wr', 'D')).teams, null);
    const mine = await events({ system: 'wr', player: 'r1' });
    assert.equal(mine.get('T')!.playerPlacement, null);
  });

  it('scores best-N event points only at placed events', async () => {
    for (const [system, placed, unplaced] of [
      ['nr', ['p1', 'p2'], ['p3', 'p4']],
      ['wr', ['q1', 'q2', 'q3'], ['r1', 'r2']],
    ] as const) {
      const { status, json } = await post(t, '/api/rankings', {
        system,
        method: 'points',
        includeProvisional: true,
        minGames: 0,
      });
      assert.equal(status, 200, JSON.stringify(json));
      const rating = new Map((json.data.players as Row[]).map((r) => [r.player.id, r.rating]));
      for (const p of placed) assert.ok((rating.get(p) ?? 0) > 0, `${p} scores`);
      for (const p of unplaced) assert.ok((rating.get(p) ?? 0) === 0, `${p} scores nothing`);
    }
  });

  it("says on a player's page that a team event's games carry no placing", async () => {
    const { json } = await post(t, '/api/rankings', { system: 'wr', player: 'r1' });
    const history = json.data.player.history as Row[];
    assert.equal(history.length, 1);
    assert.deepEqual(
      [history[0].format, history[0].placement, history[0].placements],
      ['teams', null, 'none'],
    );
    const q2 = (await post(t, '/api/rankings', { system: 'wr', player: 'q2' })).json.data.player;
    assert.deepEqual(
      [q2.bestPlacement.placement, q2.bestPlacement.placements, q2.bestPlacement.placementRule],
      [1, 'derived', 'wins, then total score'],
    );
  });
});
