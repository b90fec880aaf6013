/**
 * POST /api/forecast-accuracy: a rolling-origin backtest of four forecast models over the games
 * the common filter picks (docs/ratings.md#forecast-accuracy).
 */
import { Type } from 'typebox';
import { statsRoute } from './stats-route.ts';
import {
  CommonFilterProperties,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import { DEFAULT_SAMPLE, Envelope } from '../schemas/envelope.ts';

export const ForecastAccuracyBody = Type.Object(
  { ...CommonFilterProperties },
  {
    additionalProperties: false,
    description: 'The common filter: the games scored (each forecast from all earlier events)',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ minParticipants: 8 }],
  },
);

export const ForecastModelSchema = Type.Union(
  [Type.Literal('coin'), Type.Literal('faction'), Type.Literal('rating'), Type.Literal('joint')],
  {
    description:
      'coin: ½ always; faction: the joint model without its skill term; rating: the Glicko-2 forecast from the ratings before the event; joint: skill, faction and matchup together',
  },
);

const CalibrationBinSchema = Type.Object(
  {
    from: Type.Number({ description: 'The bin takes forecasts from this value' }),
    to: Type.Number({ description: 'up to this one, excluded (the last bin includes 1)' }),
    games: Type.Integer({ description: 'Games whose forecast falls in the bin' }),
    meanForecast: Nullable(
      Type.Number({ description: 'Mean forecast in the bin; null when empty' }),
    ),
    meanOutcome: Nullable(Type.Number({ description: 'Mean outcome in the bin; null when empty' })),
    interval: Nullable(
      Type.Object(
        {
          low: Type.Number({ description: 'Lower bound of the 95% interval' }),
          high: Type.Number({ description: 'Upper bound of the 95% interval' }),
        },
        { description: '95% Wilson interval of meanOutcome; null when empty' },
      ),
    ),
  },
  { description: 'One of ten forecast bins of width 0.1' },
);

const ModelSchema = Type.Object(
  {
    model: ForecastModelSchema,
    games: Type.Integer({ description: 'Games scored' }),
    decidedGames: Type.Integer({ description: "Of those, games with a winner (accuracy's base)" }),
    brier: Nullable(
      Type.Number({
        description:
          'Brier score: mean (forecast − outcome)², the outcome a score share where the system has one, else win 1, draw ½, loss 0; lower is better; null without games',
      }),
    ),
    logLoss: Nullable(
      Type.Number({
        description: 'Mean −[y ln p + (1 − y) ln(1 − p)]; lower is better; null without games',
      }),
    ),
    accuracy: Nullable(
      Type.Number({
        description:
          'Share of decided games whose winner had the forecast above ½ (a forecast of exactly ½ counts half); null without decided games',
      }),
    ),
    calibration: Type.Array(CalibrationBinSchema, {
      description: 'Reliability table: forecast against outcome in ten bins, lowest first',
    }),
  },
  { description: "One model's scores" },
);

export const ForecastAccuracyResponse = Envelope(
  Type.Object(
    {
      models: Type.Array(ModelSchema, {
        description: 'The four models, in the order coin, faction, rating, joint',
      }),
      outcome: Type.Union([Type.Literal('score-share'), Type.Literal('result')], {
        description: "What forecasts are scored against: player 1's score share, or their result",
      }),
      refits: Type.Integer({
        description:
          'Refits of each fitted model over the system (one per event start day with earlier games)',
      }),
    },
    { description: 'How well each model forecast the games in scope' },
  ),
  Type.Object({ ...NormalisedFilterProperties }, { description: 'The filter applied' }),
  DEFAULT_SAMPLE,
);

/** The statistics route POST /api/forecast-accuracy. */
export const forecastAccuracyRoute = statsRoute({
  path: '/api/forecast-accuracy',
  summary: 'How well the forecasts hold up: four models backtested',
  description:
    'A rolling-origin backtest over the games the common filter picks, each game forecast only from the games of earlier events, for four models (coin, faction, rating, joint): Brier score, log loss, accuracy on decided games and a calibration table. GET /api/forecast-accuracy.csv gives every forecast, one row per game and model.',
  body: ForecastAccuracyBody,
  response: ForecastAccuracyResponse,
  filterOf: (body) => body,
  task: 'forecastAccuracy',
  args: (_snapshot, filter) => [filter],
});
