/**
 * forecast-accuracy (docs/ratings.md#forecast-accuracy): how well four models forecast the games
 * the common filter picks, each game forecast only from the games of earlier events (backtest.ts),
 * scored by Brier, log loss, accuracy and a reliability table (forecast-scores.ts); and the same
 * forecasts one row per game and model, for the CSV anyone can recompute every figure from.
 */
import { dayString } from '../../domain/calendar-day.ts';
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { EMPTY_WARNING } from '../engine-result.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveScope, sampleOf } from '../filter.ts';
import type { CommonFilter, Scope } from '../filter.ts';
import { FORECAST_MODELS, runBacktest } from './backtest.ts';
import type { Backtest, ForecastModel } from './backtest.ts';
import { ScoreAccumulator } from './forecast-scores.ts';
import type { ModelScores } from './forecast-scores.ts';
import { scopeRows } from './scope-rows.ts';
import { strengthData } from './strength-games.ts';

export interface ModelAccuracy extends ModelScores {
  model: ForecastModel;
}

export interface ForecastAccuracyData {
  models: ModelAccuracy[];
  /** What the forecasts are scored against: side A's score share, or its result. */
  outcome: 'score-share' | 'result';
  /** Refits of each fitted model over the system (one per event start day with earlier games). */
  refits: number;
}

const backtests = new WeakMap<Snapshot, Map<number, Backtest>>();

/**
 * The backtest of every modelled game of a system, once per snapshot (data version): every
 * forecast is fitted to all of the system's earlier games whatever the filter, so a filter only
 * picks rows of it.
 */
export function systemBacktest(snapshot: Snapshot, system: number): Backtest {
  let bySystem = backtests.get(snapshot);
  if (bySystem === undefined) backtests.set(snapshot, (bySystem = new Map()));
  let backtest = bySystem.get(system);
  if (backtest === undefined) {
    const games = strengthData(snapshot).systems[system];
    const every = new Int32Array(games.count);
    for (let r = 0; r < every.length; r += 1) every[r] = r;
    backtest = runBacktest(games, every);
    bySystem.set(system, backtest);
  }
  return backtest;
}

/** The filter's rows (ascending) and the system's backtest they index. */
function filteredBacktest(
  snapshot: Snapshot,
  filter: CommonFilter,
): { backtest: Backtest; rows: Int32Array; scope: Scope } {
  const scope = resolveScope(snapshot, filter);
  const { rows } = scopeRows(snapshot, scope);
  return { backtest: systemBacktest(snapshot, scope.system), rows, scope };
}

/** Each model's scores over the filter's games (docs/ratings.md#forecast-accuracy). */
export function forecastAccuracy(
  snapshot: Snapshot,
  filter: CommonFilter,
): EngineResult<ForecastAccuracyData> {
  const { backtest, rows, scope } = filteredBacktest(snapshot, filter);
  const { games } = backtest;
  const models = FORECAST_MODELS.map((model): ModelAccuracy => {
    const acc = new ScoreAccumulator();
    const forecast = backtest.forecasts[model];
    for (const r of rows) acc.add(forecast[r], games.outcome[r], games.result[r]);
    return { model, ...acc.result() };
  });
  return {
    data: {
      models,
      outcome: games.scoreShare ? 'score-share' : 'result',
      refits: backtest.refits,
    },
    filter,
    sample: sampleOf(snapshot, scope),
    warnings: rows.length === 0 ? [EMPTY_WARNING] : [],
  };
}

/** One CSV row: a game, a model, its forecast of player 1's expected score and the outcome. */
export interface ForecastAccuracyRow {
  /** Null where the caller cannot name the game (the snapshot keeps no game ids). */
  gameId: string | null;
  eventId: string;
  date: string;
  player1: string;
  player2: string;
  faction1: string | null;
  faction2: string | null;
  model: ForecastModel;
  expected1: number;
  outcome1: number;
}

/** The CSV's columns, in order. */
export const FORECAST_ACCURACY_COLUMNS = [
  'gameId',
  'eventId',
  'date',
  'player1',
  'player2',
  'faction1',
  'faction2',
  'model',
  'expected1',
  'outcome1',
] as const satisfies readonly (keyof ForecastAccuracyRow)[];

/**
 * The backtest's forecasts one row per game and model, games in rating order
 * (docs/ratings.md#forecast-accuracy); `gameId` names a game by its snapshot index; `page` picks
 * the filter's games from `offset`, at most `limit` of them (docs/http-api.md#downloads).
 */
export function* forecastAccuracyRows(
  snapshot: Snapshot,
  filter: CommonFilter,
  gameId: (game: number) => string | null = () => null,
  page: { offset: number; limit: number } = { offset: 0, limit: Number.POSITIVE_INFINITY },
): Generator<ForecastAccuracyRow> {
  const { backtest, rows } = filteredBacktest(snapshot, filter);
  const { games, forecasts } = backtest;
  const factionId = (f: number): string | null => (f < 0 ? null : snapshot.factions[f].id);
  const end = Math.min(rows.length, page.offset + page.limit);
  for (let i = page.offset; i < end; i += 1) {
    // A game's four rows cost microseconds, not the nanoseconds of a rating step.
    throwIfCancelledEvery(i, 1024);
    const r = rows[i];
    const g = games.game[r];
    const base = {
      gameId: gameId(g),
      eventId: snapshot.events.ids[games.event[r]],
      date: dayString(games.day[r]),
      player1: snapshot.players[snapshot.player[2 * g]],
      player2: snapshot.players[snapshot.player[2 * g + 1]],
      faction1: factionId(snapshot.faction[2 * g]),
      faction2: factionId(snapshot.faction[2 * g + 1]),
      outcome1: games.outcome[r],
    };
    for (const model of FORECAST_MODELS) {
      yield { ...base, model, expected1: forecasts[model][r] };
    }
  }
}
