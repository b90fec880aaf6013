/**
 * One simulated game's outcome drawn from its pair's cumulative distribution
 * (docs/event-projection.md#speed), from one small block per pair: the cumulative shares
 * rounded to sixteen bits, and a guide table (Chen & Asau 1974; Devroye 1986, §III.2.4) of
 * sixteen cells holding the outcome at each cell's left edge. A uniform u, taken to sixteen
 * bits, starts at its cell's outcome and steps past the shares it reaches. For a 0-20 score
 * the block is one 64-byte cache line, so a draw reads one line where a table of 64-bit shares
 * and a separate guide read two or three (a hundred players' blocks take 640 KB, where the
 * shares and guide took 2.3 MB). One number of the generator gives two games their sixteen
 * bits. Each outcome's share is the distribution's within 2/65,535 (the shares
 * rounded, and u's sixteen bits spread over 65,535 values).
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

// Guide cells per pair: u's top four of sixteen bits. Sixteen cells for the 21 outcomes of a
// 0-20 score leave one or two steps past the cell's outcome at most.
const CELL_SHIFT = 12;
const CELLS = 16;
// The resolution of u and of the rounded shares: u × SCALE is below SCALE, a share of 1 is SCALE.
const SCALE = 65_535;

/** Draws outcomes of the pairs of `n` players from `outcomes`, blocks made on first use. */
export class OutcomeDraw {
  // Pair p's block starts at p × stride (16-bit words): bins − 1 rounded cumulative shares,
  // then the guide's CELLS bytes.
  private readonly shares: Uint16Array;
  private readonly guide: Uint8Array;
  private readonly made: Uint8Array;
  private readonly stride: number;
  private readonly last: number;
  // Each game's u and block, between the passes (a round plays at most n / 2 games).
  private readonly u: Int32Array;
  private readonly at: Int32Array;
  // What the first pass read, kept so that the compiler keeps its reads.
  private touched = 0;

  readonly n: number;
  readonly outcomes: GameOutcomes;
  constructor(n: number, outcomes: GameOutcomes) {
    this.n = n;
    this.outcomes = outcomes;
    this.last = outcomes.bins - 1;
    // A power of two words: a 0-20 score's block is 32 words, one cache line.
    let stride = 16;
    while (stride < this.last + CELLS / 2) stride *= 2;
    this.stride = stride;
    const buffer = new ArrayBuffer(n * n * stride * 2);
    this.shares = new Uint16Array(buffer);
    this.guide = new Uint8Array(buffer);
    this.made = new Uint8Array(n * n);
    this.u = new Int32Array(n);
    this.at = new Int32Array(n);
  }

  /**
   * The outcomes of `count` games, pair p of players pairs[2p] and pairs[2p + 1], into
   * `into`, each from the next number of `random`. Three passes: the first only finds each
   * game's block and reads its first word, reads that wait on nothing and few instructions
   * apart, so the processor overlaps many of their cache misses; the second reads each game's
   * guide byte and the third steps past the shares, in lines the first brought in.
   */
  drawRound(pairs: Int32Array, count: number, random: Random, into: Int32Array): void {
    const { shares, guide, made, n, stride, last, u, at } = this;
    let bits = 0;
    let touch = 0;
    for (let p = 0; p < count; p++) {
      const pair = pairs[2 * p] * n + pairs[2 * p + 1];
      if (made[pair] === 0) this.make(pair, pairs[2 * p], pairs[2 * p + 1]);
      at[p] = pair * stride;
      touch |= shares[pair * stride];
    }
    this.touched = touch;
    for (let p = 0; p < count; p++) {
      // Two games' sixteen bits from one number of the generator (its 32 bits, exactly).
      if ((p & 1) === 0) bits = random.next() * 4294967296;
      const half = (p & 1) === 0 ? bits >>> 16 : bits & 0xffff;
      const x = (half * SCALE) >>> 16;
      u[p] = x;
      into[p] = guide[2 * (at[p] + last) + (x >>> CELL_SHIFT)];
    }
    for (let p = 0; p < count; p++) {
      const x = u[p];
      const from = at[p];
      let k = into[p];
      while (k < last && x >= shares[from + k]) k++;
      into[p] = k;
    }
  }

  /** The block of pair i, j: its rounded cumulative shares and each cell's outcome. */
  private make(pair: number, i: number, j: number): void {
    const from = this.outcomes.at(i, j);
    const { table } = this.outcomes;
    const { shares, guide, stride, last } = this;
    const at = pair * stride;
    for (let k = 0; k < last; k++) shares[at + k] = Math.round(table[from + k] * SCALE);
    let k = 0;
    for (let c = 0; c < CELLS; c++) {
      const left = c << CELL_SHIFT;
      while (k < last && left >= shares[at + k]) k++;
      guide[2 * (at + last) + c] = k;
    }
    this.made[pair] = 1;
  }
}
