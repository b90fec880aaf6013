/**
 * The beta-binomial moment fit behind shrunkWinRate on the worked example of
 * docs/statistics.md#shrunk-win-rate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_PRIOR_STRENGTH, PriorFit, shrunkRate } from '../../src/engine/shrinkage.ts';

const CELLS = [
  [8, 10],
  [2, 10],
  [10, 20],
  [20, 40],
];

describe('beta-binomial shrinkage', () => {
  it('fits the worked example: m = 22.75 games, 8 of 10 shrunk to 0.5916', () => {
    // Row rate 40/80 = 0.5. Σ n(p − μ)² = 0.9 + 0.9 + 0 + 0 = 1.8; Σ μ(1 − μ) = 1;
    // Σ μ(1 − μ)(n − 1) = 0.25 · 76 = 19; ρ = 0.8 / 19; m = 1/ρ − 1 = 22.75.
    const fit = new PriorFit();
    for (const [s, n] of CELLS) fit.add(s, n, 0.5);
    const { priorStrength, cells } = fit.result();
    assert.equal(cells, 4);
    assert.ok(Math.abs(priorStrength! - 22.75) < 1e-9);
    const shrunk = shrunkRate(8, 10, 0.5, priorStrength);
    assert.ok(Math.abs(shrunk! - 19.375 / 32.75) < 1e-12);
    // A large cell moves little, a small one a lot.
    assert.ok(Math.abs(shrunkRate(20, 40, 0.5, priorStrength)! - 0.5) < 1e-12);
    assert.ok(shrunkRate(2, 10, 0.5, priorStrength)! > 0.4);
  });

  it('pulls every cell all the way when they spread no more than chance', () => {
    const fit = new PriorFit();
    for (const [s, n] of [
      [5, 10],
      [10, 20],
      [20, 40],
    ])
      fit.add(s, n, 0.5);
    assert.equal(fit.result().priorStrength, MAX_PRIOR_STRENGTH);
  });

  it('leaves rates unshrunk without enough cells to fit', () => {
    const fit = new PriorFit();
    fit.add(3, 4, 0.5);
    fit.add(1, 1, 0); // a degenerate prior mean tells nothing
    assert.deepEqual(fit.result(), { priorStrength: null, cells: 1 });
    assert.equal(shrunkRate(3, 4, 0.5, null), 0.75);
    assert.equal(shrunkRate(0, 0, 0.5, 10), null);
  });
});
