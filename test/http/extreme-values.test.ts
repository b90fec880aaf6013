/**
 * Extreme values for every numeric request field of every POST route, read from the served
 * OpenAPI document (nested objects too): each request answers a 200 or a 400/422 problem within
 * a bound, never a 500, and GET /api/health keeps answering while they run (docs/http-api.md,
 * "Bounds").
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DATE_PATTERN } from '../../src/domain/calendar-day.ts';
import { OpenApiContract } from '../support/openapi-contract.ts';
import { TEST_ORIGIN, buildTestApp, demoSlice } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/**
 * A request may take this long, or 20 times its route's plain request measured just before,
 * whichever is more: on a loaded machine every answer slows together, while a hang or a loop that
 * a number drives takes far longer than either.
 */
const REQUEST_BOUND_MS = 2_000;
const BOUND_OVER_PLAIN = 20;
const HEALTH_BOUND_MS = 2_000;

interface Schema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  $ref?: string;
  required?: string[];
  pattern?: string;
  items?: Schema;
}

/** A numeric leaf of a request body, and the enum-valued siblings on its way (e.g. method). */
interface NumericField {
  path: string[];
  schema: Schema;
  switches: Array<{ path: string[]; values: unknown[] }>;
  /** Required numeric siblings (e.g. near.lon and near.radiusKm for near.lat), at valid values. */
  siblings: Array<{ path: string[]; value: number }>;
}

function types(schema: Schema): string[] {
  return schema.type === undefined ? [] : [schema.type].flat();
}

/** The constant values a schema allows (enum, const, or a union of them); empty otherwise. */
function constants(schema: Schema): unknown[] {
  if (schema.enum !== undefined) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const members = schema.anyOf ?? schema.oneOf;
  if (members === undefined) return [];
  const values = members.map(constants);
  return values.every((v) => v.length > 0) ? values.flat() : [];
}

function isNumeric(schema: Schema): boolean {
  return types(schema).some((t) => t === 'number' || t === 'integer');
}

/** A value the schema accepts: its minimum, just above an exclusive minimum, or 1. */
function validSample(schema: Schema): number {
  if (schema.minimum !== undefined) return schema.minimum;
  if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + 1;
  return 1;
}

function numericFields(
  schema: Schema,
  resolve: (s: Schema) => Schema,
  path: string[] = [],
  switches: NumericField['switches'] = [],
  siblings: NumericField['siblings'] = [],
): NumericField[] {
  const s = resolve(schema);
  if (isNumeric(s)) {
    const others = siblings.filter((o) => o.path.join('/') !== path.join('/'));
    return [{ path, schema: s, switches, siblings: others }];
  }
  const members = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
  if (members.length > 0) {
    return members.flatMap((m) => numericFields(m, resolve, path, switches, siblings));
  }
  if (s.properties === undefined) return [];
  const here = [...switches];
  const required: NumericField['siblings'] = [];
  for (const [key, child] of Object.entries(s.properties)) {
    const resolved = resolve(child);
    const values = constants(resolved);
    if (values.length > 0) here.push({ path: [...path, key], values });
    if (isNumeric(resolved) && (s.required ?? []).includes(key)) {
      required.push({ path: [...path, key], value: validSample(resolved) });
    }
  }
  return Object.entries(s.properties).flatMap(([key, child]) =>
    numericFields(child, resolve, [...path, key], here, required),
  );
}

/** Values at and around the field's bounds, plus the extremes of a double. */
function extremes(schema: Schema): Array<{ value: number; valid: boolean }> {
  const integer = types(schema).includes('integer');
  const values = new Set<number>([0, -1, 1, 1e308, -1e308, 1e-308, -1e-308, 1e21, -1e21, 0.5]);
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  for (const bound of [low, high]) {
    if (bound === undefined) continue;
    for (const delta of [0, 1, -1, 1e-9, -1e-9, 0.5, -0.5, 1e-300]) values.add(bound + delta);
    values.add(bound * 10);
  }
  if (schema.exclusiveMinimum !== undefined) values.add(schema.exclusiveMinimum + 1e-300);
  return [...values].map((value) => ({
    value,
    valid:
      (!integer || Number.isInteger(value)) &&
      (schema.minimum === undefined || value >= schema.minimum) &&
      (schema.maximum === undefined || value <= schema.maximum) &&
      (schema.exclusiveMinimum === undefined || value > schema.exclusiveMinimum) &&
      (schema.exclusiveMaximum === undefined || value < schema.exclusiveMaximum),
  }));
}

/** The date fields (YYYY-MM-DD strings) of a request body, nested objects too. */
function dateFields(
  schema: Schema,
  resolve: (s: Schema) => Schema,
  path: string[] = [],
): string[][] {
  const s = resolve(schema);
  if (types(s).includes('string') && s.pattern === DATE_PATTERN) return [path];
  const members = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
  if (members.length > 0) return members.flatMap((m) => dateFields(m, resolve, path));
  return Object.entries(s.properties ?? {}).flatMap(([key, child]) =>
    dateFields(child, resolve, [...path, key]),
  );
}

function setPath(body: Record<string, unknown>, path: string[], value: unknown): void {
  let node = body;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/** Bodies for one value: alone, and with each value of each enum sibling on its way. */
function bodies(
  field: NumericField,
  value: number,
  valid: boolean,
): Array<Record<string, unknown>> {
  const with_ = (extra?: { path: string[]; value: unknown }) => {
    const body: Record<string, unknown> = {};
    for (const sibling of field.siblings) setPath(body, sibling.path, sibling.value);
    if (extra !== undefined) setPath(body, extra.path, extra.value);
    setPath(body, field.path, value);
    return body;
  };
  if (!valid) return [with_()];
  return [
    with_(),
    ...field.switches.flatMap((s) => s.values.map((v) => with_({ path: s.path, value: v }))),
  ];
}

describe(`extreme numeric values on every POST route (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let contract: OpenApiContract;

  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
    // The bound is on answering, not on starting the engine thread the routes compute on.
    await t.engineThread.start();
    contract = await OpenApiContract.load(t.app);
  });
  after(() => t.close());

  const post = async (url: string, body: unknown) => {
    const started = performance.now();
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    return { response, ms: performance.now() - started };
  };

  it('answers a Glicko-2 tau of 1e-30 within a second, with a 400 or a rating', async () => {
    const { response, ms } = await post('/api/rankings', { glicko2: { tau: 1e-30 } });
    assert.ok([200, 400].includes(response.statusCode), response.body);
    assert.ok(ms < 1_000, `took ${ms} ms`);
  });

  it('answers inverted and degenerate date windows on every route with a 200 or a 400 problem, never a 500', async (ctx) => {
    const resolve = (s: Schema): Schema => {
      if (s.$ref === undefined) return s;
      const name = s.$ref.replace('#/components/schemas/', '');
      return resolve((contract.document.components?.schemas?.[name] ?? {}) as Schema);
    };
    // Far past and future, and days that cut the data's events apart (asOf before from once
    // selected a negative row range and answered 500).
    const starts = (demoSlice().events ?? []).map((e) => e.start).sort();
    const days = [...new Set(['0001-01-01', starts[0], starts[starts.length - 1], '9999-12-31'])];
    let requests = 0;
    const fieldsSeen: string[] = [];
    for (const path of contract.operations('post')) {
      const media = contract.operation(path, 'post').requestBody?.content['application/json'];
      if (media?.schema === undefined) continue;
      const fields = dateFields(media.schema as Schema, resolve);
      fieldsSeen.push(...fields.map((f) => `${path}#/${f.join('/')}`));
      const bodies: Array<Record<string, unknown>> = [];
      for (const a of fields) {
        for (const day of days) bodies.push(Object.fromEntries([[a.join('/'), day]]));
        for (const b of fields) {
          // Pairs of fields of one object (from and asOf, compareTo's from and to).
          if (a === b || a.slice(0, -1).join('/') !== b.slice(0, -1).join('/')) continue;
          for (const later of days) {
            for (const earlier of days) {
              if (earlier >= later) continue;
              bodies.push(
                Object.fromEntries([
                  [a.join('/'), later],
                  [b.join('/'), earlier],
                ]),
              );
            }
          }
        }
      }
      for (const flat of bodies) {
        const body: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(flat)) setPath(body, key.split('/'), value);
        const { response } = await post(path, body);
        requests += 1;
        assert.ok(
          response.statusCode === 200 || response.statusCode === 400,
          `${path} ${JSON.stringify(body)} -> ${response.statusCode} ${response.body.slice(0, 300)}`,
        );
        contract.assertResponse(path, 'post', response);
      }
    }
    ctx.diagnostic(`${fieldsSeen.length} date fields, ${requests} requests`);
    assert.ok(fieldsSeen.includes('/api/rankings#/asOf'), fieldsSeen.join(', '));
  });

  it('answers extreme values for every numeric field with a 200 or a problem, in bounded time, while health answers', async (ctx) => {
    const resolve = (s: Schema): Schema => {
      if (s.$ref === undefined) return s;
      const name = s.$ref.replace('#/components/schemas/', '');
      return resolve((contract.document.components?.schemas?.[name] ?? {}) as Schema);
    };
    let running = true;
    let healthAnswers = 0;
    let slowestHealth = 0;
    const health = (async () => {
      while (running) {
        const started = performance.now();
        const response = await t.app.inject({ method: 'GET', url: '/api/health' });
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        assert.ok(response.statusCode < 500 || response.statusCode === 503, response.body);
        healthAnswers += 1;
        await sleep(20);
      }
    })();

    let requests = 0;
    let slowest = { ms: 0, what: '' };
    const fieldsSeen: string[] = [];
    try {
      for (const path of contract.operations('post')) {
        const media = contract.operation(path, 'post').requestBody?.content['application/json'];
        if (media?.schema === undefined) continue;
        const plain: number[] = [];
        for (let i = 0; i < 3; i++) plain.push((await post(path, {})).ms);
        const bound = Math.max(REQUEST_BOUND_MS, BOUND_OVER_PLAIN * plain.sort((a, b) => a - b)[1]);
        for (const field of numericFields(media.schema as Schema, resolve)) {
          fieldsSeen.push(`${path}#/${field.path.join('/')}`);
          for (const { value, valid } of extremes(field.schema)) {
            for (const body of bodies(field, value, valid)) {
              const { response, ms } = await post(path, body);
              requests += 1;
              const what = `${path} ${JSON.stringify(body)}`;
              if (ms > slowest.ms) slowest = { ms, what };
              assert.ok(
                response.statusCode === 200 ||
                  response.statusCode === 400 ||
                  response.statusCode === 422,
                `${what} -> ${response.statusCode} ${response.body.slice(0, 300)}`,
              );
              contract.assertResponse(path, 'post', response);
              assert.ok(
                ms < bound,
                `${what} took ${Math.round(ms)} ms (bound ${Math.round(bound)} ms)`,
              );
            }
          }
        }
      }
    } finally {
      running = false;
      await health;
    }
    ctx.diagnostic(
      `${fieldsSeen.length} numeric fields, ${requests} requests; slowest ${Math.round(slowest.ms)} ms (${slowest.what}); ${healthAnswers} health answers, slowest ${Math.round(slowestHealth)} ms`,
    );
    for (const expected of ['/api/rankings#/glicko2/tau', '/api/upcoming-satellites#/near/lat']) {
      assert.ok(fieldsSeen.includes(expected), `${expected} not found in ${fieldsSeen.join(', ')}`);
    }
    assert.ok(healthAnswers > 0);
    assert.ok(slowestHealth < HEALTH_BOUND_MS, `health took ${Math.round(slowestHealth)} ms`);
  });
});
