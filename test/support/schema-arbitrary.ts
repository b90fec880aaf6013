/**
 * Generates values that a JSON Schema (the OpenAPI 3.1 document's request schemas, dialect
 * 2020-12) accepts, as fast-check arbitraries: the fuzz test sends bodies every route's schema
 * allows, so that what the engine does with any valid request is exercised, not only the
 * validator. Numbers favour their bounds and extremes, dates their real and degenerate corners
 * (inverted windows, far past and future), strings the names the data holds.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** The subset of JSON Schema the request schemas use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export interface SchemaArbitraryOptions {
  /** Resolves a $ref (e.g. "#/components/schemas/X") to its schema. */
  resolve: (ref: string) => JsonSchema;
  /** Strings worth trying wherever a string fits: ids and names the data holds. */
  knownStrings?: readonly string[];
  /** Longest generated array (schemas allow 100 entries; long ones cost without finding more). */
  maxArrayItems?: number;
}

const DAY_MS = 86_400_000;
/** The pattern of a calendar day in the request schemas (src/domain/calendar-day.ts). */
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/** An optional member left out of a generated object. */
const ABSENT = Symbol('absent');

/** YYYY-MM-DD dates: real ones over two centuries, a few around today, and calendar corners. */
const dates: Arbitrary<string> = fc.oneof(
  fc
    .integer({ min: Date.UTC(1900, 0, 1) / DAY_MS, max: Date.UTC(2100, 11, 31) / DAY_MS })
    .map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10)),
  fc
    .integer({ min: -800, max: 800 })
    .map((offset) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10)),
  fc.constantFrom(
    '0000-01-01',
    '0001-01-01',
    '1970-01-01',
    '2024-02-29',
    '2025-02-29',
    '2025-06-30',
    '2026-03-15',
    '9999-12-31',
    '2025-13-01',
    '2025-00-10',
  ),
);

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Integers in [min, max], often exactly at a bound, zero or one. */
function integers(schema: JsonSchema): Arbitrary<number> {
  const min = Math.ceil(
    Math.max(
      schema.minimum ?? Number.MIN_SAFE_INTEGER,
      schema.exclusiveMinimum === undefined ? -Infinity : schema.exclusiveMinimum + 1,
    ),
  );
  const max = Math.floor(
    Math.min(
      schema.maximum ?? Number.MAX_SAFE_INTEGER,
      schema.exclusiveMaximum === undefined ? Infinity : schema.exclusiveMaximum - 1,
    ),
  );
  const corners = [min, max, 0, 1, -1, 2, min + 1, max - 1].filter((n) => n >= min && n <= max);
  const small = Math.max(min, -3);
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max }) },
    // Small values near the bottom of the range (a range that starts above 50 has none below it).
    { weight: 1, arbitrary: fc.integer({ min: small, max: Math.max(small, Math.min(max, 50)) }) },
    { weight: 2, arbitrary: fc.constantFrom(...corners) },
  );
}

/** Doubles in the schema's bounds, with the bounds, tiny and huge values among them. */
function numbers(schema: JsonSchema): Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -Number.MAX_VALUE;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? Number.MAX_VALUE;
  const inside = (n: number) =>
    n >= min &&
    n <= max &&
    (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
    (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum);
  const corners = [
    min,
    max,
    0,
    -0,
    1,
    -1,
    0.5,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    1e-300,
    1e300,
    -1e300,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MAX_SAFE_INTEGER,
    min + Number.EPSILON * Math.abs(min),
    max - Number.EPSILON * Math.abs(max),
  ].filter((n) => Number.isFinite(n) && inside(n));
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter(inside),
    },
    { weight: 2, arbitrary: fc.constantFrom(...corners) },
  );
}

function strings(schema: JsonSchema, known: readonly string[]): Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 200;
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u');
  const fits = (s: string) =>
    [...s].length >= minLength && [...s].length <= maxLength && (pattern?.test(s) ?? true);
  const options: Array<{ weight: number; arbitrary: Arbitrary<string> }> = [];
  if (schema.pattern === DATE_PATTERN) {
    options.push({ weight: 6, arbitrary: dates });
  } else if (pattern !== null) {
    options.push({ weight: 2, arbitrary: fc.stringMatching(pattern).filter(fits) });
  } else {
    options.push(
      { weight: 2, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, 24) }) },
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 40) })
          .filter(fits),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('\u0000', '%', '_', '\\', 'é', '👍🏽', ' ', 'x'.repeat(500))
          .filter(fits),
      },
    );
  }
  const usable = known.filter(fits);
  // Dates the data holds cut its events apart: most date fields take one of them.
  const knownWeight = schema.pattern === DATE_PATTERN ? 12 : 3;
  if (usable.length > 0) {
    options.push({ weight: knownWeight, arbitrary: fc.constantFrom(...usable) });
  }
  // Upper and lower case variants of the data's own names (country codes, ids).
  const cased = usable.flatMap((s) => [s.toUpperCase(), s.toLowerCase()]).filter(fits);
  if (cased.length > 0) options.push({ weight: 1, arbitrary: fc.constantFrom(...cased) });
  return fc.oneof(...options);
}

/** An arbitrary of values `schema` accepts (JSON Schema 2020-12, the subset above). */
export function schemaArbitrary(
  schema: JsonSchema,
  options: SchemaArbitraryOptions,
): Arbitrary<unknown> {
  const known = options.knownStrings ?? [];
  const maxArray = options.maxArrayItems ?? 8;
  const of = (s: JsonSchema): Arbitrary<unknown> => {
    if (s.$ref !== undefined) return of(options.resolve(s.$ref));
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum !== undefined) return fc.constantFrom(...s.enum);
    const union = s.anyOf ?? s.oneOf;
    if (union !== undefined) return fc.oneof(...union.map(of));
    if (s.allOf !== undefined && s.allOf.length === 1) return of(s.allOf[0]);
    const types = typesOf(s);
    if (types.length > 1) return fc.oneof(...types.map((type) => of({ ...s, type })));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integers(s);
      case 'number':
        return numbers(s);
      case 'string':
        return strings(s, known);
      case 'array': {
        const minLength = s.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(s.maxItems ?? maxArray, maxArray));
        const items = of(s.items ?? {});
        return s.uniqueItems === true
          ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength, maxLength });
      }
      case 'object': {
        const properties = s.properties ?? {};
        const required = new Set(s.required ?? []);
        // Each optional member is sent one time in three: a body naming every member at once
        // nearly always names something the data lacks, and never reaches the engine.
        const record: Record<string, Arbitrary<unknown>> = {};
        for (const [key, value] of Object.entries(properties)) {
          record[key] = required.has(key)
            ? of(value)
            : fc.oneof(
                { weight: 2, arbitrary: fc.constant(ABSENT) },
                { weight: 1, arbitrary: of(value) },
              );
        }
        return fc
          .record(record)
          .map((members) =>
            Object.fromEntries(Object.entries(members).filter(([, v]) => v !== ABSENT)),
          );
      }
      default:
        // An unconstrained schema: any small JSON value.
        return fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }));
    }
  };
  return of(schema);
}
