/**
 * Penalised (Gaussian-prior, ridge) maximum likelihood of a logistic model on outcomes in [0, 1]
 * (docs/ratings.md#the-joint-model): the quasi-binomial likelihood of McCullagh & Nelder
 * ("Generalized Linear Models", 2nd ed., §9.2) maximised by Newton's method (equivalently IRLS,
 * §2.5) with step halving, the prior adding its precision to the Hessian (Le Cessie & van
 * Houwelingen 1992, "Ridge estimators in logistic regression"). Each row of the design has a
 * few non-zero entries, so one pass costs rows × entries², and the dense k×k solve k³/6.
 */
import { throwIfCancelled, throwIfCancelledEvery } from '../cancellation.ts';
import { choleskyInPlace, choleskySolve } from './cholesky.ts';

/** A sparse design: row i has `width` (column, value) entries, unused ones with column -1. */
export interface SparseDesign {
  readonly rows: number;
  readonly width: number;
  readonly columns: number;
  readonly col: Int32Array;
  readonly val: Float64Array;
  /** Per row, a fixed part of the linear predictor (0 when absent). */
  readonly offset: Float64Array;
  /** Per row, the outcome in [0, 1] (a score share, or 1 / ½ / 0). */
  readonly y: Float64Array;
}

/** The Gaussian prior of each coefficient: its mean and its precision (1 / variance). */
export interface GaussianPrior {
  readonly mean: Float64Array;
  readonly precision: Float64Array;
}

export interface FitOptions {
  /** Fit on rows [0, rows) only (the backtest's growing past); default all. */
  rows?: number;
  /** Where Newton starts (a previous fit: warm start); default the prior mean. */
  start?: Float64Array;
  maxIterations?: number;
  /** Stop when no coefficient moves by more than this (logit units). */
  tolerance?: number;
}

export interface LogisticFit {
  readonly theta: Float64Array;
  /** Cholesky factor L of the penalised Hessian at theta: covariance = dispersion · (LLᵀ)⁻¹. */
  readonly factor: Float64Array;
  readonly columns: number;
  readonly rows: number;
  readonly iterations: number;
  /** Passes over the rows: one per Newton iteration and one per halved step, plus the first. */
  readonly passes: number;
  readonly converged: boolean;
  /** Pearson dispersion (1/n) Σ (y − p)² / (p(1 − p)) of the quasi-binomial (§9.2.4). */
  readonly dispersion: number;
}

/** The linear predictor of row i at theta. */
export function linearPredictor(design: SparseDesign, theta: Float64Array, i: number): number {
  let eta = design.offset[i];
  const base = i * design.width;
  for (let e = 0; e < design.width; e += 1) {
    const c = design.col[base + e];
    if (c >= 0) eta += design.val[base + e] * theta[c];
  }
  return eta;
}

interface Pass {
  objective: number;
  gradient: Float64Array;
  hessian: Float64Array;
  pearson: number;
}

/** One pass over the rows: penalised log-likelihood, its gradient and its negative Hessian. */
function newtonPass(
  design: SparseDesign,
  prior: GaussianPrior,
  theta: Float64Array,
  rows: number,
): Pass {
  const k = design.columns;
  const { width, col, val, y } = design;
  const gradient = new Float64Array(k);
  const hessian = new Float64Array(k * k);
  let objective = 0;
  let pearson = 0;
  for (let i = 0; i < rows; i += 1) {
    const eta = linearPredictor(design, theta, i);
    // One exponential serves both p = 1/(1 + e^−η) and ln(1 + e^η), without overflow; the
    // log-likelihood y·ln p + (1 − y)·ln(1 − p) is y·η − ln(1 + e^η).
    const e = Math.exp(-Math.abs(eta));
    const p = eta >= 0 ? 1 / (1 + e) : e / (1 + e);
    const w = p * (1 - p);
    const r = y[i] - p;
    objective += y[i] * eta - (Math.max(eta, 0) + Math.log1p(e));
    if (w > 0) pearson += (r * r) / w;
    const base = i * width;
    for (let a = 0; a < width; a += 1) {
      const ca = col[base + a];
      if (ca < 0) continue;
      const va = val[base + a];
      gradient[ca] += r * va;
      // The lower triangle only: the Cholesky factorisation reads no more.
      for (let b = 0; b < width; b += 1) {
        const cb = col[base + b];
        if (cb >= 0 && cb <= ca) hessian[ca * k + cb] += w * va * val[base + b];
      }
    }
    throwIfCancelledEvery(i);
  }
  for (let j = 0; j < k; j += 1) {
    const d = theta[j] - prior.mean[j];
    objective -= 0.5 * prior.precision[j] * d * d;
    gradient[j] -= prior.precision[j] * d;
    hessian[j * k + j] += prior.precision[j];
  }
  return { objective, gradient, hessian, pearson };
}

/**
 * Maximises the penalised quasi-likelihood by Newton's method, halving a step that lowers the
 * objective (Nocedal & Wright, "Numerical Optimization", §3.1 backtracking).
 */
export function fitPenalisedLogistic(
  design: SparseDesign,
  prior: GaussianPrior,
  options: FitOptions = {},
): LogisticFit {
  const k = design.columns;
  const rows = Math.min(options.rows ?? design.rows, design.rows);
  const maxIterations = options.maxIterations ?? 25;
  const tolerance = options.tolerance ?? 1e-6;
  let theta = Float64Array.from(options.start ?? prior.mean);
  let pass = newtonPass(design, prior, theta, rows);
  let passes = 1;
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations += 1;
    if (!choleskyInPlace(pass.hessian, k)) break;
    const step = choleskySolve(pass.hessian, k, Float64Array.from(pass.gradient));
    let scale = 1;
    let next = theta.map((t, j) => t + step[j]);
    let nextPass = newtonPass(design, prior, next, rows);
    passes += 1;
    // The objective sums a term per game, so at the optimum a step can seem to lower it by
    // rounding alone (about 1e-10 of it at a million games): halving such a step ten times
    // cost ten passes over the games for nothing.
    const slack = 1e-9 * Math.abs(pass.objective) + 1e-12;
    while (nextPass.objective < pass.objective - slack && scale > 1 / 1024) {
      scale /= 2;
      next = theta.map((t, j) => t + scale * step[j]);
      nextPass = newtonPass(design, prior, next, rows);
      passes += 1;
    }
    let largest = 0;
    for (let j = 0; j < k; j += 1) largest = Math.max(largest, Math.abs(scale * step[j]));
    theta = next;
    pass = nextPass;
    throwIfCancelled();
    if (largest < tolerance) {
      converged = true;
      break;
    }
  }
  const factor = pass.hessian;
  if (!choleskyInPlace(factor, k))
    throw new Error('the penalised Hessian is not positive definite');
  return {
    theta,
    factor,
    columns: k,
    rows,
    iterations,
    passes,
    converged,
    dispersion: rows > 0 ? pass.pearson / rows : 1,
  };
}
