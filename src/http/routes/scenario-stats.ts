/** POST /api/scenario-stats: how scenarios play out, overall and per faction (DESIGN.md §5). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import { normaliseKinds } from '../../engine/scenario-parts.ts';
import { scenarioStats } from '../../engine/scenario-stats.ts';
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
import { ScenarioKindSchema, ScenarioKindsSchema } from '../schemas/scenario-kind.ts';

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
        description: 'Leave out scenarios and faction rows with fewer games (default 0)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Common filter plus scenario-stats options',
    examples: [{ system: 't9a', kinds: ['primary'], minGames: 20 }],
  },
);

const FactionRow = Type.Object({
  faction: FactionRefSchema,
  games: Type.Number({ description: 'Non-mirror games of the faction with this scenario' }),
  winRate: RateSchema('(wins + draws/2) / games'),
  winRateInterval: IntervalSchema,
  avgScore: Nullable(Type.Number({ description: 'Mean score over its sides (mirrors included)' })),
  lowSample: Type.Boolean({ description: 'Fewer than 30 games' }),
});

export const ScenarioStatsResponse = Envelope(
  Type.Object({
    scenarios: Type.Array(
      Type.Object({
        kind: ScenarioKindSchema,
        name: Type.String(),
        games: Type.Number({ description: 'Games in scope played with it' }),
        firstTurn: TurnStatsSchema('The side that went first, in games where that is known'),
        primary: Nullable(
          Type.Object(
            {
              attacker: Type.Number({
                description: 'Games where the side that went first took the primary',
              }),
              defender: Type.Number({
                description: 'Games where the side that went second took it',
              }),
              none: Type.Number({ description: 'Games where nobody took it' }),
            },
            { description: 'Who took the primary objective, where known' },
          ),
        ),
        secondary: Nullable(
          Type.Object(
            {
              picked: Type.Number({ description: 'Sides that played for it' }),
              achieved: Type.Number({ description: 'Sides that achieved it' }),
              achievedRate: RateSchema('achieved over sides with a known outcome'),
              attackerRate: RateSchema('Achieved rate of sides that went first'),
              defenderRate: RateSchema('Achieved rate of sides that went second'),
            },
            { description: 'For secondary objectives, where known' },
          ),
        ),
        marginBands: MarginBandsSchema,
        factions: Type.Array(FactionRow),
      }),
    ),
  }),
  Type.Object({
    ...NormalisedFilterProperties,
    kinds: Type.Array(ScenarioKindSchema),
    names: Type.Array(Type.String()),
    factions: Type.Array(Type.String()),
    minGames: Type.Integer(),
  }),
);

type Body = Static<typeof ScenarioStatsBody>;

/** Registers POST /api/scenario-stats. */
export function registerScenarioStatsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/scenario-stats',
    {
      schema: {
        summary: 'How scenarios play out',
        description:
          "Per scenario, map, deployment and objective: the first-turn side's results, attacker/defender/none on the primary, secondary achieved rates, margin bands and each faction's results.",
        tags: ['statistics'],
        body: ScenarioStatsBody,
        response: { 200: ScenarioStatsResponse },
      },
    },
    async (request) => {
      const body = request.body as Body;
      const snapshot = requireSnapshot(ctx);
      const filter = normaliseCommonFilter(snapshot, body);
      const result = scenarioStats(snapshot, {
        ...filter,
        kinds: normaliseKinds(body.kinds),
        names: [...new Set(body.names ?? [])],
        factions: [...new Set(body.factions ?? [])],
        minGames: body.minGames ?? 0,
      });
      return envelope(snapshot, result);
    },
  );
}
