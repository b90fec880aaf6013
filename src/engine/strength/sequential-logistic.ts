/**
 * A sequential (incremental) fit of the penalised logistic model (docs/ratings.md#forecast-accuracy):
 * the posterior after each batch of games is approximated by a Gaussian, N(θ_t, P_t⁻¹), which is
 * the prior of the next batch (the Laplace approximation carried forward, as in assumed-density
 * filtering: Opper 1998, "A Bayesian approach to on-line learning"). A batch then costs its own
 * games and a few k×k solves, not a pass over all the games before it.
 */
import { choleskyInPlace, choleskySolve } from './cholesky.ts';
import type { GaussianPrior, SparseDesign } from './penalised-logistic.ts';
import { linearPredictor } from './penalised-logistic.ts';

export class SequentialLogistic {
  readonly theta: Float64Array;
  /** The precision of the current Gaussian approximation, both triangles (k×k, row-major). */
  private readonly precision: Float64Array;
  private readonly k: number;

  constructor(
    private readonly design: SparseDesign,
    prior: GaussianPrior,
  ) {
    this.k = design.columns;
    this.theta = Float64Array.from(prior.mean);
    this.precision = new Float64Array(this.k * this.k);
    for (let j = 0; j < this.k; j += 1) this.precision[j * this.k + j] = prior.precision[j];
  }

  /**
   * Takes in the design's rows [from, to): `steps` Newton steps on the batch's likelihood under
   * the current Gaussian, then the batch's information at the new θ is added to the precision.
   */
  update(from: number, to: number, steps = 2): void {
    if (to <= from) return;
    const { k } = this;
    const start = Float64Array.from(this.theta);
    for (let s = 0; s < steps; s += 1) {
      const hessian = Float64Array.from(this.precision);
      const gradient = new Float64Array(k);
      // −P(θ − θ_t): the pull of everything before the batch.
      for (let i = 0; i < k; i += 1) {
        let sum = 0;
        for (let j = 0; j < k; j += 1)
          sum += this.precision[i * k + j] * (this.theta[j] - start[j]);
        gradient[i] = -sum;
      }
      this.addBatch(from, to, hessian, gradient);
      if (!choleskyInPlace(hessian, k)) return;
      const step = choleskySolve(hessian, k, gradient);
      for (let j = 0; j < k; j += 1) this.theta[j] += step[j];
    }
    this.addBatch(from, to, this.precision, null);
  }

  /** Adds the batch's Σ w·x·xᵀ to `hessian` (both triangles) and Σ x·(y − p) to `gradient`. */
  private addBatch(
    from: number,
    to: number,
    hessian: Float64Array,
    gradient: Float64Array | null,
  ): void {
    const { k, design } = this;
    const { width, col, val, y } = design;
    for (let i = from; i < to; i += 1) {
      const p = 1 / (1 + Math.exp(-linearPredictor(design, this.theta, i)));
      const w = p * (1 - p);
      const base = i * width;
      for (let a = 0; a < width; a += 1) {
        const ca = col[base + a];
        if (ca < 0) continue;
        if (gradient !== null) gradient[ca] += (y[i] - p) * val[base + a];
        for (let b = 0; b < width; b += 1) {
          const cb = col[base + b];
          if (cb >= 0) hessian[ca * k + cb] += w * val[base + a] * val[base + b];
        }
      }
    }
  }
}
