/**
 * How well a rating method predicted the games it rated (docs/ratings.md "Prediction
 * quality"): each game is forecast from the ratings both players had before it (Glicko-2: the
 * period's start, Elo: the game's), and scored by the Brier score (Brier 1950), the log loss and
 * the accuracy on decided games, beside a coin flip's figures.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import { methodOf } from './methods/index.ts';
import type { RankingParams } from './methods/index.ts';
import type { RankingFacts } from './ranking-facts.ts';

/** Forecast scores of a set of games. */
export interface ForecastScores {
  /** Mean squared difference between the forecast and the score (0 perfect, 0.25 coin flip). */
  brier: number;
  /** Mean negative log-likelihood of the scores (natural log; ln 2 ≈ 0.693 coin flip). */
  logLoss: number;
  /** Share of decided games whose winner had the higher forecast (a tie counts half). */
  accuracy: number | null;
}

export interface PredictionQuality extends ForecastScores {
  /** Games scored: rated games in scope with one point between the sides (double losses out). */
  games: number;
  /** Of those, games with a winner (the base of accuracy). */
  decidedGames: number;
  /** The same figures for a forecast of one half every game. */
  coinFlip: ForecastScores;
}

const COIN_FLIP: ForecastScores = Object.freeze({ brier: 0.25, logLoss: Math.LN2, accuracy: 0.5 });
/** Keeps a forecast of exactly 0 or 1 from an infinite log loss. */
const CLAMP = 1e-12;

/**
 * The prediction quality of `params.method` over the rated games `order` (processing order);
 * null for a method that forecasts nothing (points), and when no game can be scored.
 */
export function predictionQuality(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  asOf?: string,
): PredictionQuality | null {
  const { method, own } = methodOf(params);
  if (method.expected === undefined || order.length === 0) return null;
  const { games, forecast } = method.expected.beforeEachGame(facts, order, own, asOf);
  let n = 0;
  let decided = 0;
  let brier = 0;
  let logLoss = 0;
  let correct = 0;
  for (let i = 0; i < games.length; i += 1) {
    throwIfCancelledEvery(i);
    const g = games[i];
    const a = facts.result[2 * g] / 2;
    if (a + facts.result[2 * g + 1] / 2 !== 1) continue;
    const p = Math.min(1 - CLAMP, Math.max(CLAMP, forecast[i]));
    n += 1;
    brier += (p - a) ** 2;
    logLoss -= a * Math.log(p) + (1 - a) * Math.log(1 - p);
    if (a === 0.5) continue;
    decided += 1;
    if (forecast[i] === 0.5) correct += 0.5;
    else if (forecast[i] > 0.5 === (a === 1)) correct += 1;
  }
  if (n === 0) return null;
  return {
    games: n,
    decidedGames: decided,
    brier: brier / n,
    logLoss: logLoss / n,
    accuracy: decided === 0 ? null : correct / decided,
    coinFlip: { ...COIN_FLIP, accuracy: decided === 0 ? null : 0.5 },
  };
}
