/**
 * The common filter of every statistics route (docs/http-api.md#the-common-filter), declared
 * once: its request properties and its normalised echo (meta.filter) as TypeBox schemas, from
 * which the engine's types are derived. Routes spread these into their own request and echo
 * objects (src/http/schemas/common-filter.ts); the engine normalises and applies the filter
 * (src/engine/filter.ts).
 */
import { Type } from 'typebox';
import type { Static, TLiteral } from 'typebox';
import { DATE_PATTERN } from './calendar-day.ts';
import { EVENT_FORMATS, EVENT_TIERS } from './model.ts';

/** Largest array in a request body; enforced by each route's schema (docs/http-api.md#limits). */
export const MAX_ARRAY_ITEMS = 100;

export const MAX_STRING = 100;

export const Id = (description: string) =>
  Type.String({ minLength: 1, maxLength: MAX_STRING, description });

export const IdArray = (description: string, itemDescription = 'An id') =>
  Type.Array(Id(itemDescription), { maxItems: MAX_ARRAY_ITEMS, description });

const DateText = (description: string) =>
  Type.String({ pattern: DATE_PATTERN, maxLength: 10, description, examples: ['2025-10-01'] });

/** One literal schema per value, typed as the tuple of their literals. */
const literals = <const T extends readonly string[]>(values: T) =>
  values.map((value) => Type.Literal(value)) as { -readonly [K in keyof T]: TLiteral<T[K]> };

export const FormatSchema = Type.Union(literals([...EVENT_FORMATS, 'all'] as const), {
  description: 'Event format; "all" (default) keeps both',
});
export const TierSchema = Type.Union(literals(EVENT_TIERS), { description: 'Event tier' });

/** Request properties of the common filter (all optional). */
export const CommonFilterProperties = {
  system: Type.Optional(
    Id('Game system id (e.g. "t9a"); defaults to the only system; required when there are several'),
  ),
  from: Type.Optional(DateText('Earliest event start date, inclusive (YYYY-MM-DD)')),
  to: Type.Optional(DateText('Latest event start date, inclusive (YYYY-MM-DD)')),
  minParticipants: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100000,
      description:
        'Only events with at least this many participants, 0 to 100000 (events without a count are left out)',
    }),
  ),
  maxParticipants: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100000,
      description:
        'Only events with at most this many participants, 0 to 100000 (events without a count are left out)',
    }),
  ),
  format: Type.Optional(FormatSchema),
  tiers: Type.Optional(
    Type.Array(TierSchema, {
      maxItems: MAX_ARRAY_ITEMS,
      description: 'Only events of these tiers',
    }),
  ),
  countries: Type.Optional(
    Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code' }), {
      maxItems: MAX_ARRAY_ITEMS,
      description: 'Only events held in these countries',
    }),
  ),
  rulesVersions: Type.Optional(
    IdArray('Only events played under these rules versions', 'A rules version'),
  ),
  eventIds: Type.Optional(IdArray('Only these events', 'An event id')),
  minRounds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1000,
      description:
        'Only events of at least this many rounds, 0 to 1000 (declared, else the highest round played)',
    }),
  ),
  online: Type.Optional(
    Type.Boolean({ description: 'true: online events only; false: in person only; absent: both' }),
  ),
};

/**
 * `schema` or null. The union carries `description` (default: the member's own), since
 * documentation readers show the description of the property's schema, not of its members.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  description?: string,
) => {
  const text = description ?? (schema as { description?: unknown }).description;
  return Type.Union([schema, Type.Null()], typeof text === 'string' ? { description: text } : {});
};

/** meta.filter's common part: every field present, defaults filled in. */
export const NormalisedFilterProperties = {
  system: Type.String({ description: 'The game system applied (the only one when not given)' }),
  from: Nullable(
    Type.String({ description: 'Earliest event start date applied (YYYY-MM-DD); null: no bound' }),
  ),
  to: Nullable(
    Type.String({ description: 'Latest event start date applied (YYYY-MM-DD); null: no bound' }),
  ),
  minParticipants: Nullable(
    Type.Integer({ description: 'Minimum participants applied; null: no bound' }),
  ),
  maxParticipants: Nullable(
    Type.Integer({ description: 'Maximum participants applied; null: no bound' }),
  ),
  format: FormatSchema,
  tiers: Type.Array(TierSchema, {
    description: 'Event tiers applied, duplicates removed; empty: every tier',
  }),
  countries: Type.Array(Type.String({ description: 'ISO 3166-1 alpha-2 code, upper case' }), {
    description: 'Event countries applied, upper-cased, duplicates removed; empty: every country',
  }),
  rulesVersions: Type.Array(Type.String({ description: 'A rules version' }), {
    description: 'Rules versions applied, duplicates removed; empty: every version',
  }),
  eventIds: Type.Array(Type.String({ description: 'An event id' }), {
    description: 'Event ids applied, duplicates removed; empty: every event',
  }),
  minRounds: Nullable(Type.Integer({ description: 'Minimum rounds applied; null: no bound' })),
  online: Nullable(
    Type.Boolean({ description: 'true: online events only; false: in person only; null: both' }),
  ),
};

export { Nullable };

/** The common filter as a request may send it (every field optional). */
export type CommonFilterInput = Static<
  ReturnType<typeof Type.Object<typeof CommonFilterProperties>>
>;

/** The common filter with defaults filled in, echoed as meta.filter. */
export type CommonFilter = Static<
  ReturnType<typeof Type.Object<typeof NormalisedFilterProperties>>
>;

/** An event format, or 'all' for both. */
export type FormatFilter = CommonFilter['format'];
