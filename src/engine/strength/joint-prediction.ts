/**
 * A fitted joint model's forecast of one game (docs/ratings.md#the-joint-model): its linear
 * predictor split into the skill, faction and matchup parts (logit scale, summing to the
 * forecast's logit) and the variance of that sum from the coefficients' covariance, the
 * quasi-binomial dispersion times the inverse penalised Hessian (McCullagh & Nelder §9.2).
 */
import { choleskyQuadratic } from './cholesky.ts';
import type { JointFit } from './joint-model.ts';
import { ROW_WIDTH, rowEntries } from './joint-model.ts';

export interface ForecastParts {
  /** β·logit(E_glicko): what the players' ratings say. */
  skill: number;
  /** (a_A + d_A,w) − (a_B + d_B,w): the armies' strengths in the window. */
  faction: number;
  /** m_A,B: the pair's own effect. */
  matchup: number;
}

export interface JointPrediction {
  /** The logit of side A's expected score: skill + faction + matchup. */
  eta: number;
  parts: ForecastParts;
  /** The variance of eta from the coefficients' uncertainty. */
  variance: number;
}

/** The logistic function. */
export function expit(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Side A's forecast under `model` for factions a and b (system faction indexes, -1 unknown) in
 * window `window`, with `skillX` the logit of today's Glicko-2 forecast.
 */
export function predictJoint(
  model: JointFit,
  a: number,
  b: number,
  window: number,
  skillX: number,
  withVariance = true,
): JointPrediction {
  const { layout, fit } = model;
  const col = new Int32Array(ROW_WIDTH);
  const val = new Float64Array(ROW_WIDTH);
  rowEntries(layout, a, b, window, layout.terms.skill ? skillX : 0, col, val, 0);
  const parts: ForecastParts = { skill: 0, faction: 0, matchup: 0 };
  const contrast = withVariance ? new Float64Array(layout.columns) : null;
  for (let e = 0; e < ROW_WIDTH; e += 1) {
    const c = col[e];
    if (c < 0) continue;
    const term = val[e] * fit.theta[c];
    if (c === layout.skillColumn) parts.skill += term;
    else if (c >= layout.pairStart && c < layout.windowStart) parts.matchup += term;
    else parts.faction += term;
    if (contrast !== null) contrast[c] += val[e];
  }
  const eta = parts.skill + parts.faction + parts.matchup;
  const variance =
    contrast === null ? 0 : fit.dispersion * choleskyQuadratic(fit.factor, fit.columns, contrast);
  return { eta, parts, variance };
}

/** The variance of c·θ for a contrast c over the model's columns. */
export function contrastVariance(model: JointFit, contrast: Float64Array): number {
  return model.fit.dispersion * choleskyQuadratic(model.fit.factor, model.fit.columns, contrast);
}
