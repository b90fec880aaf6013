/**
 * GET /api/upcoming-satellites.ics: the upcoming satellites as an RFC 5545 calendar a player
 * can subscribe to. Open like health (a GET); the filters are query parameters.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { DATE_PATTERN } from '../../domain/calendar-day.ts';
import { ProblemError } from '../../errors/problem.ts';
import type { FieldError } from '../../errors/problem.ts';
import { satellitesCalendar } from '../../engine/satellites/ics.ts';
import { matchSatellites } from '../../engine/satellites/upcoming.ts';
import type { NearQuery } from '../../engine/satellites/upcoming.ts';
import type { AppContext } from '../app-context.ts';
import { MAX_ARRAY_ITEMS } from '../plugins/limits.ts';
import { problemResponse } from '../plugins/problem-responses.ts';
import { requireSnapshot } from '../require-snapshot.ts';
import { MAX_RADIUS_KM, normaliseUpcoming, systemIds } from './upcoming-satellites.ts';

export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8';
/** A feed is not paged; this bounds its size. */
const MAX_FEED_EVENTS = 1000;
const NUMBER = '^-?\\d+(\\.\\d+)?$';

export const IcsQuery = Type.Object(
  {
    system: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Game system id' }),
    ),
    from: Type.Optional(
      Type.String({
        pattern: DATE_PATTERN,
        description: 'Earliest start date (default today, UTC)',
      }),
    ),
    to: Type.Optional(Type.String({ pattern: DATE_PATTERN, description: 'Latest start date' })),
    majors: Type.Optional(
      Type.String({ maxLength: 4000, description: 'Comma-separated major event ids' }),
    ),
    countries: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}(,[A-Za-z]{2})*$',
        maxLength: 300,
        description: 'Comma-separated ISO 3166-1 alpha-2 codes',
      }),
    ),
    near: Type.Optional(
      Type.String({
        maxLength: 100,
        description: '"lat,lon,radiusKm" (e.g. 48.85,2.35,300); or use lat, lon and radiusKm',
      }),
    ),
    lat: Type.Optional(
      Type.String({
        pattern: NUMBER,
        maxLength: 30,
        description: 'Latitude in degrees, -90 to 90',
      }),
    ),
    lon: Type.Optional(
      Type.String({
        pattern: NUMBER,
        maxLength: 30,
        description: 'Longitude in degrees, -180 to 180',
      }),
    ),
    radiusKm: Type.Optional(
      Type.String({
        pattern: NUMBER,
        maxLength: 30,
        description: `Radius in km, above 0 and at most ${MAX_RADIUS_KM}`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The filters of POST /api/upcoming-satellites as query parameters: majors and countries comma-separated, near as "lat,lon,radiusKm" or as separate lat, lon and radiusKm',
    examples: [{ near: '48.85,2.35,2000' }],
  },
);

type Query = Static<typeof IcsQuery>;

function parseNear(query: Query): NearQuery | undefined {
  const errors: FieldError[] = [];
  let lat: string | undefined;
  let lon: string | undefined;
  let radius: string | undefined;
  if (query.near !== undefined) {
    if (query.lat !== undefined || query.lon !== undefined || query.radiusKm !== undefined) {
      errors.push({ pointer: '/near', detail: 'give near or lat/lon/radiusKm, not both' });
    }
    const parts = query.near.split(',');
    if (parts.length !== 3 || parts.some((p) => !/^-?\d+(\.\d+)?$/.test(p.trim()))) {
      errors.push({ pointer: '/near', detail: 'near must be "lat,lon,radiusKm" (three numbers)' });
    }
    [lat, lon, radius] = parts.map((p) => p.trim());
  } else {
    lat = query.lat;
    lon = query.lon;
    radius = query.radiusKm;
    if (lat === undefined && lon === undefined && radius === undefined) return undefined;
    if (lat === undefined)
      errors.push({ pointer: '/lat', detail: 'lat is required with lon/radiusKm' });
    if (lon === undefined)
      errors.push({ pointer: '/lon', detail: 'lon is required with lat/radiusKm' });
    if (radius === undefined) {
      errors.push({ pointer: '/radiusKm', detail: 'radiusKm is required with lat/lon' });
    }
  }
  const where = (field: string): string => (query.near !== undefined ? '/near' : `/${field}`);
  if (errors.length === 0) {
    const near = { lat: Number(lat), lon: Number(lon), radiusKm: Number(radius) };
    if (!(near.lat >= -90 && near.lat <= 90)) {
      errors.push({ pointer: where('lat'), detail: 'latitude must be within -90..90' });
    }
    if (!(near.lon >= -180 && near.lon <= 180)) {
      errors.push({ pointer: where('lon'), detail: 'longitude must be within -180..180' });
    }
    if (!(near.radiusKm > 0 && near.radiusKm <= MAX_RADIUS_KM)) {
      errors.push({
        pointer: where('radiusKm'),
        detail: `radiusKm must be above 0 and at most ${MAX_RADIUS_KM}`,
      });
    }
    if (errors.length === 0) return near;
  }
  throw new ProblemError('validation', `${errors[0].pointer}: ${errors[0].detail}`, { errors });
}

function list(text: string | undefined, pointer: string): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length > MAX_ARRAY_ITEMS) {
    throw new ProblemError('validation', `${pointer}: at most ${MAX_ARRAY_ITEMS} values`, {
      errors: [{ pointer, detail: `at most ${MAX_ARRAY_ITEMS} values` }],
    });
  }
  return items;
}

/** Registers GET /api/upcoming-satellites.ics. */
export function registerUpcomingSatellitesIcsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/upcoming-satellites.ics',
    {
      schema: {
        summary: 'Upcoming satellites as an iCalendar feed',
        description:
          'RFC 5545 calendar with one all-day VEVENT per upcoming satellite (stable UID "<eventId>@muster", DTSTART/DTEND as dates, LOCATION, GEO, URL, and a DESCRIPTION naming the major and its slots). Same filters as POST /api/upcoming-satellites, as query parameters; not paged (at most 1000 events).',
        tags: ['events'],
        querystring: IcsQuery,
        produces: ['text/calendar'],
        response: {
          200: {
            description: 'text/calendar; charset=utf-8',
            content: { 'text/calendar': { schema: Type.String() } },
          },
          400: problemResponse(
            400,
            'A query parameter is invalid: a system the data does not hold, a date that is not real, `to` before `from`, a bad `near`; `errors[]` points at it',
          ),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const now = new Date();
      const snapshot = requireSnapshot(ctx);
      const query = normaliseUpcoming(
        {
          system: q.system,
          from: q.from,
          to: q.to,
          majors: list(q.majors, '/majors'),
          countries: list(q.countries, '/countries'),
          near: parseNear(q),
        },
        now.toISOString().slice(0, 10),
        systemIds(snapshot),
      );
      const matching = matchSatellites(snapshot.calendar, query).slice(0, MAX_FEED_EVENTS);
      return reply
        .type(ICS_CONTENT_TYPE)
        .header('content-disposition', 'inline; filename="upcoming-satellites.ics"')
        .header('cache-control', 'public, max-age=300')
        .send(satellitesCalendar(matching, { now }));
    },
  );
}
