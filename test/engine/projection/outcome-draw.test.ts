/**
 * The simulation's draws (docs/event-projection.md#speed): the guide table finds, for every
 * uniform number, the outcome a binary search of the pair's cumulative distribution finds, and
 * the seeded generator gives the numbers of mulberry32 with the same seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../../src/domain/mulberry32.ts';
import { OutcomeDraw } from '../../../src/engine/projection/outcome-draw.ts';
import { tiltedScores } from '../../../src/engine/projection/projection-outcomes.ts';
import { SeededRandom } from '../../../src/engine/projection/seeded-random.ts';
import type { GameOutcomes } from '../../../src/engine/projection/swiss-simulation.ts';

const SHARES = Float64Array.from({ length: 21 }, (_, s) => 1 + Math.exp(-((s - 10) ** 2) / 20));

/** Three players whose pairs' expected scores are 3, 10 and 17 of 20. */
function outcomes(): GameOutcomes {
  const sum = SHARES.reduce((a, b) => a + b, 0);
  const shares = SHARES.map((s) => s / sum);
  const table = new Float64Array(9 * 21);
  for (let k = 0; k < 9; k++) table.set(tiltedScores(shares, 3 + (k % 3) * 7), k * 21);
  return { bins: 21, total: 20, table, at: (i, j) => ((i % 3) * 3 + (j % 3)) * 21 };
}

function binarySearch(cdf: Float64Array, at: number, u: number): number {
  let lo = 0;
  let hi = 20;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (u >= cdf[at + mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A generator that answers the numbers given, in turn. */
function given(numbers: number[]) {
  let k = 0;
  return { next: () => numbers[k++] };
}

describe('the simulated games', () => {
  it('draw the outcome a binary search of the distribution gives, for every number', () => {
    const o = outcomes();
    // Room for eight players: a round of n players plays at most n / 2 games.
    const draw = new OutcomeDraw(8, o);
    const pairs = Int32Array.of(0, 1, 1, 2, 2, 0, 0, 2);
    const into = new Int32Array(4);
    const random = mulberry32(7);
    // Cell edges and the cumulative shares themselves are where an off-by-one would show.
    const edges = Array.from({ length: 257 }, (_, c) => Math.min(c / 256, 1 - 2 ** -40));
    const numbers = [...edges, ...Array.from(o.table, (c) => Math.min(c, 1 - 2 ** -40))];
    for (let k = 0; k < 4000; k++) numbers.push(random());
    for (let s = 0; s + 4 <= numbers.length; s += 4) {
      draw.drawRound(pairs, 4, given(numbers.slice(s, s + 4)), into);
      for (let p = 0; p < 4; p++) {
        const at = o.at(pairs[2 * p], pairs[2 * p + 1]);
        assert.equal(into[p], binarySearch(o.table, at, numbers[s + p]), `u ${numbers[s + p]}`);
      }
    }
  });

  it('come from the numbers of mulberry32 with the same seed', () => {
    for (const seed of [0, 1, 0x7fffffff, 0xffffffff, 20261129]) {
      const a = mulberry32(seed);
      const b = new SeededRandom(seed);
      for (let k = 0; k < 1000; k++) assert.equal(b.next(), a());
    }
  });
});
