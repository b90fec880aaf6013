/** POST /api/scenario: the scenario catalogue in scope (docs/statistics.md#scenario). */
import { Type } from 'typebox';
import { normaliseKinds } from '../../engine/scenario-parts.ts';
import { statsRoute } from './stats-route.ts';
import {
  CommonFilterProperties,
  MAX_STRING,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import { Envelope } from '../schemas/envelope.ts';
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
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ kinds: ['map', 'deployment', 'primary'] }],
  },
);

const PLAYED_WITH =
  "games in scope played with it (for a secondary: among the game's secondaries or either side's own)";

export const ScenarioResponse = Envelope(
  Type.Object(
    {
      scenarios: Type.Array(
        Type.Object(
          {
            kind: ScenarioKindSchema,
            name: Type.String({
              description: 'Name as first imported (names match case-insensitively)',
            }),
            description: Nullable(
              Type.String({
                description: "The catalogue's description, when the catalogue lists it; else null",
              }),
            ),
            games: Type.Number({
              description: `Number of ${PLAYED_WITH}; 0 for a catalogue entry not played in scope`,
            }),
            firstPlayed: Nullable(
              Type.String({
                description: `Start date (YYYY-MM-DD) of the earliest event with one of the ${PLAYED_WITH}; null when games is 0`,
              }),
            ),
            lastPlayed: Nullable(
              Type.String({
                description: `Start date (YYYY-MM-DD) of the latest event with one of the ${PLAYED_WITH}; null when games is 0`,
              }),
            ),
          },
          { description: 'One scenario, map, deployment or objective' },
        ),
        {
          description:
            "The catalogue's entries of the requested kinds and every name played in scope, by kind (scenario, map, deployment, primary, secondary), then most games, then name",
        },
      ),
    },
    { description: 'The scenario catalogue in scope' },
  ),
  Type.Object(
    {
      ...NormalisedFilterProperties,
      kinds: Type.Array(ScenarioKindSchema, {
        description: 'Kinds applied, in catalogue order; every kind when none was given',
      }),
      search: Nullable(Type.String({ description: 'Name search applied; null: none' })),
    },
    { description: 'The filter applied, defaults filled in' },
  ),
);

/** The statistics route POST /api/scenario. */
export const scenarioRoute = statsRoute({
  path: '/api/scenario',
  summary: 'The scenario catalogue',
  description:
    "Scenarios, maps, deployments, primary and secondary objectives of the system: the catalogue's entries and every name played in scope, with games and first/last played dates.",
  body: ScenarioBody,
  response: ScenarioResponse,
  filterOf: (body) => body,
  task: 'scenarioCatalogue',
  args: (_snapshot, filter, body) => [
    {
      ...filter,
      kinds: normaliseKinds(body.kinds),
      search: body.search ?? null,
    },
  ],
});
