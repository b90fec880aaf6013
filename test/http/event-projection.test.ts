/**
 * The projected finish (docs/event-projection.md), on a document written by hand: an earlier
 * event the model learns from, then an eight-player, three-round Swiss event. With every round
 * played the projection gives the actual winner 1; after any round its chances sum to 1 (first),
 * 3 (top 3) and 8 (top 8); the same request answers the same numbers; and the request is bounded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FACTIONS = ['A', 'B'];

const game = (id: string, round: number, a: number, b: number, scoreA: number) => ({
  id,
  round,
  sides: [
    {
      player: `p${a}`,
      faction: FACTIONS[a % 2],
      score: scoreA,
      result: scoreA > 10 ? 'win' : scoreA < 10 ? 'loss' : 'draw',
    },
    {
      player: `p${b}`,
      faction: FACTIONS[b % 2],
      score: 20 - scoreA,
      result: scoreA < 10 ? 'win' : scoreA > 10 ? 'loss' : 'draw',
    },
  ],
});

/** Player i beats player j by 10 + (j − i) (lower numbers are stronger), capped at 20. */
const played = (id: string, round: number, a: number, b: number) =>
  game(id, round, a, b, Math.max(0, Math.min(20, 10 + (b - a))));

const EARLIER = Array.from({ length: 24 }, (_, k) => {
  const a = 1 + (k % 8);
  const b = 1 + ((k * 3 + 1) % 8 === k % 8 ? (k + 1) % 8 : (k * 3 + 1) % 8);
  return played(`E${k}`, 1 + Math.floor(k / 4), a, b);
});

/** Three Swiss rounds: p1 wins all three. */
const SWISS = [
  [1, 5],
  [2, 6],
  [3, 7],
  [4, 8],
  [1, 2],
  [3, 4],
  [5, 6],
  [7, 8],
  [1, 3],
  [2, 4],
  [5, 7],
  [6, 8],
].map(([a, b], k) => played(`S${k}`, 1 + Math.floor(k / 4), a, b));

/** Unplayed: both sides without result or score (docs/data-model.md#unplayed-games). */
const paired = (id: string, round: number, a: number, b: number) => ({
  id,
  round,
  sides: [
    { player: `p${a}`, faction: FACTIONS[a % 2] },
    { player: `p${b}`, faction: FACTIONS[b % 2] },
  ],
});

/**
 * A running two-round event: after round 1 p1 leads on 17, p2 11, p3 9, p4 3. Paired afresh
 * the leader would meet p2; round 2 is announced p1–p3 and p2–p4.
 */
const RUNNING = [
  game('R0', 1, 1, 4, 17),
  game('R1', 1, 2, 3, 11),
  paired('R2', 2, 1, 3),
  paired('R3', 2, 2, 4),
];

const DOCUMENT = {
  format: 'muster/v1',
  systems: [
    {
      id: 'sw',
      name: 'Swiss',
      score: { min: 0, max: 20, total: 20 },
      placementRule: { name: 'total score', rank: ['score', 'opponentWins'] },
    },
  ],
  factions: FACTIONS.map((id) => ({ id, system: 'sw', name: id })),
  events: [
    { id: 'E', system: 'sw', name: 'Earlier', start: '2025-01-04', games: EARLIER },
    { id: 'S', system: 'sw', name: 'Swiss', start: '2025-02-01', rounds: 3, games: SWISS },
    { id: 'R', system: 'sw', name: 'Running', start: '2025-03-01', rounds: 2, games: RUNNING },
  ],
} as unknown as CanonicalDocument;

describe(`the projected finish of an event (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: DOCUMENT });
  });
  after(async () => t.close());

  const project = async (body: Row) => {
    const { status, json } = await post(t, '/api/event-projection', body);
    assert.equal(status, 200, JSON.stringify(json));
    return json.data;
  };
  const sum = (data: Row, key: string) =>
    (data.players as Row[]).reduce((s, p) => s + p.chances[key], 0);

  it('gives the actual winner 1 once every round is played', async () => {
    const data = await project({ event: 'S', simulations: 100 });
    assert.equal(data.afterRound, 3);
    assert.equal(data.rounds, 3);
    assert.equal(data.players[0].player.id, 'p1');
    assert.equal(data.players[0].chances.first, 1);
    assert.equal(data.players[0].expectedPlace, 1);
  });

  it('sums its chances to 1 for first, 3 for the top 3 and 8 for the top 8 after any round', async () => {
    for (const afterRound of [0, 1, 2]) {
      const data = await project({ event: 'S', afterRound, simulations: 500 });
      assert.equal(data.afterRound, afterRound);
      assert.equal(data.players.length, 8);
      assert.ok(Math.abs(sum(data, 'first') - 1) < 1e-9, `first after ${afterRound}`);
      assert.ok(Math.abs(sum(data, 'top3') - 3) < 1e-9, `top 3 after ${afterRound}`);
      assert.ok(Math.abs(sum(data, 'top8') - 8) < 1e-9, `top 8 after ${afterRound}`);
      const places = (data.players as Row[]).reduce((s, p) => s + p.expectedPlace, 0);
      assert.ok(Math.abs(places - 36) < 1e-6, 'expected places sum to 1 + … + 8');
    }
  });

  it('counts only the rounds up to afterRound in the standings it starts from', async () => {
    const data = await project({ event: 'S', afterRound: 1, simulations: 100 });
    const p1 = (data.players as Row[]).find((p) => p.player.id === 'p1')!;
    assert.deepEqual([p1.wins, p1.losses, p1.score], [1, 0, 14]);
    // The strongest player, one win up, is the likeliest winner but not a certain one.
    assert.ok(p1.chances.first > 0.2 && p1.chances.first < 1, String(p1.chances.first));
  });

  it('plays the round in progress at its announced tables', async () => {
    const data = await project({ event: 'R', simulations: 5000 });
    assert.deepEqual([data.afterRound, data.rounds], [1, 2]);
    const chance = (id: string) =>
      (data.players as Row[]).find((p) => p.player.id === id)!.chances.first;
    // Paired afresh p2 meets the leader and must outscore him there (under 1 % on this seed);
    // at the announced table against p4, p2 is first wherever p3 holds the leader down.
    assert.ok(chance('p2') > 0.05, String(chance('p2')));
    assert.ok(Math.abs(sum(data, 'first') - 1) < 1e-9);
  });

  it('answers the same numbers to the same request', async () => {
    // Naming the system makes another body, so the second answer is computed, not cached.
    const body = { event: 'S', afterRound: 1, simulations: 300 };
    assert.deepEqual(await project(body), await project({ ...body, system: 'sw' }));
  });

  it('refuses an unknown event, a round the data does not hold and simulations out of bounds', async () => {
    const cases: Array<[Row, number]> = [
      [{ event: 'nope' }, 404],
      [{ event: 'S', afterRound: 4 }, 400],
      [{ event: 'S', simulations: 99 }, 400],
      [{ event: 'S', simulations: 20_001 }, 400],
      [{ event: 'S', afterRound: -1 }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await post(t, '/api/event-projection', body);
      assert.equal(res.status, status, JSON.stringify([body, res.json]));
    }
  });
});
