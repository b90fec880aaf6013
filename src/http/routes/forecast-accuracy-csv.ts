/**
 * GET /api/forecast-accuracy.csv: every forecast of the forecast-accuracy backtest, one row per
 * game and model, so anyone can recompute its figures (docs/ratings.md#forecast-accuracy).
 */
import { Type } from 'typebox';
import { CommonFilterProperties } from '../schemas/common-filter.ts';
import { statsDownload } from './stats-download.ts';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export const ForecastAccuracyCsvQuery = Type.Object(
  { ...CommonFilterProperties },
  {
    additionalProperties: false,
    description:
      'The common filter of POST /api/forecast-accuracy as query parameters; repeat a parameter for a list (tiers=major&tiers=local)',
    examples: [{ minParticipants: 8 }],
  },
);

/** The download GET /api/forecast-accuracy.csv. */
export const forecastAccuracyCsvDownload = statsDownload({
  path: '/api/forecast-accuracy.csv',
  summary: 'Every backtest forecast as CSV',
  description:
    "RFC 4180 CSV, header first, one row per game and model: gameId (the event id and the game's position among its games in the data, \"<eventId>#<n>\"), eventId, date (the event's start, YYYY-MM-DD), player1, player2, faction1, faction2 (empty when unknown), model (coin, faction, rating, joint), expected1 (player 1's forecast expected score), outcome1 (their score share, or win 1, draw 0.5, loss 0). The mean of (expected1 − outcome1)² over a model's rows is its brier in POST /api/forecast-accuracy with the same filter.",
  query: ForecastAccuracyCsvQuery,
  contentType: CSV_CONTENT_TYPE,
  fileName: 'forecast-accuracy.csv',
  task: 'forecastAccuracyCsv',
  args: (filter) => [filter],
});
