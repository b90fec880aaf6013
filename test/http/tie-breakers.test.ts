/**
 * Standings by the event's own rule (docs/statistics.md#tie-breakers), on a document written by
 * hand: a system that ranks by wins, then opponents' wins, then margin places a player of
 * stronger opponents above one of a bigger margin, and the event page shows each entry's value
 * on each tie-breaker; a source without scores shows none of the tie-breakers that read scores.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const side = (player: string, own: number | null, other: number | null, won: boolean) => ({
  player,
  faction: 'A',
  ...(own === null ? {} : { score: own }),
  result: won ? 'win' : 'loss',
});
const game = (id: string, round: number, a: string, b: string, sa: number | null = null) => ({
  id,
  round,
  sides: [
    side(a, sa, sa === null ? null : 20 - sa, true),
    side(b, sa === null ? null : 20 - sa, sa, false),
  ],
});

/**
 * a beats b 12-8 and d 11-9; c beats d 20-0 and loses to b 6-14. b and c have one win each: b's
 * opponents won 3 (a 2, c 1), c's won 1 (d 0, b 1); c's margin is +12, b's +4.
 */
const games = (event: string, scored: boolean) => [
  game(`${event}1`, 1, 'a', 'b', scored ? 12 : null),
  game(`${event}2`, 1, 'c', 'd', scored ? 20 : null),
  game(`${event}3`, 2, 'a', 'd', scored ? 11 : null),
  game(`${event}4`, 2, 'b', 'c', scored ? 14 : null),
];

const DOCUMENT = {
  format: 'muster/v1',
  systems: [
    {
      id: 'sos',
      name: 'Schedule',
      score: { min: 0, max: 20, total: 20 },
      placementRule: {
        name: "wins, then opponents' wins, then margin",
        rank: ['wins', 'opponentWins', 'margin'],
      },
    },
    {
      id: 'bare',
      name: 'No scores',
      placementRule: {
        name: "wins, then total score, then opponents' mean wins",
        rank: ['wins', 'score', 'opponentWinsMean'],
      },
    },
  ],
  factions: ['sos', 'bare'].map((system) => ({ id: 'A', system, name: 'Alpha' })),
  events: [
    {
      id: 'S',
      system: 'sos',
      name: 'Scored',
      start: '2025-03-01',
      rounds: 2,
      games: games('S', true),
    },
    {
      id: 'N',
      system: 'bare',
      name: 'Unscored',
      start: '2025-03-01',
      rounds: 2,
      games: games('N', false),
    },
  ],
} as unknown as CanonicalDocument;

describe(`standings by the event's rule, with its tie-breakers (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: DOCUMENT });
  });
  after(async () => t.close());

  const page = async (system: string, event: string): Promise<Row> => {
    const { status, json } = await post(t, '/api/events', { system, event, pageSize: 1 });
    assert.equal(status, 200, JSON.stringify(json));
    return json.data.event;
  };
  const byPlayer = (p: Row) =>
    Object.fromEntries((p.standings as Row[]).map((s) => [s.player.id, s]));

  it('places the player of stronger opponents above the one of the bigger margin', async () => {
    const p = await page('sos', 'S');
    const rows = byPlayer(p);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((id) => rows[id].placement),
      [1, 2, 3, 4],
    );
  });

  it("shows each entry's value on the declared tie-breakers, in the rule's order", async () => {
    const p = await page('sos', 'S');
    assert.deepEqual(
      p.tieBreakers.map((k: Row) => k.key),
      ['opponentWins', 'margin'],
    );
    const rows = byPlayer(p);
    assert.deepEqual(rows.b.tieBreaks, [3, 4]);
    assert.deepEqual(rows.c.tieBreaks, [1, 12]);
    assert.deepEqual(rows.a.tieBreaks, [1, 6]);
  });

  it('leaves out the tie-breakers that read scores where the source has none', async () => {
    const p = await page('bare', 'N');
    assert.deepEqual(
      p.tieBreakers.map((k: Row) => k.key),
      ['opponentWinsMean'],
    );
    const rows = byPlayer(p);
    assert.deepEqual(rows.b.tieBreaks, [1.5]);
    assert.deepEqual(rows.c.tieBreaks, [0.5]);
    // Placed by wins, then the mean of the opponents' wins (total score is 0 for everyone).
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((id) => rows[id].placement),
      [1, 2, 3, 4],
    );
  });
});
