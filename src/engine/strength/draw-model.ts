/**
 * Win, draw and loss probabilities from the joint model's linear predictor
 * (docs/ratings.md#win-draw-and-loss): an ordered logistic model (McCullagh 1980, "Regression
 * models for ordinal data") with cut-points symmetric about 0, so swapping the sides swaps win
 * and loss: P(win) = σ(κη − c), P(loss) = σ(−κη − c), P(draw) the rest. κ and c are fitted by
 * maximum likelihood to the results of the games the model was fitted on.
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

function logLikelihood(
  model: DrawModel,
  eta: ArrayLike<number>,
  result: ArrayLike<number>,
): number {
  const step = Math.max(1, Math.ceil(eta.length / MAX_FIT_GAMES));
  let sum = 0;
  for (let i = 0; i < eta.length; i += step) {
    const p = resultProbabilities(model, eta[i]);
    const q = result[i] === 1 ? p.win : result[i] === 0 ? p.loss : p.draw;
    sum += Math.log(Math.max(q, 1e-12));
  }
  return sum;
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
 * golden-section searches (the log-likelihood is concave in each).
 */
export function fitDrawModel(eta: ArrayLike<number>, result: ArrayLike<number>): DrawModel {
  let model: DrawModel = { kappa: 1, cut: 0.1 };
  if (eta.length === 0) return model;
  for (let round = 0; round < 3; round += 1) {
    const kappa = goldenMax((k) => logLikelihood({ ...model, kappa: k }, eta, result), 0, 8);
    model = { ...model, kappa };
    const cut = goldenMax((c) => logLikelihood({ ...model, cut: c }, eta, result), 0, 6);
    model = { ...model, cut };
    throwIfCancelled();
  }
  return model;
}
