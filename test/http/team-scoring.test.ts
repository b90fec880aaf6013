/**
 * Team events scored by their system's team rule (docs/statistics.md#team-events), on the
 * hand-worked event of test/support/team-event-document.ts: C 1st (72), A 2nd (68), B 3rd (40)
 * by capped match scores, where the plain sums would have put A first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { TEAM_EVENT_DOCUMENT } from '../support/team-event-document.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe(`team events scored by the system's team rule (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: TEAM_EVENT_DOCUMENT });
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
