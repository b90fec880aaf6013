/**
 * GET /api/forecast-accuracy.csv: every forecast of the forecast-accuracy backtest, one row per
 * game and model, so anyone can recompute its figures (docs/ratings.md#forecast-accuracy).
 */
import { Type } from 'typebox';
import { CSV_MAX_PAGE_GAMES, CSV_PAGE_GAMES } from '../../engine/strength/forecast-accuracy-csv.ts';
import { CommonFilterProperties } from '../schemas/common-filter.ts';
import { statsDownload } from './stats-download.ts';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export const ForecastAccuracyCsvQuery = Type.Object(
  {
    ...CommonFilterProperties,
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000_000,
        default: 0,
        description: "Games to skip, in the backtest's order: the page starts at this game",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CSV_MAX_PAGE_GAMES,
        default: CSV_PAGE_GAMES,
        description: `Games in the page, at most ${CSV_MAX_PAGE_GAMES.toLocaleString('en')} (four rows each); a page with fewer games than this is the last`,
      }),
    ),
  },
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
  description: `RFC 4180 CSV, header first, one row per game and model: gameId (the game's id in the data, as the export names it), eventId, date (the event's start, YYYY-MM-DD), player1, player2, faction1, faction2 (empty when unknown), model (coin, faction, rating, joint), expected1 (player 1's forecast expected score), outcome1 (their score share, or win 1, draw 0.5, loss 0). The mean of (expected1 − outcome1)² over a model's rows is its brier in POST /api/forecast-accuracy with the same filter. One answer is one page: limit games (default ${CSV_PAGE_GAMES.toLocaleString('en')}, at most ${CSV_MAX_PAGE_GAMES.toLocaleString('en')}) from offset (default 0), in the backtest's order; a page with fewer than limit games is the last, so offset=0, limit, 2×limit, … reads them all. A HEAD answers the headers without computing anything.`,
  query: ForecastAccuracyCsvQuery,
  contentType: CSV_CONTENT_TYPE,
  fileName: 'forecast-accuracy.csv',
  task: 'forecastAccuracyCsv',
  args: (filter, query) => [
    filter,
    { offset: Number(query.offset ?? 0), limit: Number(query.limit ?? CSV_PAGE_GAMES) },
  ],
});
