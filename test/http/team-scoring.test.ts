/**
 * Team events scored by their system's team rule (docs/statistics.md#team-events), on a
 * document written by hand. Teams A, B and C of three meet once each, 20-0 per game, and the
 * event caps a team's match score at 50 (the excess to the other team):
 *
 *   round 1  A 58–2  B  (20-0, 20-0, 18-2)   capped 50–10
 *   round 2  A 18–42 C  (10-10, 5-15, 3-17)  under the cap
 *   round 3  B 30–30 C  (11-9, 10-10, 9-11)  a drawn match
 *
 * Match scores: C 42 + 30 = 72, A 50 + 18 = 68, B 10 + 30 = 40, so C 1st, A 2nd, B 3rd; the
 * plain sums (A 76, C 72, B 32) would have put A first. The same event in a system without a
 * team rule lists the same teams, unranked, with plain sums.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const result = (own: number, other: number) =>
  own > other ? 'win' : own < other ? 'loss' : 'draw';

/** Round `round`'s games between two teams' players 1..3, with the scores of the first team. */
const match = (id: string, round: number, a: string, b: string, scores: number[]) =>
  scores.map((s, k) => ({
    id: `${id}-${k + 1}`,
    round,
    sides: [
      { player: `${a}${k + 1}`, faction: 'F', score: s, result: result(s, 20 - s) },
      { player: `${b}${k + 1}`, faction: 'F', score: 20 - s, result: result(20 - s, s) },
    ],
  }));

/** The hand-worked team event in system `system`, its players prefixed `prefix`. */
const teamEvent = (system: string, prefix: string) => ({
  id: `${system}-T`,
  system,
  name: 'Teams',
  start: '2025-05-03',
  format: 'teams',
  rounds: 3,
  teamScoreCap: 50,
  entries: ['a', 'b', 'c'].flatMap((team) =>
    [1, 2, 3].map((k) => ({
      player: `${prefix}${team}${k}`,
      faction: 'F',
      team: team.toUpperCase(),
    })),
  ),
  games: [
    ...match(`${system}-r1`, 1, `${prefix}a`, `${prefix}b`, [20, 20, 18]),
    ...match(`${system}-r2`, 2, `${prefix}a`, `${prefix}c`, [10, 5, 3]),
    ...match(`${system}-r3`, 3, `${prefix}b`, `${prefix}c`, [11, 10, 9]),
  ],
});

const DOCUMENT = {
  format: 'muster/v1',
  systems: [
    {
      id: 'tr',
      name: 'Team Rule',
      score: { min: 0, max: 20, total: 20 },
      teamRule: { name: 'total team battle points', rank: ['score'] },
    },
    { id: 'nt', name: 'No Team Rule', score: { min: 0, max: 20, total: 20 } },
  ],
  factions: ['tr', 'nt'].map((system) => ({ id: 'F', system, name: 'Folk' })),
  events: [teamEvent('tr', ''), teamEvent('nt', 'n')],
} as unknown as CanonicalDocument;

describe(`team events scored by the system's team rule (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: DOCUMENT });
  });
  after(async () => t.close());

  const page = async (system: string): Promise<Row> => {
    const { status, json } = await post(t, '/api/events', {
      system,
      event: `${system}-T`,
      pageSize: 1,
    });
    assert.equal(status, 200, JSON.stringify(json));
    return json.data.event;
  };
  const points = async (system: string): Promise<Map<string, number>> => {
    const { status, json } = await post(t, '/api/rankings', {
      system,
      method: 'points',
      includeProvisional: true,
      minGames: 0,
    });
    assert.equal(status, 200, JSON.stringify(json));
    return new Map((json.data.players as Row[]).map((r) => [r.player.id, r.rating]));
  };

  it('ranks the teams by their capped match scores, not by the plain sums', async () => {
    const { teams } = await page('tr');
    assert.equal(teams.rule, 'total team battle points');
    assert.equal(teams.cap, 50);
    assert.deepEqual(
      teams.teams.map((tm: Row) => [
        tm.place,
        tm.name,
        tm.matchScore,
        tm.matches,
        tm.score,
        [tm.wins, tm.draws, tm.losses],
      ]),
      [
        [1, 'C', 72, { wins: 1, draws: 1, losses: 0 }, 72, [3, 2, 1]],
        [2, 'A', 68, { wins: 1, draws: 0, losses: 1 }, 76, [3, 1, 2]],
        [3, 'B', 40, { wins: 0, draws: 1, losses: 1 }, 32, [1, 1, 4]],
      ],
    );
  });

  it("scores each round's team match by the rule, the excess over the cap to the other team", async () => {
    const { teams } = await page('tr');
    assert.deepEqual(
      teams.matches.map((m: Row) => [m.round, m.teams, m.score, m.matchScore, m.wins, m.draws]),
      [
        [1, ['A', 'B'], [58, 2], [50, 10], [3, 0], 0],
        [2, ['A', 'C'], [18, 42], [18, 42], [0, 2], 1],
        [3, ['B', 'C'], [30, 30], [30, 30], [1, 1], 1],
      ],
    );
  });

  it('still places no player of a ranked team event on their own', async () => {
    const pg = await page('tr');
    assert.equal(pg.event.placements, 'none');
    assert.ok(pg.standings.every((s: Row) => s.placement === null));
  });

  it('lists the teams unranked, with plain sums, where the system declares no team rule', async () => {
    const { teams } = await page('nt');
    assert.equal(teams.rule, null);
    assert.equal(teams.cap, null);
    assert.deepEqual(
      teams.teams.map((tm: Row) => [tm.name, tm.place, tm.matchScore, tm.matches, tm.score]),
      [
        ['A', null, null, null, 76],
        ['B', null, null, null, 32],
        ['C', null, null, null, 72],
      ],
    );
    assert.ok(teams.matches.every((m: Row) => m.matchScore === null));
  });

  it("gives a ranked team event's members best-N points by their team's place", async () => {
    // 3 rounds: a one-day event, maximum 20 + 3 teams = 23; a place p of 3 scores 23 (4 - p) / 3.
    const rating = await points('tr');
    for (const [team, score] of [
      ['c', 23],
      ['a', 46 / 3],
      ['b', 23 / 3],
    ] as const) {
      for (const k of [1, 2, 3]) assert.ok(Math.abs(rating.get(`${team}${k}`)! - score) < 1e-6);
    }
  });

  it('gives no best-N points at a team event without a team rule', async () => {
    const rating = await points('nt');
    for (const team of ['a', 'b', 'c']) {
      for (const k of [1, 2, 3]) assert.equal(rating.get(`n${team}${k}`) ?? 0, 0);
    }
  });
});
