/**
 * The event projection's row of the pairing section (docs/event-projection.md#speed): 10,000
 * simulations of the five rounds of a 100-player Swiss event with nothing played yet, each game
 * drawn from a 0-20 score distribution tilted to the pair's expected score, ranked by total
 * score then opponents' wins (the target: under 300 ms on one core). The players' strengths
 * are the same every run; each run draws a new seed.
 */
import { tiltedScores } from '../src/engine/projection/projection-outcomes.ts';
import { SeededRandom, mulberry32 } from '../src/engine/projection/seeded-random.ts';
import { simulateSwiss } from '../src/engine/projection/swiss-simulation.ts';
import type { GameOutcomes, SwissField } from '../src/engine/projection/swiss-simulation.ts';

const PLAYERS = 100;
const ROUNDS = 5;
export const PROJECTION_SIMULATIONS = 10_000;

/** A T9A-like spread of scores 0..20 (more close games than crushing ones). */
const SHARES = Float64Array.from({ length: 21 }, (_, s) => Math.exp(-((s - 10) ** 2) / 40));

function field(): SwissField {
  return {
    n: PLAYERS,
    wins: new Int32Array(PLAYERS),
    draws: new Int32Array(PLAYERS),
    score: new Float64Array(PLAYERS),
    margin: new Float64Array(PLAYERS),
    opponents: new Int32Array(PLAYERS * ROUNDS),
    opponentCount: new Int32Array(PLAYERS),
    stride: ROUNDS,
    tieOrder: null,
  };
}

/** Pair distributions made on first use, as the engine's are (projection-outcomes.ts). */
function outcomes(): GameOutcomes {
  const random = mulberry32(20261129);
  const strength = Float64Array.from({ length: PLAYERS }, () => random() * 2 - 1);
  const sum = SHARES.reduce((a, b) => a + b, 0);
  const shares = SHARES.map((s) => s / sum);
  const made = new Uint8Array(PLAYERS * PLAYERS);
  const table = new Float64Array(PLAYERS * PLAYERS * 21);
  return {
    bins: 21,
    total: 20,
    table,
    at(i, j) {
      const k = i * PLAYERS + j;
      if (made[k] === 0) {
        made[k] = 1;
        const p = 1 / (1 + Math.exp(strength[j] - strength[i]));
        table.set(tiltedScores(shares, 20 * p), k * 21);
      }
      return k * 21;
    },
  };
}

/** One projection of the benchmark event; `seed` varies the draws. */
export function projectOnce(seed: number): void {
  simulateSwiss(
    field(),
    ROUNDS,
    { name: "total score, then opponents' wins", rank: ['score', 'opponentWins'] },
    outcomes(),
    PROJECTION_SIMULATIONS,
    new SeededRandom(seed),
    8,
  );
}
