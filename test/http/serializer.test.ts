/**
 * Response serialisation (docs/http-api.md#the-envelope): each route's response schema is
 * rewritten into a form fast-json-stringify serialises without validating (nullable `anyOf` as
 * type arrays, unions of string constants as enums). The rewrite must not change a byte: every
 * statistics answer serialised from the rewritten schema equals the one serialised from the
 * schema as written, and the schemas the OpenAPI document publishes are untouched.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fastJson from 'fast-json-stringify';
import type { Schema } from 'fast-json-stringify';
import { serializableSchema } from '../../src/http/plugins/serializer.ts';
import { STATS_ROUTES } from '../../src/http/routes/index.ts';
import {
  TEST_ORIGIN,
  buildTestApp,
  demoSlice,
  forecastBodyOf,
  projectionBodyOf,
} from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/** Bodies that reach a route's optional parts (series, intervals, pages); else the empty body. */
const BODIES: Record<string, Array<Record<string, unknown>>> = {
  '/api/faction-stats': [
    {},
    { groupBy: 'quarter', interval: 'event-clustered', compareTo: { to: '2025-06-30' } },
  ],
  '/api/army-matchup': [{}, { minGames: 5 }, { skillAdjusted: true }],
  '/api/item-use-stats': [{ pageSize: 200 }, { sort: 'delta' }],
  '/api/scenario-stats': [{}, { interval: 'event-clustered' }],
  '/api/rankings': [{ pageSize: 200 }, { method: 'points' }],
  '/api/forecast': [forecastBodyOf(demoSlice())],
  '/api/event-projection': [projectionBodyOf(demoSlice())],
  '/api/team-matrix': [teamsOf(forecastBodyOf(demoSlice()))],
  '/api/team-pairing': [
    {
      format: 'defender-attacker',
      matrix: [
        [10, 12, 8],
        [9, 10, 14],
        [13, 6, 10],
      ],
      gameTotal: 20,
    },
  ],
};

/** Two teams of two from a forecast's players and factions. */
function teamsOf(b: Record<string, string>): Record<string, unknown> {
  const team = [
    { player: b.player1, faction: b.faction1 },
    { player: b.player2, faction: b.faction2 },
  ];
  return { teamA: team, teamB: team };
}

/** Every statistics route, its response schema and the bodies it is asked. */
const ROUTES: Array<[string, unknown, Array<Record<string, unknown>>]> = STATS_ROUTES.map(
  (route) => [route.path, route.response, BODIES[route.path] ?? [{}]],
);

/** Every `anyOf` left in a schema, by the JSON pointer of the node holding it. */
function anyOfs(node: unknown, pointer = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const here = Array.isArray((node as { anyOf?: unknown }).anyOf) ? [pointer] : [];
  return here.concat(
    ...Object.entries(node).map(([key, value]) => anyOfs(value, `${pointer}/${key}`)),
  );
}

describe(`response serialisation (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
  });
  after(() => t.close());

  it('serialises every statistics answer byte for byte as the schema as written does', async () => {
    for (const [url, schema, bodies] of ROUTES) {
      const asWritten = fastJson(schema as Schema);
      const rewritten = fastJson(serializableSchema(schema) as Schema);
      for (const body of bodies) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: { origin: TEST_ORIGIN },
          payload: body,
        });
        assert.equal(response.statusCode, 200, `${url} ${response.body}`);
        const answer: unknown = response.json();
        assert.equal(rewritten(answer), asWritten(answer), `${url} ${JSON.stringify(body)}`);
        assert.equal(response.body, asWritten(answer), `${url} served as the schema says`);
      }
    }
  });

  it('leaves no nullable or constant-union anyOf for the serialiser to validate', () => {
    for (const [url, schema] of ROUTES) {
      assert.deepEqual(anyOfs(serializableSchema(schema)), [], url);
      assert.ok(anyOfs(schema).length > 0, `${url}: the schema as written keeps its anyOf`);
    }
  });

  it('keeps nulls, enums and descriptions of a nullable field', () => {
    const schema = {
      type: 'object',
      properties: {
        rate: { anyOf: [{ type: 'number' }, { type: 'null' }], description: 'a rate' },
        kind: {
          anyOf: [
            { const: 'a', type: 'string' },
            { const: 'b', type: 'string' },
          ],
        },
        interval: {
          anyOf: [
            { type: 'object', properties: { low: { type: 'number' } }, required: ['low'] },
            { type: 'null' },
          ],
        },
      },
    };
    assert.deepEqual(serializableSchema(schema), {
      type: 'object',
      properties: {
        rate: { type: ['number', 'null'], description: 'a rate' },
        kind: { type: 'string', enum: ['a', 'b'] },
        interval: {
          type: ['object', 'null'],
          properties: { low: { type: 'number' } },
          required: ['low'],
        },
      },
    });
    const write = fastJson(serializableSchema(schema) as Schema);
    assert.equal(
      write({ rate: null, kind: 'b', interval: null }),
      '{"rate":null,"kind":"b","interval":null}',
    );
    assert.equal(
      write({ rate: 0.5, kind: 'a', interval: { low: 0.25 } }),
      '{"rate":0.5,"kind":"a","interval":{"low":0.25}}',
    );
  });
});
