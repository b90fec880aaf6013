/**
 * The simulation's draws (docs/event-projection.md#speed): for every sixteen bits of a uniform
 * number the guide table finds the outcome a binary search of the pair's cumulative shares
 * (rounded to sixteen bits) finds, each outcome's share is the distribution's within
 * 2/65,535, and the seeded generator gives the numbers of mulberry32 with the same seed.
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

const SCALE = 65_535;

/** The first outcome whose rounded cumulative share exceeds u (of 0 .. SCALE − 1). */
function binarySearch(cdf: Float64Array, at: number, u: number): number {
  let lo = 0;
  let hi = 20;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (u >= Math.round(cdf[at + mid] * SCALE)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The sixteen-bit u of game p of a round drawn with `numbers`: two games to a number. */
function sixteenBits(numbers: number[], p: number): number {
  const bits = numbers[p >> 1] * 4294967296;
  const half = (p & 1) === 0 ? bits >>> 16 : bits & 0xffff;
  return (half * SCALE) >>> 16;
}

/** A generator that answers the numbers given, in turn. */
function given(numbers: number[]) {
  let k = 0;
  return { next: () => numbers[k++] };
}

describe('the simulated games', () => {
  it('draw the outcome a binary search of the rounded shares gives, for every number', () => {
    const o = outcomes();
    // Room for eight players: a round of n players plays at most n / 2 games.
    const draw = new OutcomeDraw(8, o);
    const pairs = Int32Array.of(0, 1, 1, 2, 2, 0, 0, 2);
    const into = new Int32Array(4);
    const random = mulberry32(7);
    // Cell edges and the shares themselves are where an off-by-one would show: the numbers
    // whose halves land on them, and on one below.
    const edges: number[] = [];
    for (let c = 0; c <= 16; c++) edges.push(c << 12);
    for (const share of o.table) edges.push(Math.round(share * SCALE));
    const numbers: number[] = [];
    for (const e of edges) {
      for (const h of [e, e - 1]) {
        // The half that sixteenBits maps onto h (or just above it), in both halves.
        const half = Math.min(0xffff, Math.max(0, Math.ceil((h * 65536) / SCALE)));
        numbers.push(((half * 65536 + half) >>> 0) / 4294967296);
      }
    }
    for (let k = 0; k < 4000; k++) numbers.push(random());
    for (let s = 0; s + 2 <= numbers.length; s += 2) {
      const round = numbers.slice(s, s + 2);
      draw.drawRound(pairs, 4, given(round), into);
      for (let p = 0; p < 4; p++) {
        const at = o.at(pairs[2 * p], pairs[2 * p + 1]);
        const u = sixteenBits(round, p);
        assert.equal(into[p], binarySearch(o.table, at, u), `u ${u}`);
      }
    }
  });

  it("give each outcome its distribution's share within 2/65,535", () => {
    const o = outcomes();
    const draw = new OutcomeDraw(3, o);
    const pairs = Int32Array.of(0, 1);
    const into = new Int32Array(1);
    const at = o.at(0, 1);
    const counts = new Float64Array(21);
    // Every sixteen-bit u once: the shares the draws give exactly.
    for (let half = 0; half < 65536; half++) {
      draw.drawRound(pairs, 1, given([(half * 65536) / 4294967296]), into);
      counts[into[0]]++;
    }
    for (let k = 0; k < 21; k++) {
      const share = o.table[at + k] - (k === 0 ? 0 : o.table[at + k - 1]);
      assert.ok(Math.abs(counts[k] / 65536 - share) <= 2 / SCALE, `outcome ${k}`);
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
