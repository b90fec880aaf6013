/** POST /api/faction-stats: how each faction (army) performs (DESIGN.md §5). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { factionStats } from '../../engine/faction-stats.ts';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import type { AppContext } from '../app-context.ts';
import {
  CommonFilterProperties,
  IdArray,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import {
  Envelope,
  FactionRefSchema,
  IntervalSchema,
  MarginBandsSchema,
  RateSchema,
  TurnStatsSchema,
  envelope,
  requireSnapshot,
} from '../schemas/envelope.ts';

const GroupBySchema = Type.Union(
  [Type.Literal('none'), Type.Literal('month'), Type.Literal('quarter')],
  { description: 'Add a per-period series to each faction; default none' },
);

const RouteProperties = {
  factions: Type.Optional(
    IdArray(
      'Only these factions (rows); shares and the summary still cover the whole scope',
      'A faction id',
    ),
  ),
  excludeMirrors: Type.Optional(
    Type.Boolean({
      description:
        'Leave mirror games out of games, W/D/L and winRate (default true). When false every side counts, so a mirror gives its faction two games',
    }),
  ),
  minGames: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1000000,
      description: 'Leave out factions with fewer games (default 0)',
    }),
  ),
  groupBy: Type.Optional(GroupBySchema),
};

export const FactionStatsBody = Type.Object(
  { ...CommonFilterProperties, ...RouteProperties },
  {
    additionalProperties: false,
    description: 'Common filter plus faction-stats options',
    examples: [
      { system: 't9a', from: '2025-10-01', to: '2025-12-31', minParticipants: 8, groupBy: 'month' },
    ],
  },
);

const FactionStatsFilter = Type.Object(
  {
    ...NormalisedFilterProperties,
    factions: Type.Array(Type.String()),
    excludeMirrors: Type.Boolean(),
    minGames: Type.Integer(),
    groupBy: GroupBySchema,
  },
  { description: 'The filter applied, defaults filled in' },
);

const SeriesPointSchema = Type.Object({
  period: Type.String({ description: '"YYYY-MM" for months, "YYYY-Qn" for quarters' }),
  sides: Type.Number({ description: 'Sides played in the period' }),
  games: Type.Number({ description: 'Games counted in the period' }),
  wins: Type.Number(),
  draws: Type.Number(),
  losses: Type.Number(),
  winRate: RateSchema('(wins + draws/2) / games'),
  winRateInterval: IntervalSchema,
  avgScore: Nullable(Type.Number({ description: 'Mean score over the sides' })),
});

const FactionRowSchema = Type.Object({
  faction: FactionRefSchema,
  sides: Type.Number({
    description: 'Sides played (a mirror game gives two), mirrors always included',
  }),
  games: Type.Number({
    description: 'Games counted (mirrors left out unless excludeMirrors is false)',
  }),
  wins: Type.Number(),
  draws: Type.Number(),
  losses: Type.Number(),
  mirrorGames: Type.Number({ description: 'Mirror games, each counted once' }),
  winRate: RateSchema('(wins + draws/2) / games; null without games'),
  winRateInterval: IntervalSchema,
  avgScore: Nullable(Type.Number({ description: 'Mean score over all sides, mirrors included' })),
  avgScoreInterval: IntervalSchema,
  players: Type.Number({ description: 'Distinct known players who played the faction' }),
  entries: Type.Number({ description: 'Event entries (standings rows) with the faction' }),
  metaShare: RateSchema("The faction's sides over all sides in scope"),
  firstTurn: TurnStatsSchema('Sides that went first'),
  secondTurn: TurnStatsSchema('Sides that went second'),
  eventWins: Type.Number({ description: 'Events won (placement 1)' }),
  undefeated: Type.Number({ description: 'Entries that lost no game in their event' }),
  topShare: Nullable(
    Type.Number({
      description:
        'Share of top-10% placements held by the faction divided by its metaShare (1 = as expected)',
    }),
  ),
  skill: Nullable(
    Type.Object(
      {
        expectedWinRate: Nullable(Type.Number()),
        overExpected: Nullable(Type.Number()),
      },
      {
        description:
          "Results against what the players' pre-game ratings predicted; null until available",
      },
    ),
  ),
  lowSample: Type.Boolean({ description: 'Fewer than 30 games' }),
  series: Type.Optional(Type.Array(SeriesPointSchema, { description: 'Per period, when grouped' })),
});

export const FactionStatsResponse = Envelope(
  Type.Object({
    factions: Type.Array(FactionRowSchema),
    summary: Type.Object({
      games: Type.Number({ description: 'Games in scope (mirrors included)' }),
      events: Type.Number({ description: 'Events with a game in scope' }),
      avgScoreFirstTurn: Nullable(
        Type.Number({ description: 'Mean score of sides that went first' }),
      ),
      avgScoreSecondTurn: Nullable(
        Type.Number({ description: 'Mean score of sides that went second' }),
      ),
      marginBands: MarginBandsSchema,
      diversity: Type.Object(
        {
          hhi: Nullable(
            Type.Number({ description: 'Herfindahl-Hirschman index of faction meta shares' }),
          ),
          effectiveFactions: Nullable(Type.Number({ description: '1 / hhi' })),
        },
        { description: 'How varied the meta is' },
      ),
    }),
  }),
  FactionStatsFilter,
);

type Body = Static<typeof FactionStatsBody>;

/** Registers POST /api/faction-stats. */
export function registerFactionStatsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/faction-stats',
    {
      schema: {
        summary: 'How each faction performs',
        description:
          'Win/draw/loss, win rate with a Wilson interval, average score with a t interval, meta share, first/second turn, event wins, top-10% share and diversity, optionally per month or quarter. Draws count half; mirror games are left out of win rates by default.',
        tags: ['statistics'],
        body: FactionStatsBody,
        response: { 200: FactionStatsResponse },
      },
    },
    async (request) => {
      const body = request.body as Body;
      const snapshot = requireSnapshot(ctx);
      const filter = normaliseCommonFilter(snapshot, body);
      const result = factionStats(snapshot, {
        ...filter,
        factions: [...new Set(body.factions ?? [])],
        excludeMirrors: body.excludeMirrors ?? true,
        minGames: body.minGames ?? 0,
        groupBy: body.groupBy ?? 'none',
      });
      return envelope(snapshot, result);
    },
  );
}
