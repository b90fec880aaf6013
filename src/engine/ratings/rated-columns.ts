/**
 * Rated games as columns, the input of the Glicko-2 and Elo runners: one typed array per field
 * instead of one object per game, so a run over a million games allocates five arrays.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { RankingFacts } from './ranking-facts.ts';

/** One game between two known players, already in processing order. */
export interface RatedGame {
  /** Dense player indexes (0..players-1). */
  a: number;
  b: number;
  /** Each side's score: 1 win, 0.5 draw, 0 loss (a double loss gives both 0). */
  scoreA: number;
  scoreB: number;
  /** Rating period index; non-decreasing along the sequence. */
  period: number;
}

/** Game k of a run is (a[k], b[k], scoreA[k], scoreB[k], period[k]), as a RatedGame. */
export interface RatedColumns {
  readonly length: number;
  /** Dense player indexes (0..players-1). */
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** Each side's score: 1 win, 0.5 draw, 0 loss (a double loss gives both 0). */
  readonly scoreA: Float64Array;
  readonly scoreB: Float64Array;
  /** Rating period index; non-decreasing along the sequence (Glicko-2 only). */
  readonly period: Float64Array;
}

/**
 * The games `order` of `facts` as columns, in that order; `eventPeriod` gives the rating period
 * of each event index (all periods 0 without it).
 */
export function ratedColumns(
  facts: RankingFacts,
  order: ArrayLike<number>,
  eventPeriod?: ArrayLike<number>,
): RatedColumns {
  const n = order.length;
  const columns = emptyColumns(n);
  const { player, result, gameEvent } = facts;
  for (let k = 0; k < n; k += 1) {
    throwIfCancelledEvery(k);
    const g = order[k];
    columns.a[k] = player[2 * g];
    columns.b[k] = player[2 * g + 1];
    columns.scoreA[k] = result[2 * g] / 2;
    columns.scoreB[k] = result[2 * g + 1] / 2;
    if (eventPeriod !== undefined) columns.period[k] = eventPeriod[gameEvent[g]];
  }
  return columns;
}

/** Game records as columns (the runners' record-based entry points). */
export function columnsOfRatedGames(
  games: readonly (Pick<RatedGame, 'a' | 'b' | 'scoreA' | 'scoreB'> & { period?: number })[],
): RatedColumns {
  const columns = emptyColumns(games.length);
  for (let k = 0; k < games.length; k += 1) {
    const game = games[k];
    columns.a[k] = game.a;
    columns.b[k] = game.b;
    columns.scoreA[k] = game.scoreA;
    columns.scoreB[k] = game.scoreB;
    columns.period[k] = game.period ?? 0;
  }
  return columns;
}

function emptyColumns(n: number) {
  return {
    length: n,
    a: new Int32Array(n),
    b: new Int32Array(n),
    scoreA: new Float64Array(n),
    scoreB: new Float64Array(n),
    period: new Float64Array(n),
  };
}
