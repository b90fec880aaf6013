/**
 * GET /api/filters: the values every common-filter field can take in the data served, with
 * event and game counts (docs/http-api.md#filter-values). A filter bar offers exactly these.
 * Open like health (a GET without a body), rate limited like every API route.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { filterOptions } from '../../engine/filter-options.ts';
import type { AppContext } from '../app-context.ts';
import { Nullable } from '../schemas/common-filter.ts';
import { requireSnapshot } from '../require-snapshot.ts';
import { warningsFor } from '../schemas/answer-envelope.ts';

const Counted = <
  T extends Parameters<typeof Type.Union>[0][number],
  E extends Parameters<typeof Type.Object>[0] = Record<never, never>,
>(
  value: T,
  description: string,
  extra?: E,
) =>
  Type.Array(
    Type.Object(
      {
        value,
        events: Type.Integer({ description: 'Events with this value and at least one game' }),
        games: Type.Integer({ description: 'Games in those events' }),
        ...(extra as E),
      },
      { description: 'One value and what it keeps' },
    ),
    { description: `${description}; most games first; events where it is unknown are left out` },
  );

const SystemOptions = Type.Object(
  {
    id: Type.String({ description: 'Game system id, the filter\'s "system"' }),
    name: Type.String({ description: 'Display name of the system' }),
    demo: Type.Boolean({
      description:
        'true when its results are generated demo data, not real tournaments (imported with the system, kept by export; docs/import-formats.md#game-systems)',
    }),
    events: Type.Integer({ description: 'Events of the system with at least one game' }),
    games: Type.Integer({ description: 'Games of the system' }),
    from: Nullable(
      Type.String({
        description: 'Earliest event start date with a game (YYYY-MM-DD); null without games',
      }),
    ),
    to: Nullable(
      Type.String({
        description: 'Latest event start date with a game (YYYY-MM-DD); null without games',
      }),
    ),
    factions: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'Faction id, as the factions option takes it' }),
          name: Type.String({ description: 'Display name' }),
          sides: Type.Integer({
            description: 'Sides played with the faction (a mirror game gives two)',
          }),
        },
        { description: 'One faction' },
      ),
      { description: 'Factions with at least one side played, by name' },
    ),
    players: Type.Object(
      {
        total: Type.Integer({ description: 'Players with at least one game in the system' }),
        named: Type.Integer({
          description:
            'Of those, players the data names; 0 when the source has no names (T9A): pages then show short ids',
        }),
      },
      { description: 'Players of the system and how many have names' },
    ),
    participants: Type.Object(
      {
        min: Nullable(
          Type.Integer({ description: 'Fewest participants of an event; null when none known' }),
        ),
        max: Nullable(
          Type.Integer({ description: 'Most participants of an event; null when none known' }),
        ),
        unknownEvents: Type.Integer({
          description: 'Events without a participant count (any size bound leaves them out)',
        }),
        atLeast: Type.Array(
          Type.Object(
            {
              minParticipants: Type.Integer({ description: 'The minParticipants value' }),
              events: Type.Integer({ description: 'Events with at least that many' }),
              games: Type.Integer({ description: 'Games in those events' }),
            },
            { description: 'One size bound and what it keeps' },
          ),
          {
            description:
              'Useful minParticipants values (8, 16, 24, 32, 48, 64, 100) that keep at least one event',
          },
        ),
      },
      { description: 'Event sizes (minParticipants, maxParticipants)' },
    ),
    formats: Counted(
      Type.String({ description: '"singles" or "teams"' }),
      'Event formats (format)',
    ),
    tiers: Counted(
      Type.String({ description: '"standard", "satellite" or "major"' }),
      'Event tiers (tiers)',
    ),
    countries: Counted(
      Type.String({ description: 'ISO 3166-1 alpha-2 code, upper case' }),
      'Event countries (countries)',
    ),
    rulesVersions: Counted(
      Type.String({ description: 'A rules version' }),
      "Rules versions (rulesVersions), each with the dates of its first and last events: a rules update is cut at its version's `from` (docs/http-api.md#filter-values)",
      {
        from: Type.String({
          description: 'Start date of the first event with a game under this version (YYYY-MM-DD)',
        }),
        to: Type.String({
          description: 'Start date of the last event with a game under this version (YYYY-MM-DD)',
        }),
      },
    ),
    online: Counted(
      Type.Boolean({ description: 'true: online; false: in person' }),
      'Online or in person (online)',
    ),
  },
  { description: "One game system's filter values" },
);

export const FiltersResponse = Type.Object(
  {
    data: Type.Object(
      {
        systems: Type.Array(SystemOptions, { description: 'Every system, in store order' }),
      },
      { description: 'Filter values per game system' },
    ),
    meta: Type.Object(
      {
        dataVersion: Type.Integer({ description: 'Data version answered from' }),
        loadedAt: Type.String({
          format: 'date-time',
          description: 'When the snapshot answered from was loaded (ISO 8601, UTC)',
        }),
        demo: Type.Boolean({
          description: 'true when any system holds generated demo data (systems[].demo says which)',
        }),
        warnings: Type.Array(Type.String({ description: 'A warning, in English' }), {
          description: 'Led by the demo notice when the data is generated',
        }),
      },
      { description: 'About the answer' },
    ),
  },
  { description: 'Filter values with counts' },
);

/** Registers GET /api/filters (docs/http-api.md#filter-values). */
export function registerFiltersRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/filters',
    {
      schema: {
        summary: 'The values each filter can take',
        description:
          'For each game system: its date range, factions, event sizes, formats, tiers, countries, rules versions (with the dates of their first and last events) and online/in person, each value with the events and games it keeps. Values that match no game are not listed.',
        tags: ['statistics'],
        response: { 200: FiltersResponse },
      },
    },
    async () => {
      const snapshot = requireSnapshot(ctx);
      return {
        data: filterOptions(snapshot),
        meta: {
          dataVersion: snapshot.dataVersion,
          loadedAt: snapshot.loadedAt,
          demo: snapshot.systems.some((s) => s.demo),
          warnings: warningsFor(snapshot, []),
        },
      };
    },
  );
}
