/**
 * POST /api/faction-strength: each faction's strength after pilot skill beside its raw win rate
 * (docs/statistics.md#faction-strength).
 */
import { Type } from 'typebox';
import { MethodologyEcho, MethodologyProperties, methodologyOf } from '../../domain/methodology.ts';
import { statsRoute } from './stats-route.ts';
import {
  CommonFilterProperties,
  IdArray,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import {
  DEFAULT_SAMPLE,
  Envelope,
  FactionRefSchema,
  MeanIntervalSchema,
  RateSchema,
  WilsonIntervalSchema,
  WinDrawLossProperties,
} from '../schemas/envelope.ts';
import { EstimateSchema } from '../schemas/estimate.ts';

export const FactionStrengthBody = Type.Object(
  {
    ...CommonFilterProperties,
    ...MethodologyProperties(
      'exclude',
      'counts them in games, W/D/L and winRate, each mirror game giving its faction two sides (a win and a loss, or two draws); strength is unchanged (a mirror says nothing of a faction)',
    ),
    monthly: Type.Optional(
      IdArray(
        'Faction ids whose rows gain `monthly`, their performance against expectation per month (an unknown id is a 400)',
        'A faction id',
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The common filter (the games the joint model is fitted to), the methodology switches of the raw win rate and the factions to report per month',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ minParticipants: 8 }],
  },
);

const FactionStrengthFilter = Type.Object(
  { ...NormalisedFilterProperties, ...MethodologyEcho },
  { description: 'The filter applied, defaults filled in' },
);

const GAMES =
  'non-mirror games in scope between two known players with one point shared between the sides';

const MonthlyPerformanceSchema = Type.Object(
  {
    month: Type.String({
      pattern: '^\\d{4}-\\d{2}$',
      description: "The month its games' events started in, YYYY-MM",
    }),
    games: Type.Integer({ description: `The faction's ${GAMES} that month` }),
    scored: Type.Number({
      description:
        'Mean outcome of its sides: the score share where the system scores games (e.g. 13-7 is 0.65), else win 1, draw ½, loss 0',
    }),
    expected: Type.Number({
      description:
        "Mean of what its pilots' Glicko-2 ratings before the game's event predicted for its sides (docs/ratings.md#prediction-quality)",
    }),
    overExpected: Type.Number({
      description:
        "scored − expected: above 0 the army did better than its pilots' ratings said (Aligulac's balance report)",
    }),
    interval: MeanIntervalSchema(
      "95% Student-t interval of overExpected: mean ± t(0.975, n−1) × s / √n over the month's n games (s the sample standard deviation of outcome − expected); null when n < 2",
    ),
  },
  { description: "One month of a faction's performance against expectation" },
);

const FactionStrengthRowSchema = Type.Object(
  {
    faction: FactionRefSchema,
    games: Type.Integer({
      description: `The faction's ${GAMES}; with mirrors "include" also its mirror games' sides, two per game`,
    }),
    ...WinDrawLossProperties(
      { wins: 'Of those, won', draws: 'Of those, drawn', losses: 'Of those, lost' },
      true,
    ),
    winRate: RateSchema(
      'The raw win rate: (wins + draws/2) / games, or wins / (games − draws) with draws "exclude"; null when no game counts',
    ),
    winRateInterval: WilsonIntervalSchema(),
    strength: Nullable(
      EstimateSchema(
        'Strength after pilot skill: the expected score of an average pilot of this faction against an average opponent with an average faction (the field, weighted by its sides), from the joint model of skill, faction and matchup fitted to the scope (docs/ratings.md#the-joint-model), with its 95% interval; null when the model has no estimate',
      ),
    ),
    pilotRating: Nullable(
      Type.Number({
        description:
          "Mean pre-game Glicko-2 rating of the faction's pilots over its games (default parameters, one rating period per event, over the system's games)",
      }),
    ),
    fieldRating: Nullable(
      Type.Number({
        description:
          'Mean pre-game Glicko-2 rating over every side in scope (the same on every row)',
      }),
    ),
    topPlayerShare: RateSchema(
      "Share of the faction's games played by its most frequent player; above 0.25 meta.warnings names the faction",
    ),
    lowSample: Type.Boolean({ description: 'true when games is under 30' }),
    monthly: Type.Optional(
      Type.Array(MonthlyPerformanceSchema, {
        description:
          'Only on the rows of the factions the request names in `monthly`: its performance against expectation per month with games, oldest first',
      }),
    ),
  },
  { description: 'One faction with at least one counted game' },
);

export const FactionStrengthResponse = Envelope(
  Type.Object(
    {
      factions: Type.Array(FactionStrengthRowSchema, {
        description: 'Factions with at least one counted game, most games first, then id',
      }),
      model: Type.Object(
        {
          skillWeight: Type.Number({
            description:
              "β: the weight of the Glicko-2 forecast's logit in the joint model (1 = as Glicko-2 says)",
          }),
          dispersion: Type.Number({
            description: 'The fitted dispersion of the outcome (1 for a binomial outcome)',
          }),
          games: Type.Integer({ description: `Games the model was fitted to: ${GAMES}` }),
          outcome: Type.Union([Type.Literal('score-share'), Type.Literal('result')], {
            description:
              'What is modelled: the score share where the system scores games (e.g. 20-0), else the result (draw ½)',
          }),
        },
        { description: 'The joint model fitted to the scope' },
      ),
    },
    { description: 'Per-faction strength after pilot skill and the model behind it' },
  ),
  FactionStrengthFilter,
  DEFAULT_SAMPLE,
);

/** The statistics route POST /api/faction-strength. */
export const factionStrengthRoute = statsRoute({
  path: '/api/faction-strength',
  summary: 'Is it the player or the army? Faction strength after pilot skill',
  description:
    "Per faction its raw win rate (mirrors out, draw ½) with a Wilson interval, its strength after pilot skill with a 95% interval from the joint model of player skill, faction strength and matchup, its pilots' mean pre-game rating against the field's, and the share of its games its most frequent player plays (a warning above 25%); with `monthly`, the named factions' performance against expectation per month (what their games scored minus what their pilots' pre-game ratings predicted).",
  body: FactionStrengthBody,
  response: FactionStrengthResponse,
  filterOf: (body) => body,
  task: 'factionStrength',
  args: (_snapshot, filter, body) => [
    { ...filter, ...methodologyOf(body, 'exclude') },
    body.monthly ?? [],
  ],
});
