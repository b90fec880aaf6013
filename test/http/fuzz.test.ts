/**
 * Property-based fuzzing of every POST route in the OpenAPI document (fast-check): generated
 * bodies with wrong types, deep nesting, huge numbers, long strings, odd unicode and prototype
 * keys must never cause a 500; every answer is a documented 200 or a documented problem. Then
 * bodies the route's own schema accepts, generated from the served document: a valid request
 * the engine cannot honour is a 400 problem or an empty answer, never a 500, and health keeps
 * answering throughout (docs/http-api.md#bounds). MUSTER_FUZZ_RUNS scales the runs,
 * MUSTER_FUZZ_SEED replays one.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildTestApp, demoSlice, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { mediaType, OpenApiContract } from '../support/openapi-contract.ts';
import { schemaArbitrary } from '../support/schema-arbitrary.ts';
import type { JsonSchema } from '../support/schema-arbitrary.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const RUNS_PER_ROUTE = Number(process.env.MUSTER_FUZZ_RUNS ?? 350);
/** Schema-valid bodies reach the engine and cost more each: a third as many by default. */
const VALID_RUNS_PER_ROUTE = Math.max(1, Math.round(RUNS_PER_ROUTE / 3));
const SEED =
  process.env.MUSTER_FUZZ_SEED === undefined ? {} : { seed: Number(process.env.MUSTER_FUZZ_SEED) };
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** Serialises [key, value] pairs as a JSON object, keeping keys like __proto__ verbatim. */
function objectText(pairs: Array<[string, unknown]>): string {
  return `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
}

function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return objectText(Object.entries(value as Record<string, unknown>));
  }
  return JSON.stringify(value) ?? 'null';
}

/** A fragment written as-is (numbers JSON.stringify cannot produce, odd nesting). */
class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

const oddNumbers = fc.constantFrom(
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('-0'),
  new RawJson('1E-400'),
  new RawJson('0.0000000000000000000001'),
);

const strings = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 200, maxLength: 2000 }),
  fc.constantFrom('', ' ', '\u0000', '\uFEFF', '\uD800', 'e\u0301', '👍🏽', '١٢٣', 'NaN', 'null'),
  fc.constantFrom('2025-01-01', '2025-02-30', '0000-00-00', '9999-12-31', '2025-1-1', 'DE', 'HE'),
);

const scalars = fc.oneof(
  fc.integer(),
  fc.integer({ min: -3, max: 300 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -Number.MAX_VALUE, Number.MIN_VALUE, 1e21),
  oddNumbers,
  fc.boolean(),
  fc.constant(null),
  strings,
);

const deep = fc
  .integer({ min: 20, max: 400 })
  .chain((depth) =>
    fc.constantFrom(
      new RawJson('['.repeat(depth) + ']'.repeat(depth)),
      new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
    ),
  );

const { value: values } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalars,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.array(fc.string({ maxLength: 6 }), { minLength: 95, maxLength: 110 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...PROTO_KEYS)),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
    deep,
  ),
}));

function bodiesFor(keys: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 6, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : fc.string() },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const object = fc
    .uniqueArray(fc.tuple(key, values), { maxLength: 6, selector: ([k]) => k })
    .map((pairs) => objectText(pairs as Array<[string, unknown]>));
  const notObject = fc.oneof(
    values.map(jsonText),
    fc.string({ maxLength: 50 }),
    fc.constantFrom('', '{', '{"a":1,}', '{"a" 1}', 'undefined', '{}{}', '\uFEFF{}'),
  );
  return fc.oneof({ weight: 8, arbitrary: object }, { weight: 2, arbitrary: notObject });
}

/** A problem pointing at a team member's faction or a pairing matrix's cell. */
const ENGINE_POINTER = /"pointer":"\/(team[AB]\/\d+\/faction|matrix\/\d+\/\d+)"/;

describe(`fuzzing the POST routes (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let contract: OpenApiContract;

  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
    contract = await OpenApiContract.load(t.app);
  });
  after(() => t.close());

  it('finds POST routes to fuzz in the OpenAPI document', () => {
    assert.ok(contract.operations('post').length > 0);
  });

  it(`never answers a generated body with a 500 (${RUNS_PER_ROUTE} bodies per route)`, async (ctx) => {
    for (const path of contract.operations('post')) {
      const media = contract.operation(path, 'post').requestBody?.content['application/json'];
      const keys = Object.keys(
        (media?.schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
      );
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(bodiesFor(keys), async (payload) => {
          const response = await t.app.inject({
            method: 'POST',
            url: path,
            headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
            payload,
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          assert.ok(
            response.statusCode < 500,
            `${path} ${payload.slice(0, 300)} -> ${response.body}`,
          );
          contract.assertResponse(path, 'post', response);
        }),
        { numRuns: RUNS_PER_ROUTE, ...SEED },
      );
      ctx.diagnostic(`${path}: ${JSON.stringify(Object.fromEntries(statuses))}`);
      assert.ok((statuses.get(400) ?? 0) > 0, `${path}: no body was refused`);
    }
  });

  it(`never answers a body its schema accepts with a 500; every error is a problem and health answers throughout (${VALID_RUNS_PER_ROUTE} bodies per route)`, async (ctx) => {
    const schemas = contract.document.components?.schemas ?? {};
    const resolve = (ref: string): JsonSchema => {
      const schema = schemas[ref.replace('#/components/schemas/', '')];
      assert.ok(schema !== undefined, `unresolved ${ref}`);
      return schema as JsonSchema;
    };
    // The names the data holds (systems, factions, players, events, countries...) and days
    // that cut its events apart, so that generated bodies reach the engine, not only the checks.
    const filters = await t.app.inject({ method: 'GET', url: '/api/filters' });
    assert.equal(filters.statusCode, 200, filters.body);
    const known = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === 'string' && value.length <= 60) known.add(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(filters.json());
    // Players, so that a forecast's two players are sometimes both in the data.
    for (const player of demoSlice().players ?? []) known.add(player.id);
    for (const event of demoSlice().events ?? []) {
      known.add(event.id);
      for (const offset of [-1, 0, 1]) {
        const day = new Date(Date.parse(event.start) + offset * 86_400_000);
        known.add(day.toISOString().slice(0, 10));
      }
    }
    const health = async (when: string) => {
      const response = await t.app.inject({ method: 'GET', url: '/api/health' });
      assert.equal(response.statusCode, 200, `health ${when}: ${response.body.slice(0, 300)}`);
    };
    for (const path of contract.operations('post')) {
      const media = contract.operation(path, 'post').requestBody?.content['application/json'];
      assert.ok(media?.schema !== undefined, `${path} documents no request schema`);
      const bodies = schemaArbitrary(media.schema as JsonSchema, {
        resolve,
        knownStrings: [...known],
      });
      const statuses = new Map<number, number>();
      let sent = 0;
      let lastRefusal = '';
      let engineRefusals = 0;
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          // The generator follows the schema; the served document is the judge of that.
          assert.deepEqual(contract.requestErrors(path, body), [], JSON.stringify(body));
          const response = await t.app.inject({
            method: 'POST',
            url: path,
            headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const what = `${path} ${JSON.stringify(body).slice(0, 400)}`;
          assert.ok(response.statusCode < 500, `${what} -> ${response.body.slice(0, 300)}`);
          if (response.statusCode >= 400) {
            assert.equal(mediaType(response.headers['content-type']), 'application/problem+json');
            const problem = response.json() as {
              type?: unknown;
              title?: unknown;
              status?: unknown;
            };
            assert.match(String(problem.type), /^\/problems\/[a-z-]+$/, what);
            assert.equal(typeof problem.title, 'string', what);
            assert.equal(problem.status, response.statusCode, what);
          }
          if (response.statusCode >= 400) lastRefusal = response.body.slice(0, 200);
          if (response.statusCode === 400 && ENGINE_POINTER.test(response.body)) {
            engineRefusals += 1;
          }
          contract.assertResponse(path, 'post', response);
          sent += 1;
          if (sent % 25 === 0) await health(`after ${sent} bodies on ${path}`);
        }),
        { numRuns: VALID_RUNS_PER_ROUTE, ...SEED },
      );
      await health(`after ${path}`);
      ctx.diagnostic(`${path}: ${JSON.stringify(Object.fromEntries(statuses))} ${lastRefusal}`);
      // A forecast names four ids that must all be in the data together, which random bodies
      // seldom hit: its 404s (answered by the engine's look-up) show the bodies reached it.
      // A team matrix names up to sixteen factions that must all be the system's, and a pairing
      // matrix's cells must all be within its gameTotal: refusals the engine makes (pointing at a
      // faction or a cell) show the bodies reached it.
      const teams = path === '/api/team-matrix' || path === '/api/team-pairing';
      // A projection names one event among the known strings (players, dates, events): its 404s
      // likewise.
      const reached =
        path === '/api/forecast' || path === '/api/event-projection'
          ? statuses.get(404)
          : (statuses.get(200) ?? 0) + (teams ? engineRefusals : 0);
      assert.ok((reached ?? 0) > 0, `${path}: no valid body was answered`);
    }
  });
});
