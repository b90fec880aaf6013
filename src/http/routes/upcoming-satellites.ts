/**
 * POST /api/upcoming-satellites: scheduled satellite (qualifier) events ahead (docs/http-api.md),
 * from the satellite calendar the snapshot carries beside its games.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ProblemError } from '../../errors/problem.ts';
import type { FieldError } from '../../errors/problem.ts';
import { DATE_PATTERN, isRealDate } from '../../domain/calendar-day.ts';
import { upcomingSatellites } from '../../engine/satellites/upcoming.ts';
import type { NearQuery, UpcomingQuery } from '../../engine/satellites/upcoming.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { AppContext } from '../app-context.ts';
import { MAX_ARRAY_ITEMS } from '../plugins/limits.ts';
import { Id, IdArray, Nullable, PageProperties } from '../schemas/common-filter.ts';
import { requireSnapshot } from '../require-snapshot.ts';
import { warningsFor } from '../schemas/answer-envelope.ts';
import { Envelope } from '../schemas/envelope.ts';

export const MAX_RADIUS_KM = 20_040; // a little over half the Earth's circumference
const DEFAULT_PAGE_SIZE = 50;

export const NearSchema = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude in degrees, -90 to 90' }),
    lon: Type.Number({
      minimum: -180,
      maximum: 180,
      description: 'Longitude in degrees, -180 to 180',
    }),
    radiusKm: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_RADIUS_KM,
      description: `Great-circle radius in km, above 0 and at most ${MAX_RADIUS_KM}`,
    }),
  },
  {
    additionalProperties: false,
    description:
      'Only events within radiusKm of this point (events without a location are left out)',
  },
);

export const UpcomingSatellitesBody = Type.Object(
  {
    system: Type.Optional(Id('Game system id; absent: every system')),
    from: Type.Optional(
      Type.String({
        pattern: DATE_PATTERN,
        description: 'Earliest start date, inclusive (default today, UTC)',
      }),
    ),
    to: Type.Optional(
      Type.String({ pattern: DATE_PATTERN, description: 'Latest start date, inclusive' }),
    ),
    majors: Type.Optional(
      IdArray('Only satellites qualifying for these majors', 'A major event id'),
    ),
    countries: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' }), {
        maxItems: MAX_ARRAY_ITEMS,
        description: 'Only events held in these countries',
      }),
    ),
    near: Type.Optional(NearSchema),
    ...PageProperties('Events', DEFAULT_PAGE_SIZE),
  },
  {
    additionalProperties: false,
    description: 'Which upcoming satellites to list',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ near: { lat: 48.85, lon: 2.35, radiusKm: 2000 }, pageSize: 10 }],
  },
);

const MajorSchema = Type.Object(
  {
    id: Type.String({ description: 'Major event id' }),
    name: Type.String({ description: 'Major event name' }),
    start: Type.String({ description: 'Major start date (YYYY-MM-DD)' }),
  },
  { description: 'The major this satellite qualifies for' },
);

const SatelliteSchema = Type.Object(
  {
    id: Type.String({ description: 'Event id' }),
    name: Type.String({ description: 'Event name' }),
    start: Type.String({ description: 'Start date (YYYY-MM-DD)' }),
    end: Nullable(Type.String({ description: 'End date (YYYY-MM-DD); null when not given' })),
    status: Type.String({ description: 'Always "scheduled"' }),
    country: Nullable(
      Type.String({ description: 'Country (ISO 3166-1 alpha-2); null when not given' }),
    ),
    city: Nullable(Type.String({ description: 'City; null when not given' })),
    venue: Nullable(Type.String({ description: 'Venue; null when not given' })),
    location: Nullable(
      Type.Object(
        {
          lat: Type.Number({ description: 'Latitude in degrees' }),
          lon: Type.Number({ description: 'Longitude in degrees' }),
        },
        { description: 'Coordinates of the venue; null when not given' },
      ),
    ),
    distanceKm: Nullable(
      Type.Number({ description: 'Great-circle distance from `near` in km; null without near' }),
    ),
    online: Nullable(
      Type.Boolean({ description: 'true for an online event; null when not given' }),
    ),
    qualifiesFor: Nullable(
      MajorSchema,
      'The major this satellite qualifies for; null when none is given or that major is unknown',
    ),
    slots: Nullable(
      Type.Integer({ description: 'Qualifying places for the major; null when not given' }),
    ),
    participants: Nullable(
      Type.Integer({ description: 'Registered participants; null when not given' }),
    ),
    capacity: Nullable(Type.Integer({ description: 'Places available; null when not given' })),
    registrationUrl: Nullable(
      Type.String({ description: 'Where to register; null when not given' }),
    ),
    url: Nullable(Type.String({ description: "The event's web page; null when not given" })),
  },
  { description: 'An upcoming satellite event' },
);

const SatellitesFilter = Type.Object(
  {
    system: Nullable(Type.String({ description: 'Game system applied; null: every system' })),
    from: Type.String({
      description: 'Earliest start date applied (YYYY-MM-DD; default today, UTC)',
    }),
    to: Nullable(Type.String({ description: 'Latest start date applied; null: no bound' })),
    majors: Type.Array(Type.String({ description: 'A major event id' }), {
      description: 'Major ids applied, duplicates removed; empty: every satellite',
    }),
    countries: Type.Array(Type.String({ description: 'ISO 3166-1 alpha-2 code, upper case' }), {
      description: 'Countries applied, upper-cased, duplicates removed; empty: every country',
    }),
    near: Nullable(NearSchema, 'The distance filter applied; null: none'),
    page: Type.Integer({ description: 'Page number applied' }),
    pageSize: Type.Integer({ description: 'Page size applied' }),
  },
  { description: 'The filter applied, defaults filled in' },
);

export const UpcomingSatellitesResponse = Envelope(
  Type.Object(
    {
      events: Type.Array(SatelliteSchema, {
        description:
          'This page of the matching events, sorted by start date, then distance, then id',
      }),
      total: Type.Integer({ description: 'Events matching (all pages)' }),
    },
    { description: 'Scheduled satellite events ahead, one page of them' },
  ),
  SatellitesFilter,
  {
    events: 'Satellite events matching (= data.total)',
    games: 'Always 0: upcoming events have no games yet',
  },
);

/**
 * Checks what a schema cannot: a system the data holds (the rule of every statistics route,
 * docs/http-api.md#the-common-filter), real dates and from <= to; fills the defaults.
 */
export function normaliseUpcoming(
  input: {
    system?: string;
    from?: string;
    to?: string;
    majors?: string[];
    countries?: string[];
    near?: NearQuery;
    page?: number;
    pageSize?: number;
  },
  today: string,
  systems: ReadonlySet<string>,
): UpcomingQuery {
  const errors: FieldError[] = [];
  if (input.system !== undefined && !systems.has(input.system)) {
    const known = [...systems].join(', ') || 'none';
    errors.push({
      pointer: '/system',
      detail: `unknown system "${input.system}"; known systems: ${known}`,
    });
  }
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value !== undefined && !isRealDate(value)) {
      errors.push({ pointer: `/${field}`, detail: `"${value}" is not a real date (YYYY-MM-DD)` });
    }
  }
  const from = input.from ?? today;
  if (errors.length === 0 && input.to !== undefined && from > input.to) {
    errors.push({ pointer: '/to', detail: `to (${input.to}) is before from (${from})` });
  }
  if (errors.length > 0) {
    throw new ProblemError('validation', `${errors[0].pointer}: ${errors[0].detail}`, { errors });
  }
  return {
    system: input.system ?? null,
    from,
    to: input.to ?? null,
    majors: [...new Set(input.majors ?? [])],
    countries: [...new Set((input.countries ?? []).map((c) => c.toUpperCase()))],
    near: input.near ?? null,
    page: input.page ?? 1,
    pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
  };
}

/** Registers POST /api/upcoming-satellites. */
export function registerUpcomingSatellitesRoute(app: FastifyInstance, ctx: AppContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/api/upcoming-satellites',
    {
      schema: {
        summary: 'Upcoming satellite events',
        description:
          'Scheduled satellite (qualifier) events from `from` (default today, UTC), with the major each qualifies for (null when that major is unknown), filtered by system, majors, countries and distance, sorted by start then distance. Cancelled and past events never appear; a page beyond the end is empty. Also as an iCalendar feed: GET /api/upcoming-satellites.ics.',
        tags: ['events'],
        body: UpcomingSatellitesBody,
        response: { 200: UpcomingSatellitesResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const now = new Date();
      const snapshot = requireSnapshot(ctx);
      const query = normaliseUpcoming(body, now.toISOString().slice(0, 10), systemIds(snapshot));
      const result = upcomingSatellites(snapshot.calendar, query);
      const warnings = result.total === 0 ? ['no scheduled satellite matches the filter'] : [];
      return {
        data: {
          events: result.events.map(({ system: _system, ...event }) => event),
          total: result.total,
        },
        meta: {
          dataVersion: snapshot.dataVersion,
          generatedAt: now.toISOString(),
          filter: query,
          sample: { events: result.total, games: 0 },
          warnings: warningsFor(snapshot, warnings, query.system ?? null),
        },
      };
    },
  );
}

const systemIdCache = new WeakMap<Snapshot, ReadonlySet<string>>();

/** The ids of the systems a snapshot holds, computed once per snapshot. */
export function systemIds(snapshot: Snapshot): ReadonlySet<string> {
  let ids = systemIdCache.get(snapshot);
  if (ids === undefined) {
    ids = new Set(snapshot.systems.map((system) => system.id));
    systemIdCache.set(snapshot, ids);
  }
  return ids;
}
