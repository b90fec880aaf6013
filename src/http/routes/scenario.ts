/** POST /api/scenario: the scenario catalogue in scope (DESIGN.md §5). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { normaliseCommonFilter } from '../../engine/filter.ts';
import { scenarioCatalogue } from '../../engine/scenario.ts';
import { normaliseKinds } from '../../engine/scenario-parts.ts';
import type { AppContext } from '../app-context.ts';
import {
  CommonFilterProperties,
  MAX_STRING,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import { Envelope, envelope, requireSnapshot } from '../schemas/envelope.ts';
import { ScenarioKindSchema, ScenarioKindsSchema } from '../schemas/scenario-kind.ts';

export const ScenarioBody = Type.Object(
  {
    ...CommonFilterProperties,
    kinds: Type.Optional(ScenarioKindsSchema),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_STRING,
        description: 'Only names containing this (case-insensitive)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Common filter plus scenario options',
    examples: [{ system: 't9a', kinds: ['map', 'deployment', 'primary'] }],
  },
);

export const ScenarioResponse = Envelope(
  Type.Object({
    scenarios: Type.Array(
      Type.Object({
        kind: ScenarioKindSchema,
        name: Type.String({ description: 'Name as first imported' }),
        description: Nullable(Type.String({ description: 'From the catalogue, when given' })),
        games: Type.Number({ description: 'Games in scope played with it' }),
        firstPlayed: Nullable(
          Type.String({ description: 'Earliest event start in scope (YYYY-MM-DD)' }),
        ),
        lastPlayed: Nullable(
          Type.String({ description: 'Latest event start in scope (YYYY-MM-DD)' }),
        ),
      }),
    ),
  }),
  Type.Object({
    ...NormalisedFilterProperties,
    kinds: Type.Array(ScenarioKindSchema),
    search: Nullable(Type.String()),
  }),
);

type Body = Static<typeof ScenarioBody>;

/** Registers POST /api/scenario. */
export function registerScenarioRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/scenario',
    {
      schema: {
        summary: 'The scenario catalogue',
        description:
          "Scenarios, maps, deployments, primary and secondary objectives of the system: the catalogue's entries and every name played in scope, with games and first/last played dates.",
        tags: ['statistics'],
        body: ScenarioBody,
        response: { 200: ScenarioResponse },
      },
    },
    async (request) => {
      const body = request.body as Body;
      const snapshot = requireSnapshot(ctx);
      const filter = normaliseCommonFilter(snapshot, body);
      const result = scenarioCatalogue(snapshot, {
        ...filter,
        kinds: normaliseKinds(body.kinds),
        search: body.search ?? null,
      });
      return envelope(snapshot, result);
    },
  );
}
