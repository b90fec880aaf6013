import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eloExpected, runElo } from '../../../src/engine/ratings/elo.ts';
import { monthIndex, weekIndex } from '../../../src/domain/calendar-day.ts';
import { glicko2Idle, glicko2Update, runGlicko2 } from '../../../src/engine/ratings/glicko2.ts';
import {
  DEFAULT_POINTS_OPTIONS,
  bestNTotal,
  eventMaximum,
  placeScore,
  placementsFromGames,
} from '../../../src/engine/ratings/points.ts';
import { competitionRanks } from '../../../src/engine/ratings/ranks.ts';

function close(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what}: expected ${expected} ± ${tolerance}, got ${actual}`,
  );
}

describe('Glicko-2', () => {
  it("reproduces Glickman's worked example (1464.06 / 151.52 / 0.05999)", () => {
    const next = glicko2Update(
      { rating: 1500, rd: 200, volatility: 0.06 },
      [
        { rating: 1400, rd: 30, score: 1 },
        { rating: 1550, rd: 100, score: 0 },
        { rating: 1700, rd: 300, score: 0 },
      ],
      0.5,
    );
    // The paper rounds its intermediate values and prints 1464.06; full precision gives
    // 1464.0507, within the published precision (half a hundredth).
    close(next.rating, 1464.06, 0.01, 'rating');
    close(next.rating, 1464.0507, 0.0001, 'rating at full precision');
    assert.equal(next.rd.toFixed(2), '151.52');
    // The paper prints σ' = 0.05999 (truncated); full precision is 0.0599960.
    close(next.volatility, 0.05999, 0.00001, 'volatility');
    close(next.volatility, 0.059996, 0.000001, 'volatility at full precision');
  });

  it('ends the volatility iteration for any tau, keeping the volatility when tau vanishes', () => {
    const player = { rating: 1500, rd: 200, volatility: 0.06 };
    // The worked example's games: Δ² < φ² + v, so step 5.2 searches for the bracket a − kτ.
    const games = [
      { rating: 1400, rd: 30, score: 1 },
      { rating: 1550, rd: 100, score: 0 },
      { rating: 1700, rd: 300, score: 0 },
    ];
    for (const tau of [1e-30, 1e-200, Number.MIN_VALUE, 1e-8, 1e8, 1e308]) {
      // An iteration that never ends fails by the test runner's timeout, not by a clock here.
      const next = glicko2Update(player, games, tau);
      assert.ok(Number.isFinite(next.volatility) && next.volatility > 0, `tau ${tau}`);
      assert.ok(Number.isFinite(next.rating) && Number.isFinite(next.rd), `tau ${tau}`);
      if (tau <= 1e-8) close(next.volatility, 0.06, 1e-6, `volatility at tau ${tau}`);
    }
    // A winner far above expectation (Δ² > φ² + v) with a vanishing tau.
    const upset = glicko2Update(
      { rating: 1500, rd: 30, volatility: 0.06 },
      Array.from({ length: 20 }, () => ({ rating: 2500, rd: 30, score: 1 })),
      1e-30,
    );
    close(upset.volatility, 0.06, 1e-6, 'volatility of an upset at tau 1e-30');
  });

  it('only widens the deviation of a player without games in a period (step 6)', () => {
    const idle = glicko2Idle({ rating: 1500, rd: 200, volatility: 0.06 });
    assert.equal(idle.rating, 1500);
    assert.equal(idle.volatility, 0.06);
    // φ* = sqrt((200/173.7178)² + 0.06²) × 173.7178
    close(idle.rd, Math.sqrt(200 * 200 + (0.06 * 173.7178) ** 2), 1e-9, 'rd');
    assert.deepEqual(glicko2Update({ rating: 1500, rd: 200, volatility: 0.06 }, [], 0.5), idle);
  });

  it('reproduces the worked example through the period runner and rates opponents on pre-period values', () => {
    // Player 0 is the paper's player; opponents 1-3 carry the paper's ratings via a first period.
    const result = runGlicko2(
      4,
      [
        { a: 0, b: 1, scoreA: 1, scoreB: 0, period: 0 },
        { a: 0, b: 2, scoreA: 0, scoreB: 1, period: 0 },
        { a: 0, b: 3, scoreA: 0, scoreB: 1, period: 0 },
      ],
      {
        initialRating: 1500,
        initialRd: 200,
        initialVolatility: 0.06,
        tau: 0.5,
        calendarPeriods: false,
        recordPreRatings: true,
      },
    );
    // All opponents start at 1500/200 here, so player 0 (1 win, 2 losses) must drop below 1500
    // and each opponent moves by its own single-game update.
    const expected0 = glicko2Update(
      { rating: 1500, rd: 200, volatility: 0.06 },
      [
        { rating: 1500, rd: 200, score: 1 },
        { rating: 1500, rd: 200, score: 0 },
        { rating: 1500, rd: 200, score: 0 },
      ],
      0.5,
    );
    close(result.rating[0], expected0.rating, 1e-9, 'rating 0');
    close(result.rd[0], expected0.rd, 1e-9, 'rd 0');
    assert.ok(result.rating[0] < 1500);
    assert.ok(result.rating[1] < 1500 && result.rating[2] > 1500);
    assert.deepEqual([...result.preRatingA!], [1500, 1500, 1500]);
  });

  it('grows the deviation once per empty calendar period, never beyond the initial deviation', () => {
    const options = {
      initialRating: 1500,
      initialRd: 350,
      initialVolatility: 0.06,
      tau: 0.5,
      calendarPeriods: true,
    };
    const played = runGlicko2(
      2,
      [
        { a: 0, b: 1, scoreA: 1, scoreB: 0, period: 0 },
        { a: 0, b: 1, scoreA: 1, scoreB: 0, period: 1 },
      ],
      options,
    );
    const gap = runGlicko2(
      2,
      [
        { a: 0, b: 1, scoreA: 1, scoreB: 0, period: 0 },
        { a: 0, b: 1, scoreA: 1, scoreB: 0, period: 4 },
      ],
      options,
    );
    // Three idle periods before the second game: the second update starts from a wider RD.
    const first = glicko2Update(
      { rating: 1500, rd: 350, volatility: 0.06 },
      [{ rating: 1500, rd: 350, score: 1 }],
      0.5,
    );
    const widened = glicko2Idle(first, 3);
    assert.ok(widened.rd > first.rd);
    const loser = glicko2Update(
      { rating: 1500, rd: 350, volatility: 0.06 },
      [{ rating: 1500, rd: 350, score: 0 }],
      0.5,
    );
    const loserWidened = glicko2Idle(loser, 3);
    const second = glicko2Update(
      widened,
      [{ rating: loserWidened.rating, rd: loserWidened.rd, score: 1 }],
      0.5,
    );
    close(gap.rating[0], second.rating, 1e-9, 'rating after the gap');
    close(gap.rd[0], second.rd, 1e-9, 'rd after the gap');
    assert.notEqual(gap.rating[0], played.rating[0]);
    for (const rd of gap.rd) assert.ok(rd <= 350);
  });

  it('maps dates to Monday-based weeks and calendar months', () => {
    assert.equal(weekIndex('2024-01-01'), weekIndex('2024-01-07')); // Mon..Sun
    assert.equal(weekIndex('2024-01-08'), weekIndex('2024-01-07') + 1);
    assert.equal(monthIndex('2024-12-31') + 1, monthIndex('2025-01-01'));
  });
});

describe('Elo', () => {
  it('follows a hand-worked sequence with a win, a draw and an upset (k 32)', () => {
    // A beats B: 1516 / 1484. B draws C: E_B = 1/(1+10^(16/400)) = 0.476990, B +0.736307.
    // C beats A: E_C = 1/(1+10^((1516-1499.263693)/400)) = 0.475933, C +16.770140.
    const r = runElo(
      3,
      [
        { a: 0, b: 1, scoreA: 1, scoreB: 0 },
        { a: 1, b: 2, scoreA: 0.5, scoreB: 0.5 },
        { a: 2, b: 0, scoreA: 1, scoreB: 0 },
      ],
      { k: 32, initial: 1500 },
    );
    close(r[0], 1499.22986, 1e-5, 'A');
    close(r[1], 1484.736307, 1e-5, 'B');
    close(r[2], 1516.033833, 1e-5, 'C');
    close(r[0] + r[1] + r[2], 4500, 1e-9, 'zero-sum');
  });

  it('uses the published expectation formula', () => {
    close(eloExpected(1600, 1400), 1 / (1 + Math.pow(10, -0.5)), 1e-12, 'E');
    assert.equal(eloExpected(1500, 1500), 0.5);
  });
});

describe('best-N event points', () => {
  it('scores a hand-worked 8-player one-day event and a capped multi-day event', () => {
    const o = DEFAULT_POINTS_OPTIONS;
    assert.equal(eventMaximum(3, 8, o), 28);
    assert.equal(placeScore(28, 8, 1), 28);
    assert.equal(placeScore(28, 8, 2), 24.5);
    assert.equal(placeScore(28, 8, 8), 3.5);
    assert.equal(eventMaximum(5, 150, o), 130);
    close(placeScore(130, 150, 150), 130 / 150, 1e-12, 'last of 150');
  });

  it('places by wins (draws half) then total score, ties sharing a placement', () => {
    const p = placementsFromGames([
      { player: 1, wins: 2, draws: 0, score: 30 },
      { player: 2, wins: 3, draws: 0, score: 40 },
      { player: 3, wins: 2, draws: 0, score: 30 },
      { player: 4, wins: 1, draws: 2, score: 35 },
      { player: 5, wins: 0, draws: 0, score: 10 },
    ]);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((x) => p.get(x)),
      [3, 1, 3, 2, 5],
    );
  });

  it('sums the best N scores', () => {
    assert.equal(bestNTotal([10, 40, 20, 30, 50], 4), 140);
    assert.equal(bestNTotal([10], 4), 10);
  });

  it('gives tied values the same competition rank', () => {
    assert.deepEqual(competitionRanks([90, 80, 80, 70, 70, 70, 10]), [1, 2, 2, 4, 4, 4, 7]);
  });
});
