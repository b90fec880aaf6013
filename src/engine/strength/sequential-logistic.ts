/**
 * A sequential (incremental) fit of the penalised logistic model (docs/ratings.md#forecast-accuracy):
 * the posterior after each batch of games is approximated by a Gaussian, N(θ_t, P_t⁻¹), which is
 * the prior of the next batch (the Laplace approximation carried forward, as in assumed-density
 * filtering: Opper 1998, "A Bayesian approach to on-line learning"). A batch then costs its own
 * games and a few solves, not a pass over all the games before it.
 *
 * The solves use the precision's shape. Columns that never share a row (the joint model's
 * matchup pairs: a game has one pair) meet each other only through the prior, so their block of
 * P is diagonal; the others (skill, factions, windows) form a small dense block. Each Newton
 * step eliminates the diagonal block (its Schur complement, Golub & Van Loan, "Matrix
 * Computations", 4th ed., §3.2.10) and factors the dense block over the columns some game has
 * touched so far, so a step costs (touched dense columns)³/3 instead of (all columns)³/3: on
 * T9A's 185 columns, 17 to 65 instead of 185.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import { choleskyInPlace, choleskySolve } from './cholesky.ts';
import type { GaussianPrior, SparseDesign } from './penalised-logistic.ts';
import { linearPredictor } from './penalised-logistic.ts';

interface Scratch {
  readonly start: Float64Array;
  readonly gradient: Float64Array;
  readonly step: Float64Array;
  readonly dense: Float64Array;
  readonly diagonal: Float64Array;
  readonly coupling: Float64Array;
  /** Per dense index, its place among the touched columns (`active`), or −1. */
  readonly position: Int32Array;
  readonly schur: Float64Array;
  readonly rhs: Float64Array;
  /** One diagonal column's touched neighbours: their positions and coupling values. */
  readonly where: Int32Array;
  readonly value: Float64Array;
}

export class SequentialLogistic {
  readonly theta: Float64Array;
  private readonly k: number;
  /** Per column: its index in the dense block, or −1 when it is in the diagonal block. */
  private readonly denseIndex: Int32Array;
  /** Per column: its index in the diagonal block, or −1. */
  private readonly diagonalIndex: Int32Array;
  private readonly denseColumns: Int32Array;
  private readonly diagonalColumns: Int32Array;
  /** The dense block of P (s×s, row-major, its lower triangle kept). */
  private readonly dense: Float64Array;
  /** The diagonal block of P. */
  private readonly diagonal: Float64Array;
  /** The coupling of each diagonal column with the dense ones (q×s, row-major). */
  private readonly coupling: Float64Array;
  /** Per diagonal column, the dense indices it shares a row with (its coupling's non-zeros). */
  private readonly neighbours: Int32Array[];
  /** Whether a dense column has had a game yet; ones that have not are still their prior. */
  private readonly touched: Uint8Array;
  private readonly active: number[] = [];
  /** Work arrays, allocated once: a backtest updates thousands of times. */
  private readonly scratch: Scratch;

  private readonly design: SparseDesign;
  /**
   * `diagonal` marks the columns (1) to keep in the diagonal block; they must share no row.
   * Without it every column is dense, the plain Laplace update. `fixed` marks columns held at
   * their prior mean: a model without those terms on the same design.
   */
  constructor(
    design: SparseDesign,
    prior: GaussianPrior,
    diagonal: Uint8Array = new Uint8Array(design.columns),
    fixed: Uint8Array = new Uint8Array(design.columns),
  ) {
    this.design = design;
    const k = (this.k = design.columns);
    this.theta = Float64Array.from(prior.mean);
    this.denseIndex = new Int32Array(k).fill(-1);
    this.diagonalIndex = new Int32Array(k).fill(-1);
    const dense: number[] = [];
    const diag: number[] = [];
    for (let c = 0; c < k; c += 1) {
      if (fixed[c] === 1) continue;
      if (diagonal[c] === 1) this.diagonalIndex[c] = diag.push(c) - 1;
      else this.denseIndex[c] = dense.push(c) - 1;
    }
    this.denseColumns = Int32Array.from(dense);
    this.diagonalColumns = Int32Array.from(diag);
    const s = dense.length;
    const q = diag.length;
    this.dense = new Float64Array(s * s);
    for (let d = 0; d < s; d += 1) this.dense[d * s + d] = prior.precision[dense[d]];
    this.diagonal = Float64Array.from(diag, (c) => prior.precision[c]);
    this.coupling = new Float64Array(q * s);
    this.touched = new Uint8Array(s);
    this.neighbours = this.couplingPattern(q);
    const vector = () => new Float64Array(s);
    this.scratch = {
      start: new Float64Array(k),
      gradient: new Float64Array(k),
      step: new Float64Array(k),
      dense: new Float64Array(s * s),
      diagonal: new Float64Array(q),
      coupling: new Float64Array(q * s),
      position: new Int32Array(s).fill(-1),
      schur: new Float64Array(s * s),
      rhs: vector(),
      where: new Int32Array(s),
      value: vector(),
    };
  }

  /**
   * Which dense columns each diagonal column shares a row with, over the whole design; throws
   * when two diagonal columns share a row (the block would not be diagonal).
   */
  private couplingPattern(q: number): Int32Array[] {
    const { rows, width, col } = this.design;
    const s = this.denseColumns.length;
    const seen = new Uint8Array(q * s);
    for (let i = 0; i < rows; i += 1) {
      throwIfCancelledEvery(i);
      let p = -1;
      for (let e = 0; e < width; e += 1) {
        const c = col[i * width + e];
        if (c < 0 || this.diagonalIndex[c] < 0) continue;
        if (p >= 0) throw new RangeError(`two columns of the diagonal block share row ${i}`);
        p = this.diagonalIndex[c];
      }
      if (p < 0) continue;
      for (let e = 0; e < width; e += 1) {
        const c = col[i * width + e];
        if (c >= 0 && this.denseIndex[c] >= 0) seen[p * s + this.denseIndex[c]] = 1;
      }
    }
    return Array.from({ length: q }, (_, p) => {
      const list: number[] = [];
      for (let d = 0; d < s; d += 1) if (seen[p * s + d] === 1) list.push(d);
      return Int32Array.from(list);
    });
  }

  /**
   * Takes in the design's rows [from, to): `steps` Newton steps on the batch's likelihood under
   * the current Gaussian, then the batch's information at the new θ is added to the precision.
   */
  update(from: number, to: number, steps = 2): void {
    if (to <= from) return;
    this.touch(from, to);
    const { k, scratch } = this;
    const start = scratch.start;
    start.set(this.theta);
    for (let s = 0; s < steps; s += 1) {
      scratch.dense.set(this.dense);
      scratch.diagonal.set(this.diagonal);
      scratch.coupling.set(this.coupling);
      // −P(θ − θ_t): the pull of everything before the batch (zero at the first step).
      if (s === 0) scratch.gradient.fill(0);
      else this.pull(start, scratch.gradient);
      this.addBatch(from, to, scratch.dense, scratch.diagonal, scratch.coupling, scratch.gradient);
      if (!this.solve()) return;
      for (let c = 0; c < k; c += 1) this.theta[c] += scratch.step[c];
    }
    this.addBatch(from, to, this.dense, this.diagonal, this.coupling, null);
  }

  /** Marks the dense columns of the batch's rows as touched, keeping `active` in order. */
  private touch(from: number, to: number): void {
    const { width, col } = this.design;
    let added = false;
    for (let i = from * width; i < to * width; i += 1) {
      const c = col[i];
      const d = c >= 0 ? this.denseIndex[c] : -1;
      if (d >= 0 && this.touched[d] === 0) {
        this.touched[d] = 1;
        this.active.push(d);
        added = true;
      }
    }
    if (!added) return;
    this.active.sort((a, b) => a - b);
    const position = this.scratch.position;
    position.fill(-1);
    this.active.forEach((d, r) => (position[d] = r));
  }

  /** −P(θ − start), by blocks. */
  private pull(start: Float64Array, out: Float64Array): void {
    const { dense, diagonal, coupling, denseColumns, diagonalColumns } = this;
    const s = denseColumns.length;
    out.fill(0);
    const delta = (c: number): number => this.theta[c] - start[c];
    for (let a = 0; a < s; a += 1) {
      const da = delta(denseColumns[a]);
      let sum = dense[a * s + a] * da;
      for (let b = 0; b < a; b += 1) {
        const v = dense[a * s + b];
        sum += v * delta(denseColumns[b]);
        out[denseColumns[b]] -= v * da;
      }
      out[denseColumns[a]] -= sum;
    }
    for (let p = 0; p < diagonalColumns.length; p += 1) {
      const cp = diagonalColumns[p];
      let sum = diagonal[p] * delta(cp);
      for (const d of this.neighbours[p]) {
        const w = coupling[p * s + d];
        sum += w * delta(denseColumns[d]);
        out[denseColumns[d]] -= w * delta(cp);
      }
      out[cp] = -sum;
    }
  }

  /**
   * Adds the batch's Σ w·x·xᵀ to the blocks (the dense one's lower triangle) and Σ x·(y − p) to
   * `gradient` (when given), each entry to the block its two columns fall in.
   */
  private addBatch(
    from: number,
    to: number,
    dense: Float64Array,
    diagonal: Float64Array,
    coupling: Float64Array,
    gradient: Float64Array | null,
  ): void {
    const { design, denseIndex, diagonalIndex, theta } = this;
    const { width, col, val, y } = design;
    const s = this.denseColumns.length;
    const { where, value } = this.scratch;
    for (let i = from; i < to; i += 1) {
      throwIfCancelledEvery(i);
      const base = i * width;
      const p = 1 / (1 + Math.exp(-linearPredictor(design, theta, i)));
      const w = p * (1 - p);
      const residual = y[i] - p;
      // The row's dense entries, and its one diagonal-block entry if any.
      let n = 0;
      let pair = -1;
      let pairValue = 0;
      for (let e = 0; e < width; e += 1) {
        const c = col[base + e];
        if (c < 0) continue;
        const v = val[base + e];
        const d = denseIndex[c];
        if (d < 0 && diagonalIndex[c] < 0) continue; // held fixed
        if (gradient !== null) gradient[c] += residual * v;
        if (d < 0) {
          pair = diagonalIndex[c];
          pairValue = v;
          diagonal[pair] += w * v * v;
        } else {
          where[n] = d;
          value[n] = v;
          n += 1;
        }
      }
      for (let a = 0; a < n; a += 1) {
        const da = where[a];
        const wa = w * value[a];
        for (let b = 0; b <= a; b += 1) {
          const db = where[b];
          dense[da >= db ? da * s + db : db * s + da] += wa * value[b];
        }
        if (pair >= 0) coupling[pair * s + da] += wa * pairValue;
      }
    }
  }

  /**
   * Solves P_h·x = g (the scratch blocks and gradient) into `scratch.step`, by blocks: the
   * Schur complement of the diagonal block over the touched dense columns, an untouched
   * column's row being its prior alone. False when the Schur complement is not positive
   * definite (rounding only: P_h is).
   */
  private solve(): boolean {
    const { denseColumns, diagonalColumns, neighbours, active, touched, scratch } = this;
    const { dense, diagonal, coupling, gradient, step } = scratch;
    const s = denseColumns.length;
    const m = active.length;
    const position = scratch.position;
    // The Cholesky factorisation reads the lower triangle only, so only it is formed.
    const schur = scratch.schur.subarray(0, m * m);
    const rhs = scratch.rhs.subarray(0, m);
    for (let r = 0; r < m; r += 1) {
      const row = active[r] * s;
      for (let t = 0; t <= r; t += 1) schur[r * m + t] = dense[row + active[t]];
      rhs[r] = gradient[denseColumns[active[r]]];
    }
    const where = scratch.where;
    const value = scratch.value;
    for (let p = 0; p < diagonalColumns.length; p += 1) {
      const inverse = 1 / diagonal[p];
      const gp = gradient[diagonalColumns[p]] * inverse;
      const nb = neighbours[p];
      let n = 0;
      for (let a = 0; a < nb.length; a += 1) {
        const ra = position[nb[a]];
        const ba = ra < 0 ? 0 : coupling[p * s + nb[a]];
        if (ba === 0) continue;
        rhs[ra] -= ba * gp;
        where[n] = ra;
        value[n] = ba;
        n += 1;
      }
      // Neighbours ascend, and so do their positions: where[b] <= where[a] for b <= a.
      for (let a = 0; a < n; a += 1) {
        const row = where[a] * m;
        const va = value[a] * inverse;
        for (let b = 0; b <= a; b += 1) schur[row + where[b]] -= va * value[b];
      }
    }
    if (!choleskyInPlace(schur, m)) return false;
    const reduced = choleskySolve(schur, m, rhs);
    for (let d = 0; d < s; d += 1) {
      const c = denseColumns[d];
      step[c] = touched[d] === 1 ? reduced[position[d]] : gradient[c] / dense[d * s + d];
    }
    for (let p = 0; p < diagonalColumns.length; p += 1) {
      const cp = diagonalColumns[p];
      let sum = gradient[cp];
      for (const d of neighbours[p]) sum -= coupling[p * s + d] * step[denseColumns[d]];
      step[cp] = sum / diagonal[p];
    }
    return true;
  }
}
