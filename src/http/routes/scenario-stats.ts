/**
 * POST /api/scenario-stats: how scenarios play out, overall and per faction
 * (docs/statistics.md#scenario-stats).
 */
import { Type } from 'typebox';
import { normaliseKinds } from '../../engine/scenario-parts.ts';
import { AppliedIds, applied, statsRoute } from './stats-route.ts';
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
  MarginBandsSchema,
  RateSchema,
  TurnStatsSchema,
  WIN_RATE,
} from '../schemas/envelope.ts';
import { ScenarioKindSchema, ScenarioKindsSchema } from '../schemas/scenario-kind.ts';
import {
  IntervalKindEcho,
  IntervalKindProperty,
  RateIntervalSchema,
} from '../schemas/interval-kind.ts';
import { ShrinkageMeta, ShrunkWinRateSchema } from '../schemas/shrinkage-meta.ts';

export const ScenarioStatsBody = Type.Object(
  {
    ...CommonFilterProperties,
    kinds: Type.Optional(ScenarioKindsSchema),
    names: Type.Optional(
      IdArray(
        'Only these names (case-insensitive); an unknown name is a 400',
        'A scenario, map, deployment or objective name',
      ),
    ),
    factions: Type.Optional(
      IdArray('Only these factions in each per-faction breakdown', 'A faction id'),
    ),
    minGames: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description:
          'Leave out scenarios and faction rows with fewer games, 0 to 1000000 (default 0)',
      }),
    ),
    interval: IntervalKindProperty,
  },
  {
    additionalProperties: false,
    description: 'Common filter plus scenario-stats options',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ kinds: ['primary', 'deployment'], minGames: 5 }],
  },
);

const FactionRow = Type.Object(
  {
    faction: FactionRefSchema,
    games: Type.Number({
      description:
        'Games of the faction played with it, mirror games (the faction against itself) always left out',
    }),
    winRate: RateSchema(WIN_RATE),
    winRateInterval: RateIntervalSchema(),
    shrunkWinRate: ShrunkWinRateSchema(
      "the faction's win rate over every scenario part of the same kind in scope (e.g. all maps)",
    ),
    avgScore: Nullable(
      Type.Number({
        description:
          'Mean score over all its sides in those games with a known score, mirrors included; null when none',
      }),
    ),
    lowSample: Type.Boolean({ description: 'true when games is under 30' }),
  },
  { description: "One faction's results with this scenario" },
);

export const ScenarioStatsResponse = Envelope(
  Type.Object(
    {
      scenarios: Type.Array(
        Type.Object(
          {
            kind: ScenarioKindSchema,
            name: Type.String({
              description: 'Name as first imported (names match case-insensitively)',
            }),
            games: Type.Number({
              description:
                "Games in scope played with it (for a secondary: among the game's secondaries or either side's own), mirrors included",
            }),
            firstTurn: TurnStatsSchema(
              'The side that went first, over the games with it where that side is known (mirrors included)',
              {
                games: 'Games with it where the side that went first is known',
                winRate:
                  '(wins + draws/2) / games of the side that went first: a draw counts half; null when games is 0',
                avgScore:
                  'Mean score of the side that went first, over those games with its score known; null when none',
              },
            ),
            primary: Nullable(
              Type.Object(
                {
                  attacker: Type.Number({
                    description: 'Games where only the side that went first achieved the primary',
                  }),
                  defender: Type.Number({
                    description: 'Games where only the side that went second achieved it',
                  }),
                  none: Type.Number({ description: 'Games where neither side achieved it' }),
                },
                {
                  description:
                    "Who achieved the primary objective (attacker = the side that went first), over the games with it where the first side and both sides' outcomes are known (games recording both sides as achieving it are left out); null when there is no such game",
                },
              ),
            ),
            secondary: Nullable(
              Type.Object(
                {
                  picked: Type.Number({
                    description: 'Sides in scope that played for it (as their own secondary)',
                  }),
                  achieved: Type.Number({ description: 'Of those, sides that achieved it' }),
                  achievedRate: RateSchema(
                    'achieved / picked sides with a known outcome; null when none is known',
                  ),
                  attackerRate: RateSchema(
                    'The same rate over the picking sides that went first; null when none is known',
                  ),
                  defenderRate: RateSchema(
                    'The same rate over the picking sides that went second; null when none is known',
                  ),
                },
                {
                  description:
                    'For a secondary objective that some side played for; null for other kinds and when no side played for it',
                },
              ),
            ),
            marginBands: MarginBandsSchema('played with it'),
            factions: Type.Array(FactionRow, {
              description:
                'Each faction with a side in these games (of factions, when given), most games first, then id; rows with fewer than minGames games are left out',
            }),
          },
          { description: 'One scenario, map, deployment or objective' },
        ),
        {
          description:
            'Names with at least one game and at least minGames games, by kind (in the order of kinds), then most games',
        },
      ),
    },
    { description: 'How each scenario plays out' },
  ),
  Type.Object(
    {
      ...NormalisedFilterProperties,
      kinds: Type.Array(ScenarioKindSchema, {
        description: 'Kinds applied, in catalogue order; every kind when none was given',
      }),
      names: Type.Array(Type.String({ description: 'A name' }), {
        description: 'Names applied, duplicates removed; empty: every name',
      }),
      factions: AppliedIds('faction'),
      minGames: Type.Integer({ description: 'Minimum games applied (scenarios and faction rows)' }),
      interval: IntervalKindEcho,
    },
    { description: 'The filter applied, defaults filled in' },
  ),
  DEFAULT_SAMPLE,
  ShrinkageMeta,
);

/** The statistics route POST /api/scenario-stats. */
export const scenarioStatsRoute = statsRoute({
  path: '/api/scenario-stats',
  summary: 'How scenarios play out',
  description:
    "Per scenario, map, deployment and objective: the first-turn side's results, attacker/defender/none on the primary, secondary achieved rates, margin bands and each faction's results.",
  body: ScenarioStatsBody,
  response: ScenarioStatsResponse,
  filterOf: (body) => body,
  task: 'scenarioStats',
  args: (_snapshot, filter, body) => [
    {
      ...filter,
      kinds: normaliseKinds(body.kinds),
      names: applied(body.names),
      factions: applied(body.factions),
      minGames: body.minGames ?? 0,
      interval: body.interval ?? 'wilson',
    },
  ],
});
