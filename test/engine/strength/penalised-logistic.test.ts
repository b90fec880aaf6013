/**
 * The penalised Newton fit's line search (docs/ratings.md#how-long-it-takes): at the optimum, a
 * step may seem to lower the objective by rounding alone, since the objective sums one term per
 * game; halving such a step cost a pass over every game each time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRng } from '../../../src/ingest/demo/rng.ts';
import { fitPenalisedLogistic } from '../../../src/engine/strength/penalised-logistic.ts';
import type { SparseDesign } from '../../../src/engine/strength/penalised-logistic.ts';

const COLUMNS = 40;

/**
 * `rows` games between two of 40 sides, scores in twentieths, from a seed where rounding alone
 * moves the objective at the optimum (without the allowance for it: 35 passes where 7 do).
 */
function design(rows: number): SparseDesign {
  const rng = createRng(42);
  const col = new Int32Array(rows * 2);
  const val = new Float64Array(rows * 2);
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i += 1) {
    const a = rng.int(0, COLUMNS - 1);
    const b = (a + rng.int(1, COLUMNS - 1)) % COLUMNS;
    col.set([a, b], i * 2);
    val.set([1, -1], i * 2);
    y[i] = rng.int(0, 20) / 20;
  }
  return { rows, width: 2, columns: COLUMNS, col, val, offset: new Float64Array(rows), y };
}

describe('penalised logistic fit', () => {
  it('takes every Newton step at the optimum whole: one pass over 100,000 games each', () => {
    const prior = { mean: new Float64Array(COLUMNS), precision: new Float64Array(COLUMNS).fill(1) };
    // A tolerance of 0 keeps Newton iterating at the optimum, where only rounding moves.
    const fit = fitPenalisedLogistic(design(100_000), prior, { tolerance: 0, maxIterations: 6 });
    assert.equal(fit.iterations, 6);
    assert.equal(fit.passes, 7);
  });

  it('still halves a step that overshoots', () => {
    // Started where every game is all but certain, the Hessian is almost the prior's alone
    // and the first full Newton step lands far past the optimum.
    const prior = { mean: new Float64Array(COLUMNS), precision: new Float64Array(COLUMNS).fill(1) };
    const start = Float64Array.from({ length: COLUMNS }, (_, j) => (j % 2 === 0 ? 15 : -15));
    const fit = fitPenalisedLogistic(design(2_000), prior, { start });
    assert.ok(fit.converged);
    assert.ok(
      fit.passes > fit.iterations + 1,
      `${fit.passes} passes, ${fit.iterations} iterations`,
    );
  });
});
