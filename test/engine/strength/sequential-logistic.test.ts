/**
 * The sequential fit's block solves (docs/ratings.md#forecast-accuracy): against the plain
 * Laplace update written out densely here, on a design shaped like the joint model's (skill,
 * factions, windows, one matchup pair a row), the structured update must give the same
 * coefficients, and a column held fixed must give the model without it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRng } from '../../../src/ingest/demo/rng.ts';
import { choleskyInPlace, choleskySolve } from '../../../src/engine/strength/cholesky.ts';
import {
  JOINT_TERMS,
  JointLayout,
  ROW_WIDTH,
  rowEntries,
} from '../../../src/engine/strength/joint-model.ts';
import { linearPredictor } from '../../../src/engine/strength/penalised-logistic.ts';
import type {
  GaussianPrior,
  SparseDesign,
} from '../../../src/engine/strength/penalised-logistic.ts';
import { SequentialLogistic } from '../../../src/engine/strength/sequential-logistic.ts';

const FACTIONS = 5;
const WINDOWS = 3;
/** Columns: [skill] [factions] [pairs] [windows × factions], the joint model's own layout. */
const LAYOUT = new JointLayout(JOINT_TERMS, FACTIONS, WINDOWS);
const COLUMNS = LAYOUT.columns;

/** `rows` games over `WINDOWS` windows in order; a window's games only from its start. */
function design(rows: number, seed: number): SparseDesign {
  const rng = createRng(seed);
  const col = new Int32Array(rows * ROW_WIDTH);
  const val = new Float64Array(rows * ROW_WIDTH);
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i += 1) {
    const window = Math.floor((i * WINDOWS) / rows);
    const a = rng.int(0, FACTIONS - 1);
    const b = (a + rng.int(1, FACTIONS - 1)) % FACTIONS;
    rowEntries(LAYOUT, a, b, window, rng.next() * 2 - 1, col, val, i * ROW_WIDTH);
    y[i] = rng.int(0, 20) / 20;
  }
  return {
    rows,
    width: ROW_WIDTH,
    columns: COLUMNS,
    col,
    val,
    offset: new Float64Array(rows),
    y,
  };
}

function prior(): GaussianPrior {
  const mean = new Float64Array(COLUMNS);
  mean[LAYOUT.skillColumn] = 1;
  const precision = new Float64Array(COLUMNS).fill(4);
  precision.fill(100, LAYOUT.pairStart, LAYOUT.windowStart);
  return { mean, precision };
}

const pairMask = (): Uint8Array => LAYOUT.pairMask();

/** The plain Laplace update of sequential-logistic.ts, every column in one dense k×k solve. */
class DenseReference {
  readonly theta: Float64Array;
  readonly precision: Float64Array;

  private readonly d: SparseDesign;
  private readonly keep: (c: number) => boolean;
  constructor(d: SparseDesign, p: GaussianPrior, keep: (c: number) => boolean = () => true) {
    this.d = d;
    this.keep = keep;
    this.theta = Float64Array.from(p.mean);
    this.precision = new Float64Array(COLUMNS * COLUMNS);
    for (let c = 0; c < COLUMNS; c += 1) this.precision[c * COLUMNS + c] = p.precision[c];
  }

  update(from: number, to: number, steps: number): void {
    const k = COLUMNS;
    const start = Float64Array.from(this.theta);
    for (let s = 0; s < steps; s += 1) {
      const h = Float64Array.from(this.precision);
      const g = new Float64Array(k);
      for (let i = 0; i < k; i += 1) {
        for (let j = 0; j < k; j += 1) g[i] -= h[i * k + j] * (this.theta[j] - start[j]);
      }
      this.add(from, to, h, g);
      for (let c = 0; c < k; c += 1) {
        if (this.keep(c)) continue;
        for (let j = 0; j < k; j += 1) h[c * k + j] = h[j * k + c] = 0;
        h[c * k + c] = 1;
        g[c] = 0;
      }
      assert.ok(choleskyInPlace(h, k));
      const step = choleskySolve(h, k, g);
      for (let c = 0; c < k; c += 1) this.theta[c] += step[c];
    }
    this.add(from, to, this.precision, null);
  }

  private add(from: number, to: number, h: Float64Array, g: Float64Array | null): void {
    const { col, val, y } = this.d;
    for (let i = from; i < to; i += 1) {
      const p = 1 / (1 + Math.exp(-linearPredictor(this.d, this.theta, i)));
      for (let a = 0; a < ROW_WIDTH; a += 1) {
        const ca = col[i * ROW_WIDTH + a];
        if (ca < 0 || !this.keep(ca)) continue;
        if (g !== null) g[ca] += (y[i] - p) * val[i * ROW_WIDTH + a];
        for (let b = 0; b < ROW_WIDTH; b += 1) {
          const cb = col[i * ROW_WIDTH + b];
          if (cb >= 0 && this.keep(cb)) {
            h[ca * COLUMNS + cb] += p * (1 - p) * val[i * ROW_WIDTH + a] * val[i * ROW_WIDTH + b];
          }
        }
      }
    }
  }
}

function maxDifference(a: Float64Array, b: Float64Array): number {
  return a.reduce((max, v, i) => Math.max(max, Math.abs(v - b[i])), 0);
}

describe('sequential logistic fit', () => {
  for (const steps of [1, 2]) {
    it(`takes in batches as the dense Laplace update does, ${steps} Newton step(s) a batch`, () => {
      const d = design(600, 7);
      const structured = new SequentialLogistic(d, prior(), pairMask());
      const dense = new DenseReference(d, prior());
      for (let from = 0; from < d.rows; from += 40) {
        structured.update(from, from + 40, steps);
        dense.update(from, from + 40, steps);
        assert.ok(maxDifference(structured.theta, dense.theta) < 1e-10, `after row ${from + 40}`);
      }
      // The fit moved: the comparison is not between two untouched priors.
      assert.ok(maxDifference(structured.theta, prior().mean) > 0.05);
    });
  }

  it('holds a fixed column at its prior mean: the model without that term', () => {
    const d = design(400, 11);
    const p = prior();
    const mean = Float64Array.from(p.mean);
    mean[LAYOUT.skillColumn] = 0;
    const fixed = new Uint8Array(COLUMNS);
    fixed[LAYOUT.skillColumn] = 1;
    const structured = new SequentialLogistic(
      d,
      { mean, precision: p.precision },
      pairMask(),
      fixed,
    );
    const dense = new DenseReference(
      d,
      { mean, precision: p.precision },
      (c) => c !== LAYOUT.skillColumn,
    );
    for (let from = 0; from < d.rows; from += 50) {
      structured.update(from, from + 50, 1);
      dense.update(from, from + 50, 1);
    }
    assert.equal(structured.theta[LAYOUT.skillColumn], 0);
    assert.ok(maxDifference(structured.theta, dense.theta) < 1e-10);
  });

  it('refuses a diagonal block whose columns share a row', () => {
    const mask = pairMask();
    mask[LAYOUT.factionStart] = 1; // a faction column: it shares rows with the pairs
    assert.throws(() => new SequentialLogistic(design(50, 3), prior(), mask), RangeError);
  });
});
