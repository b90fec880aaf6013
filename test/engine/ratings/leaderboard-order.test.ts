import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eloExpected } from '../../../src/engine/ratings/elo.ts';
import { GLICKO2_SCALE, glicko2Update } from '../../../src/engine/ratings/glicko2.ts';
import { expectedScore } from '../../../src/engine/ratings/head-to-head.ts';
import { predictionQuality } from '../../../src/engine/ratings/prediction-quality.ts';
import {
  PROVISIONAL_RD,
  computeStandings,
  rankStandings,
  ratedOrder,
} from '../../../src/engine/ratings/rankings.ts';
import type { PlayerStanding, RatingPeriod } from '../../../src/engine/ratings/rankings.ts';
import { close, ev, factsOf, game, params } from './facts-fixture.ts';

const byPlayer = (standings: PlayerStanding[]) => new Map(standings.map((s) => [s.player, s]));

/** Glickman (2012) after one win against an equal newcomer, both 1500 / 350 / 0.06. */
const afterOneWin = glicko2Update(
  { rating: 1500, rd: 350, volatility: 0.06 },
  [{ rating: 1500, rd: 350, score: 1 }],
  0.5,
);

/** Step 6 alone, `periods` times, written out: φ* = √(φ² + n·σ²) on the Glicko-2 scale. */
function idleByHand(rd: number, volatility: number, periods: number): number {
  const phi = rd / GLICKO2_SCALE;
  return GLICKO2_SCALE * Math.sqrt(phi * phi + periods * volatility * volatility);
}

describe('leaderboard order and provisional players', () => {
  it('orders by rating − 2·RD by default, which differs from the raw order here', () => {
    // One event: player 0 beats player 1 once; player 2 beats player 3 four times in six.
    const facts = factsOf(
      4,
      [ev('e1', '2024-01-06')],
      [
        game('a', 0, 1, 0, 1, 'a'),
        ...[1, 2, 3, 4, 5, 6].map((r) => game(`b${r}`, 0, r, 2, 3, r <= 4 ? 'a' : 'b')),
      ],
    );
    const standings = computeStandings(facts, params());
    for (const s of standings) close(s.conservativeRating!, s.rating - 2 * s.rd!, 1e-9, 'cr');
    const zero = byPlayer(standings).get(0)!;
    close(zero.rating, 1662.31, 0.01, 'rating after one win');
    close(zero.rd!, 290.32, 0.01, 'RD after one win');
    assert.deepEqual(
      rankStandings(standings, () => true, 'rating').map((s) => s.player),
      [0, 2, 3, 1],
    );
    assert.deepEqual(
      rankStandings(standings, () => true, 'conservative').map((s) => s.player),
      [2, 0, 3, 1],
    );
  });

  it(`flags a player provisional exactly while RD is above ${PROVISIONAL_RD}; Elo never`, () => {
    const facts = factsOf(2, [ev('e1', '2024-01-06')], [game('a', 0, 1, 0, 1, 'a')]);
    for (const s of computeStandings(facts, params())) assert.equal(s.provisional, s.rd! > 110);
    for (const s of computeStandings(facts, params({ method: 'elo' }))) {
      assert.equal(s.provisional, false);
      assert.equal(s.conservativeRating, null);
    }
  });
});

describe('inactivity (Glickman 2012, step 6 for every period sat out)', () => {
  // Player 0 beats player 1 in the first event, then sits out while 2 and 3 play on.
  const events = [ev('e1', '2024-01-06'), ev('e2', '2024-02-03'), ev('e3', '2024-03-02')];
  const games = [
    game('a', 0, 1, 0, 1, 'a'),
    game('b', 1, 1, 2, 3, 'a'),
    game('c', 2, 1, 2, 3, 'b'),
  ];
  // Periods sat out after e1 up to the last period: events e2 and e3; weeks 2024-01-01 ..
  // 2024-02-26 (the week of e3) less the week of e1; months February and March.
  const idle: Record<RatingPeriod, number> = { event: 2, week: 8, month: 2 };
  for (const period of ['event', 'week', 'month'] as const) {
    it(`grows the RD of an idle player by step 6 alone, once per ${period} sat out`, () => {
      const facts = factsOf(4, events, games);
      const g2 = { ...params().glicko2, period };
      const zero = byPlayer(computeStandings(facts, params({ glicko2: g2 }))).get(0)!;
      close(zero.rating, afterOneWin.rating, 1e-9, 'rating unchanged by idling');
      const expected = idleByHand(afterOneWin.rd, afterOneWin.volatility, idle[period]);
      close(zero.rd!, expected, 1e-9, `RD after ${idle[period]} idle ${period}s`);
      assert.ok(zero.rd! > afterOneWin.rd);
    });

    it(`ranks a player who stopped two years ago below one who played last month (${period})`, () => {
      // Players 0 and 4 each win one game against a newcomer: 0 in January 2024, 4 in
      // December 2025; players 2 and 3 meet every month in between.
      const monthly = Array.from({ length: 22 }, (_, m) => {
        const month = m + 2;
        const date = `${2024 + Math.floor((month - 1) / 12)}-${String(((month - 1) % 12) + 1).padStart(2, '0')}-06`;
        return ev(`m${m}`, date);
      });
      const all = [ev('old', '2024-01-06'), ...monthly, ev('new', '2025-12-06')];
      const facts = factsOf(6, all, [
        game('old', 0, 1, 0, 1, 'a'),
        ...monthly.map((_, m) => game(`m${m}`, m + 1, 1, 2, 3, m % 2 === 0 ? 'a' : 'b')),
        game('new', all.length - 1, 1, 4, 5, 'a'),
      ]);
      const g2 = { ...params().glicko2, period };
      const standings = computeStandings(facts, params({ glicko2: g2 }));
      const s = byPlayer(standings);
      close(s.get(0)!.rating, s.get(4)!.rating, 1e-9, 'same rating');
      assert.ok(s.get(0)!.rd! > s.get(4)!.rd!, 'the long-idle player is less certain');
      const order = rankStandings(standings, () => true, 'conservative').map((r) => r.player);
      assert.ok(order.indexOf(4) < order.indexOf(0), order.join(','));
    });
  }
});

describe('head to head and prediction quality', () => {
  it('forecasts A 1700 against B 1500 (RD 80) as worked out by hand', () => {
    // μA − μB = 200 / 173.7178 = 1.151292; φB = 80 / 173.7178 = 0.460517;
    // g(φB) = 1 / √(1 + 3·0.460517² / π²) = 0.969267; E = 1 / (1 + e^(−0.969267·1.151292)).
    const a = { rating: 1700, rd: 60 } as PlayerStanding;
    const b = { rating: 1500, rd: 80 } as PlayerStanding;
    close(expectedScore('glicko2', a, b)!, 0.753225, 1e-6, 'Glicko-2 E');
    // Elo: 1 / (1 + 10^(−200/400)).
    close(expectedScore('elo', a, b)!, 0.759747, 1e-6, 'Elo E');
    assert.equal(expectedScore('points', a, b), null);
    assert.equal(expectedScore('glicko2', a, undefined), null);
  });

  it('scores Elo forecasts made before each game (Brier, log loss, accuracy)', () => {
    // A beats B twice. Game 1: 1500 v 1500, p = 0.5. Game 2: 1516 v 1484, p = E(1516, 1484).
    const facts = factsOf(
      2,
      [ev('e1', '2024-01-06')],
      [game('1', 0, 1, 0, 1, 'a'), game('2', 0, 2, 0, 1, 'a')],
    );
    const p2 = eloExpected(1516, 1484);
    const q = predictionQuality(facts, ratedOrder(facts, null), params({ method: 'elo' }))!;
    assert.equal(q.games, 2);
    assert.equal(q.decidedGames, 2);
    close(q.brier, (0.25 + (1 - p2) ** 2) / 2, 1e-12, 'Brier');
    close(q.logLoss, (Math.LN2 - Math.log(p2)) / 2, 1e-12, 'log loss');
    assert.equal(q.accuracy, 0.75); // an even forecast counts half
    assert.deepEqual(q.coinFlip, { brier: 0.25, logLoss: Math.LN2, accuracy: 0.5 });
    assert.equal(
      predictionQuality(facts, ratedOrder(facts, null), params({ method: 'points' })),
      null,
    );
  });
});
