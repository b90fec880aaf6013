/**
 * forecast-accuracy.csv (docs/ratings.md#forecast-accuracy): the backtest's forecasts one row per
 * game and model as RFC 4180 text, made on an engine thread, so anyone can recompute every figure
 * of POST /api/forecast-accuracy. A game is named by the store's own id, as the export names it, so
 * that a row joins the data it was computed from. One answer
 * is one page of the filter's games (docs/operations.md#limits): its size is bounded whatever the
 * data's, so neither the thread that writes it nor the serving thread holds more than a page.
 */
import { csvLine } from '../../domain/csv-record.ts';
import { gameIdOf } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { EMPTY_WARNING } from '../engine-result.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveScope, sampleOf } from '../filter.ts';
import type { CommonFilter } from '../filter.ts';
import { FORECAST_ACCURACY_COLUMNS, forecastAccuracyRows } from './forecast-accuracy.ts';

/** Games a page of the CSV holds when the request names no limit (docs/http-api.md#downloads). */
export const CSV_PAGE_GAMES = 10_000;
/** The most games one page may hold: four rows each (docs/operations.md#limits). */
export const CSV_MAX_PAGE_GAMES = 50_000;

/** Which of the filter's games, in rating order, one answer holds (docs/http-api.md#downloads). */
export interface CsvPage {
  /** Games skipped, from the first. */
  readonly offset: number;
  /** Games at most. */
  readonly limit: number;
}

/**
 * The CSV text of one page of the filter's backtest rows, header first
 * (docs/ratings.md#forecast-accuracy, docs/http-api.md#downloads).
 */
export function forecastAccuracyCsv(
  snapshot: Snapshot,
  filter: CommonFilter,
  page: CsvPage = { offset: 0, limit: CSV_PAGE_GAMES },
): EngineResult<string> {
  const gameId = (g: number) => gameIdOf(snapshot, g);
  const lines = [csvLine(FORECAST_ACCURACY_COLUMNS)];
  for (const row of forecastAccuracyRows(snapshot, filter, gameId, page)) {
    lines.push(csvLine(FORECAST_ACCURACY_COLUMNS.map((c) => row[c])));
  }
  const sample = sampleOf(snapshot, resolveScope(snapshot, filter));
  return {
    data: `${lines.join('\r\n')}\r\n`,
    filter,
    sample,
    warnings: lines.length === 1 ? [EMPTY_WARNING] : [],
  };
}
