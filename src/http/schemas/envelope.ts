/**
 * The {data, meta} envelope of every statistics response (docs/http-api.md#the-envelope) and the
 * shared pieces of response schemas: intervals, faction references, turn splits, margin bands.
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { Nullable } from './common-filter.ts';

const IntervalObject = (description: string) =>
  Type.Object(
    {
      low: Type.Number({ description: 'Lower bound of the 95% interval' }),
      high: Type.Number({ description: 'Upper bound of the 95% interval' }),
    },
    { description },
  );

/**
 * The 95% Wilson score interval of a win rate (Wilson 1927), with wins + draws/2 as the
 * successes out of `games`; null without games.
 */
export const WilsonIntervalSchema = (
  description = '95% Wilson score interval of winRate, taking wins + draws/2 as the successes out of games, clamped to [0, 1]; null when games is 0',
) => Nullable(IntervalObject(description));

/** The 95% Student-t interval of a mean score; null under 2 samples. */
export const MeanIntervalSchema = (
  description = '95% Student-t interval of avgScore: mean ± t(0.975, n−1) × s / √n over the n sides with a known score (s the sample standard deviation); null when n < 2',
) => Nullable(IntervalObject(description));

export const RateSchema = (description: string) =>
  Nullable(Type.Number({ minimum: 0, maximum: 1, description }));

export const WIN_RATE =
  '(wins + draws/2) / games: a draw counts half; with draws "exclude" wins / (games − draws); null when no game counts';

/**
 * The wins, draws and losses of a row (docs/statistics.md#win-rate), each described by the route
 * that says what it counts; `integer` for counts typed as integers in the contract.
 */
export const WinDrawLossProperties = (
  described: { wins: string; draws: string; losses: string },
  integer = false,
) => {
  const Count = (description: string) =>
    integer ? Type.Integer({ description }) : Type.Number({ description });
  return {
    wins: Count(described.wins),
    draws: Count(described.draws),
    losses: Count(described.losses),
  };
};

export const FactionRefSchema = Type.Object(
  {
    id: Type.String({ description: 'Faction id (stable code)' }),
    name: Type.String({ description: 'Faction name' }),
  },
  { description: 'The faction (army)' },
);

/** A first- or second-turn split: {games, winRate, avgScore}, each field described by the route. */
export const TurnStatsSchema = (
  description: string,
  fields: { games: string; winRate: string; avgScore: string },
) =>
  Type.Object(
    {
      games: Type.Number({ description: fields.games }),
      winRate: RateSchema(fields.winRate),
      avgScore: Nullable(Type.Number({ description: fields.avgScore })),
    },
    { description },
  );

const BandSchema = (description: string) =>
  Type.Object(
    {
      games: Type.Number({
        description: "Decided games (one side won) whose winner's score lies in this band",
      }),
      share: RateSchema(
        "games over all decided games with a known winner's score (those in no band included); null when there are none",
      ),
    },
    { description },
  );

/** Margin bands over some set of games, named by `scope`. */
export const MarginBandsSchema = (scope: string) =>
  Nullable(
    Type.Object(
      {
        decisive: BandSchema("Winner's score in the system's decisive band (T9A: 18-20)"),
        normal: BandSchema("Winner's score in the system's normal band (T9A: 14-17)"),
        close: BandSchema("Winner's score in the system's close band (T9A: 10-13)"),
      },
      {
        description: `Decided games ${scope} by the band of the winner's score, as the game system defines the bands; null when the system defines none. Drawn games, double losses and games without the winner's score are left out`,
      },
    ),
  );

export const DEFAULT_SAMPLE = {
  events: 'Events in scope with at least one completed game',
  games:
    'Completed games in scope (every faction, mirrors included), before route options such as factions or minGames',
};

/**
 * The response envelope: `data` plus meta {dataVersion, generatedAt, filter, sample, warnings}
 * and any route-specific meta properties (`extraMeta`, each optional).
 */
export function Envelope<D extends TSchema, F extends TSchema>(
  data: D,
  filter: F,
  sample: { events: string; games: string } = DEFAULT_SAMPLE,
  extraMeta: Record<string, TSchema> = {},
) {
  return Type.Object(
    {
      data,
      meta: Type.Object(
        {
          dataVersion: Type.Integer({
            description:
              'Data version answered from (bumped by every successful import); answers with the same version rest on the same data',
          }),
          generatedAt: Type.String({
            format: 'date-time',
            description: 'When this answer was computed (ISO 8601, UTC)',
          }),
          filter,
          sample: Type.Object(
            {
              events: Type.Integer({ description: sample.events }),
              games: Type.Integer({ description: sample.games }),
            },
            { description: 'The sample the answer rests on' },
          ),
          warnings: Type.Array(Type.String({ description: 'A warning, in English' }), {
            description: 'Why an answer may be empty or thin (never errors)',
          }),
          ...extraMeta,
        },
        { description: 'About the answer' },
      ),
    },
    { description: 'Statistics answer' },
  );
}
