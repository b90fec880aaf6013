/**
 * forecast-accuracy (docs/ratings.md#forecast-accuracy): how well four models forecast the games
 * the common filter picks, each game forecast only from the games of earlier events (backtest.ts),
 * scored by Brier, log loss, accuracy and a reliability table (forecast-scores.ts); and the same
 * forecasts one row per game and model, for the CSV anyone can recompute every figure from.
 */
import { dayString } from '../../domain/calendar-day.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { EMPTY_WARNING } from '../common.ts';
import type { EngineResult } from '../common.ts';
import { resolveScope, sampleOf } from '../filter.ts';
import type { CommonFilter } from '../filter.ts';
import { Lru, cached } from '../ratings/lru.ts';
import { FORECAST_MODELS, runBacktest } from './backtest.ts';
import type { Backtest, ForecastModel } from './backtest.ts';
import { ScoreAccumulator } from './forecast-scores.ts';
import type { ModelScores } from './forecast-scores.ts';
import { scopeRows } from './scope-rows.ts';

export interface ModelAccuracy extends ModelScores {
  model: ForecastModel;
}

export interface ForecastAccuracyData {
  models: ModelAccuracy[];
  /** What the forecasts are scored against: side A's score share, or its result. */
  outcome: 'score-share' | 'result';
  /** Refits of each fitted model (one per event start day with new earlier games). */
  refits: number;
}

const backtests = new WeakMap<Snapshot, Lru<Backtest>>();

/** The backtest of the filter's games, cached per snapshot (data version) and filter. */
export function backtestOf(snapshot: Snapshot, filter: CommonFilter): Backtest {
  let lru = backtests.get(snapshot);
  if (lru === undefined) backtests.set(snapshot, (lru = new Lru(8)));
  return cached(lru, JSON.stringify(filter), () => {
    const { games, rows } = scopeRows(snapshot, resolveScope(snapshot, filter));
    return runBacktest(games, rows);
  });
}

/** Each model's scores over the filter's games (docs/ratings.md#forecast-accuracy). */
export function forecastAccuracy(
  snapshot: Snapshot,
  filter: CommonFilter,
): EngineResult<ForecastAccuracyData> {
  const scope = resolveScope(snapshot, filter);
  const backtest = backtestOf(snapshot, filter);
  const { games, rows } = backtest;
  const models = FORECAST_MODELS.map((model): ModelAccuracy => {
    const acc = new ScoreAccumulator();
    const forecast = backtest.forecasts[model];
    for (let i = 0; i < rows.length; i += 1) {
      acc.add(forecast[i], games.outcome[rows[i]], games.result[rows[i]]);
    }
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
 * (docs/ratings.md#forecast-accuracy); `gameId` names a game by its snapshot index.
 */
export function* forecastAccuracyRows(
  snapshot: Snapshot,
  filter: CommonFilter,
  gameId: (game: number) => string | null = () => null,
): Generator<ForecastAccuracyRow> {
  const { games, rows, forecasts } = backtestOf(snapshot, filter);
  const factionId = (f: number): string | null => (f < 0 ? null : snapshot.factions[f].id);
  for (let i = 0; i < rows.length; i += 1) {
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
      yield { ...base, model, expected1: forecasts[model][i] };
    }
  }
}
