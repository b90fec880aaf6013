/**
 * The rolling-origin backtest of the forecasts (docs/ratings.md#forecast-accuracy; Tashman 2000,
 * "Out-of-sample tests of forecasting accuracy"): the scored games are taken day by day, and the
 * games of each event start day are forecast by models fitted to the games of events that
 * started earlier only, so no game's result reaches its own forecast. Each refit starts from the
 * previous one (warm start), which keeps Newton to a step or two per day; or, the default, the
 * fit is updated day by day (sequential-logistic.ts), each day's games taken in after they have
 * been forecast.
 */
import { throwIfCancelled } from '../cancellation.ts';
import { JOINT_TERMS, fitPrefix, jointProblem, logit } from './joint-model.ts';
import type { JointFit, JointFitOptions, JointProblem } from './joint-model.ts';
import { expit, predictJoint } from './joint-prediction.ts';
import { linearPredictor } from './penalised-logistic.ts';
import { SequentialLogistic } from './sequential-logistic.ts';
import type { StrengthGames } from './strength-games.ts';

/** The four models of the accuracy report (docs/ratings.md#forecast-accuracy). */
export const FORECAST_MODELS = ['coin', 'faction', 'rating', 'joint'] as const;
export type ForecastModel = (typeof FORECAST_MODELS)[number];

/** Refit options of the backtest: few Newton steps, as each fit starts from the last. */
export const BACKTEST_FIT: Readonly<JointFitOptions> = Object.freeze({
  maxIterations: 4,
  tolerance: 1e-4,
});

export interface Backtest {
  readonly games: StrengthGames;
  /** The scored rows of `games`, in rating order. */
  readonly rows: Int32Array;
  /** Per model, side A's forecast of each scored row. */
  readonly forecasts: Readonly<Record<ForecastModel, Float64Array>>;
  /** Updates of each fitted model (one per event start day with earlier games). */
  readonly refits: number;
  readonly milliseconds: number;
}

/** The first row at or after `from` whose event starts on `day` or later (days ascend). */
function pastEnd(games: StrengthGames, from: number, day: number): number {
  let end = from;
  while (end < games.count && games.day[end] < day) end += 1;
  return end;
}

/**
 * Side A's forecast of each scored row by a model of `fitOptions` refitted at every event start
 * day on the earlier days' games (the rolling origin).
 */
export function rollingForecasts(
  games: StrengthGames,
  rows: Int32Array,
  fitOptions: JointFitOptions,
): { forecast: Float64Array; refits: number } {
  const forecast = new Float64Array(rows.length);
  const problem = jointProblem(games, fitOptions.terms, fitOptions.scales);
  const steps = { ...BACKTEST_FIT, ...fitOptions };
  let model: JointFit | undefined;
  let fittedEnd = -1;
  let end = 0;
  let refits = 0;
  for (let i = 0; i < rows.length; i += 1) {
    const r = rows[i];
    end = pastEnd(games, end, games.day[r]);
    if (end !== fittedEnd) {
      model = fitPrefix(problem, end, model, steps);
      fittedEnd = end;
      refits += 1;
      throwIfCancelled();
    }
    const x = logit(games.expected[r]);
    const p = predictJoint(model!, games.factionA[r], games.factionB[r], games.window[r], x, false);
    forecast[i] = expit(p.eta);
  }
  return { forecast, refits };
}

/**
 * Side A's forecast of each scored row by a model of `fitOptions` updated sequentially
 * (sequential-logistic.ts): each event start day's games are taken in as one batch after they
 * have been forecast, so a forecast again reads only earlier days.
 */
export function sequentialForecasts(
  games: StrengthGames,
  rows: Int32Array,
  fitOptions: JointFitOptions,
  steps = 1,
): { forecast: Float64Array; refits: number } {
  return updatedForecasts(jointProblem(games, fitOptions.terms, fitOptions.scales), rows, steps);
}

/**
 * The sequential forecasts of `problem`; with `withoutSkill`, its skill coefficient held at 0,
 * which is the model without the skill term (the faction-only model) on the joint model's design.
 */
function updatedForecasts(
  problem: JointProblem,
  rows: Int32Array,
  steps: number,
  withoutSkill = false,
): { forecast: Float64Array; refits: number } {
  const { games, design, layout } = problem;
  let prior = problem.prior;
  const fixed = new Uint8Array(layout.columns);
  if (withoutSkill && layout.skillColumn >= 0) {
    const mean = Float64Array.from(prior.mean);
    mean[layout.skillColumn] = 0;
    prior = { mean, precision: prior.precision };
    fixed[layout.skillColumn] = 1;
  }
  const state = new SequentialLogistic(design, prior, layout.pairMask(), fixed);
  const forecast = new Float64Array(rows.length);
  let added = 0;
  let refits = 0;
  for (let i = 0; i < rows.length; i += 1) {
    const r = rows[i];
    while (added < games.count && games.day[added] < games.day[r]) {
      let end = added;
      while (end < games.count && games.day[end] === games.day[added]) end += 1;
      state.update(added, end, steps);
      added = end;
      refits += 1;
      throwIfCancelled();
    }
    forecast[i] = expit(linearPredictor(design, state.theta, r));
  }
  return { forecast, refits };
}

/** Every model's rolling forecasts of the scored rows (docs/ratings.md#forecast-accuracy). */
export function runBacktest(
  games: StrengthGames,
  rows: Int32Array,
  options: JointFitOptions = {},
): Backtest {
  const started = performance.now();
  // Sequential updates score as per-day refits do on T9A (docs/ratings.md#how-long-it-takes)
  // at a cost that does not grow with the games before each day.
  // Both fitted models read one design: the faction-only model is the joint one with its
  // skill coefficient held at 0.
  const problem = jointProblem(games, JOINT_TERMS, options.scales);
  const joint = updatedForecasts(problem, rows, 1);
  const faction = updatedForecasts(problem, rows, 1, true);
  const rating = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) rating[i] = games.expected[rows[i]];
  return {
    games,
    rows,
    forecasts: {
      coin: new Float64Array(rows.length).fill(0.5),
      faction: faction.forecast,
      rating,
      joint: joint.forecast,
    },
    refits: joint.refits,
    milliseconds: performance.now() - started,
  };
}
