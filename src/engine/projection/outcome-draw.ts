/**
 * One simulated game's outcome drawn from its pair's cumulative distribution
 * (docs/event-projection.md#speed): the first outcome whose cumulative share exceeds a uniform
 * u, found through a guide table (Chen & Asau 1974; Devroye 1986, §III.2.4) instead of a
 * binary search. The unit interval is cut into GUIDE equal cells; for each pair and cell a byte
 * holds the outcome at the cell's left edge and whether an outcome boundary falls inside the
 * cell. Most cells hold none, and then the byte is the answer without reading the
 * distribution; otherwise a short scan from there finds it. The outcome for each u is exactly
 * the binary search's, so the draws are unchanged; the gain is fewer dependent reads of a table
 * too large for the nearest caches.
 */
import type { Random } from './seeded-random.ts';

/**
 * The distribution of one game: `bins` outcomes of player i against j as a cumulative
 * distribution. With a score total, outcome k is i's score k (j's the total minus k); without,
 * 0 is a loss, 1 a draw and 2 a win for i.
 */
export interface GameOutcomes {
  readonly bins: number;
  readonly total: number | null;
  /** The distributions, `bins` numbers each, side by side (one block: fewer cache misses). */
  readonly table: Float64Array;
  /** Where in `table` the distribution of i against j starts (made on first use). */
  at(i: number, j: number): number;
}

// Cells per pair: a power of two (u × GUIDE is then exact) well above the 21 outcomes of a
// 0-20 score, so that most cells hold no boundary.
const GUIDE = 64;
const MIXED = 0x80;

/** Draws outcomes of the pairs of `n` players from `outcomes`, guides made on first use. */
export class OutcomeDraw {
  private readonly guide: Uint8Array;
  // Where each pair's distribution starts in outcomes.table, + 1 (0: not yet made).
  private readonly start: Int32Array;

  private readonly u: Float64Array;

  readonly n: number;
  readonly outcomes: GameOutcomes;
  constructor(n: number, outcomes: GameOutcomes) {
    this.n = n;
    this.outcomes = outcomes;
    this.u = new Float64Array(n);
    this.guide = new Uint8Array(n * n * GUIDE);
    this.start = new Int32Array(n * n);
  }

  /**
   * The outcomes of `count` games, pair p of players pairs[2p] and pairs[2p + 1], into
   * `into`, each from the next number of `random`. Two passes: the first only reads each
   * game's guide byte, reads that do not wait on one another, so the processor overlaps their
   * cache misses; the second settles the mixed cells.
   */
  drawRound(pairs: Int32Array, count: number, random: Random, into: Int32Array): void {
    const { guide, start, n } = this;
    const u = this.u;
    for (let p = 0; p < count; p++) {
      const pair = pairs[2 * p] * n + pairs[2 * p + 1];
      if (start[pair] === 0) this.make(pair, pairs[2 * p], pairs[2 * p + 1]);
      const x = random.next();
      u[p] = x;
      into[p] = guide[pair * GUIDE + Math.floor(x * GUIDE)];
    }
    const { table } = this.outcomes;
    const last = this.outcomes.bins - 1;
    for (let p = 0; p < count; p++) {
      const g = into[p];
      if ((g & MIXED) === 0) continue;
      const at = start[pairs[2 * p] * n + pairs[2 * p + 1]] - 1;
      const x = u[p];
      let k = g & ~MIXED;
      while (k < last && x >= table[at + k]) k++;
      into[p] = k;
    }
  }

  /** The guide of pair i, j: each cell's outcome at its left edge, flagged where it is mixed. */
  private make(pair: number, i: number, j: number): number {
    const at = this.outcomes.at(i, j);
    const { table } = this.outcomes;
    const last = this.outcomes.bins - 1;
    let k = 0;
    for (let c = 0; c < GUIDE; c++) {
      const left = c / GUIDE;
      while (k < last && left >= table[at + k]) k++;
      const pure = k === last || table[at + k] >= (c + 1) / GUIDE;
      this.guide[pair * GUIDE + c] = pure ? k : k | MIXED;
    }
    this.start[pair] = at + 1;
    return at;
  }
}
