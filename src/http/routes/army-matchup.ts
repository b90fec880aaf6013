/** POST /api/army-matchup: faction-versus-faction results (DESIGN.md §5). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { armyMatchup } from '../../engine/army-matchup.ts';
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
  RateSchema,
  envelope,
  requireSnapshot,
} from '../schemas/envelope.ts';

export const ArmyMatchupBody = Type.Object(
  {
    ...CommonFilterProperties,
    factions: Type.Optional(IdArray('Row factions (default all)', 'A faction id')),
    opponents: Type.Optional(IdArray('Column factions (default all)', 'A faction id')),
    minGames: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description: 'Leave out cells with fewer games (default 0)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Common filter plus army-matchup options',
    examples: [{ system: 't9a', factions: ['DE', 'HE'], from: '2025-01-01', minGames: 5 }],
  },
);

const CellSchema = Type.Object(
  {
    faction: Type.String({ description: 'Row faction id (the side the numbers are from)' }),
    opponent: Type.String({ description: 'Column faction id' }),
    games: Type.Number({ description: 'Games between the two (a mirror game counts once)' }),
    wins: Type.Number({ description: 'Wins of the row faction (mirror cell: winning sides)' }),
    draws: Type.Number({ description: 'Draws (mirror cell: drawn games)' }),
    losses: Type.Number({ description: 'Losses of the row faction (mirror cell: losing sides)' }),
    winRate: RateSchema('(wins + draws/2) / games; exactly 0.5 in a mirror cell'),
    winRateInterval: IntervalSchema,
    avgScore: Nullable(Type.Number({ description: "Mean score of the row faction's sides" })),
    lowSample: Type.Boolean({ description: 'Fewer than 30 games' }),
  },
  { description: 'One matchup' },
);

export const ArmyMatchupResponse = Envelope(
  Type.Object({
    factions: Type.Array(FactionRefSchema, { description: 'Row factions with at least one cell' }),
    cells: Type.Array(CellSchema),
  }),
  Type.Object({
    ...NormalisedFilterProperties,
    factions: Type.Array(Type.String()),
    opponents: Type.Array(Type.String()),
    minGames: Type.Integer(),
  }),
);

type Body = Static<typeof ArmyMatchupBody>;

/** Registers POST /api/army-matchup. */
export function registerArmyMatchupRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/army-matchup',
    {
      schema: {
        summary: 'Faction-versus-faction results',
        description:
          "Each cell is a matchup from the row faction's side: games, W/D/L, win rate (draws half) with a Wilson interval and average score. A mirror cell counts each mirror game once with win rate 0.5.",
        tags: ['statistics'],
        body: ArmyMatchupBody,
        response: { 200: ArmyMatchupResponse },
      },
    },
    async (request) => {
      const body = request.body as Body;
      const snapshot = requireSnapshot(ctx);
      const filter = normaliseCommonFilter(snapshot, body);
      const result = armyMatchup(snapshot, {
        ...filter,
        factions: [...new Set(body.factions ?? [])],
        opponents: [...new Set(body.opponents ?? [])],
        minGames: body.minGames ?? 0,
      });
      return envelope(snapshot, result);
    },
  );
}
