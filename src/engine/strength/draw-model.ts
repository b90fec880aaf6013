/**
 * Win, draw and loss probabilities from the joint model's linear predictor
 * (docs/ratings.md#win-draw-and-loss): an ordered logistic model (McCullagh 1980, "Regression
 * models for ordinal data") with cut-points symmetric about 0, so swapping the sides swaps win
 * and loss: P(win) = σ(κη − c), P(loss) = σ(−κη − c), P(draw) the rest. κ and c are fitted by
 * penalised maximum likelihood to the results of the games the model was fitted on, with a
 * Gaussian prior on ln κ centred on 0 (docs/ratings.md#win-draw-and-loss): η is fitted to the
 * same games, so on few games it separates their results and plain maximum likelihood drives
 * κ to its bound and P(win) to 1.
 */
import { throwIfCancelled } from '../cancellation.ts';

export interface DrawModel {
  /** How steeply the result follows the predictor (the score share is flatter than the result). */
  kappa: number;
  /** The half-width of the draw band on the predictor's scale (0: no draws). */
  cut: number;
}

export interface ResultProbabilities {
  win: number;
  draw: number;
  loss: number;
}

function expit(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** P(win / draw / loss) of side A at predictor eta. */
export function resultProbabilities(model: DrawModel, eta: number): ResultProbabilities {
  const win = expit(model.kappa * eta - model.cut);
  const loss = expit(-model.kappa * eta - model.cut);
  return { win, draw: Math.max(0, 1 - win - loss), loss };
}

/** At most this many games enter the fit (evenly spaced): two numbers need no more. */
const MAX_FIT_GAMES = 20_000;

/**
 * The prior's sd on ln κ: κ = 1 reads a score share's logit as the result's, and the data move
 * it only as far as they can carry it (docs/ratings.md#win-draw-and-loss).
 */
export const KAPPA_PRIOR_SD = 0.5;

/** Bounds of the searches: κ in [1/8, 8], c in [0, 6] on the predictor's scale. */
const KAPPA_RANGE = [1 / 8, 8] as const;
const CUT_RANGE = [0, 6] as const;

/** The log-likelihood of the results plus the log prior density of ln κ (up to a constant). */
function logPosterior(
  model: DrawModel,
  eta: ArrayLike<number>,
  result: ArrayLike<number>,
  priorSd: number,
): number {
  const step = Math.max(1, Math.ceil(eta.length / MAX_FIT_GAMES));
  let sum = 0;
  for (let i = 0; i < eta.length; i += step) {
    const p = resultProbabilities(model, eta[i]);
    const q = result[i] === 1 ? p.win : result[i] === 0 ? p.loss : p.draw;
    sum += Math.log(Math.max(q, 1e-12));
  }
  const z = Math.log(model.kappa) / priorSd;
  // The subsample stands for every game, so the prior weighs against all of them.
  return sum * step - (z * z) / 2;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;

/** The maximiser of f on [lo, hi] by golden-section search (Kiefer 1953), f unimodal. */
function goldenMax(f: (x: number) => number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  let c = b - GOLDEN * (b - a);
  let d = a + GOLDEN * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < 30; i += 1) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - GOLDEN * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + GOLDEN * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

/**
 * Fits κ and c to side A's results (1, ½, 0) at the predictors `eta`, by alternating
 * golden-section searches (the log-posterior is unimodal in each; κ on the log scale).
 * `priorSd` Infinity gives plain maximum likelihood (the benchmark's comparison).
 */
export function fitDrawModel(
  eta: ArrayLike<number>,
  result: ArrayLike<number>,
  priorSd = KAPPA_PRIOR_SD,
): DrawModel {
  let model: DrawModel = { kappa: 1, cut: 0.1 };
  if (eta.length === 0) return model;
  for (let round = 0; round < 3; round += 1) {
    const [lo, hi] = KAPPA_RANGE.map(Math.log);
    const lnKappa = goldenMax(
      (k) => logPosterior({ ...model, kappa: Math.exp(k) }, eta, result, priorSd),
      lo,
      hi,
    );
    model = { ...model, kappa: Math.exp(lnKappa) };
    const cut = goldenMax(
      (c) => logPosterior({ ...model, cut: c }, eta, result, priorSd),
      ...CUT_RANGE,
    );
    model = { ...model, cut };
    throwIfCancelled();
  }
  return model;
}
