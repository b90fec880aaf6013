/**
 * Request limits and method/path rules (docs/http-api.md#limits, docs/problems.md): JSON only
 * (415),
 * malformed JSON (400), body size (413), 405 with Allow, 404, prototype keys, array and page
 * size limits (400), all as problem+json. Uses a test-only route and the real POST routes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { BODY_LIMIT_BYTES, MAX_ARRAY_ITEMS, MAX_PAGE_SIZE } from '../../src/http/plugins/limits.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { OpenApiContract, mediaType } from '../support/openapi-contract.ts';

const PROBE = '/api/test-limits-probe';

function assertProblem(
  response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  kind: string,
): Record<string, unknown> {
  assert.equal(response.statusCode, status);
  assert.equal(mediaType(response.headers['content-type'] as string), 'application/problem+json');
  const problem = response.json() as Record<string, unknown>;
  assert.equal(problem.type, `/problems/${kind}`);
  assert.equal(problem.status, status);
  assert.equal(typeof problem.title, 'string');
  assert.equal(typeof problem.detail, 'string');
  assert.equal(response.headers['api-version'], '1.0.0');
  return problem;
}

describe('request limits', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let contract: OpenApiContract;
  let seen: unknown[] = [];

  before(async () => {
    t = await buildTestApp({
      routes: (a) =>
        a.post(
          PROBE,
          {
            schema: {
              body: Type.Object(
                {
                  names: Type.Optional(Type.Array(Type.String(), { maxItems: MAX_ARRAY_ITEMS })),
                  nested: Type.Optional(
                    Type.Object({ value: Type.Integer() }, { additionalProperties: false }),
                  ),
                },
                { additionalProperties: false },
              ),
            },
          },
          async (request) => {
            seen.push(request.body);
            return { ok: true };
          },
        ),
    });
    app = t.app;
    contract = await OpenApiContract.load(app);
  });
  after(() => t.close());

  const post = (payload: string, contentType = 'application/json', url = PROBE) =>
    app.inject({
      method: 'POST',
      url,
      headers: { origin: TEST_ORIGIN, 'content-type': contentType },
      payload,
    });

  it('accepts application/json with a charset parameter', async () => {
    const response = await post('{"names":["a"]}', 'application/json; charset=utf-8');
    assert.equal(response.statusCode, 200);
  });

  for (const contentType of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'application/problem+json',
  ]) {
    it(`refuses a POST sent as ${contentType} with 415 before the handler`, async () => {
      seen = [];
      const response = await post('{}', contentType);
      assertProblem(response, 415, 'unsupported-media-type');
      assert.deepEqual(seen, []);
    });
  }

  it('refuses a POST with no Content-Type with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: PROBE,
      headers: { origin: TEST_ORIGIN },
    });
    assertProblem(response, 415, 'unsupported-media-type');
  });

  for (const body of ['{"names":', '{names: []}', "{'a':1}", '[1,]', 'nul', '{"a":1}}']) {
    it(`answers malformed JSON ${JSON.stringify(body)} with a 400 problem`, async () => {
      const problem = assertProblem(await post(body), 400, 'malformed-json');
      assert.ok(Array.isArray(problem.errors));
    });
  }

  it('answers an empty JSON body with a 400 problem', async () => {
    assertProblem(await post(''), 400, 'validation');
  });

  it(`answers a body over ${BODY_LIMIT_BYTES} bytes with 413 and accepts one just under`, async () => {
    const padding = (n: number) => JSON.stringify({ names: ['x'.repeat(n)] });
    const exact = padding(BODY_LIMIT_BYTES - padding(0).length);
    assert.equal(Buffer.byteLength(exact), BODY_LIMIT_BYTES);
    assert.equal((await post(exact)).statusCode, 200);
    assertProblem(
      await post(padding(BODY_LIMIT_BYTES - padding(0).length + 1)),
      413,
      'body-too-large',
    );
    assertProblem(await post(padding(20 * 1024)), 413, 'body-too-large');
  });

  it(`answers an array over ${MAX_ARRAY_ITEMS} entries with a 400 naming the field`, async () => {
    const ok = await post(JSON.stringify({ names: Array(MAX_ARRAY_ITEMS).fill('a') }));
    assert.equal(ok.statusCode, 200);
    const problem = assertProblem(
      await post(JSON.stringify({ names: Array(MAX_ARRAY_ITEMS + 1).fill('a') })),
      400,
      'validation',
    );
    const errors = problem.errors as Array<{ pointer: string }>;
    assert.ok(
      errors.some((e) => e.pointer === '/names'),
      JSON.stringify(errors),
    );
  });

  it('refuses __proto__ keys at any depth with a 400 problem, never changing behaviour', async () => {
    seen = [];
    for (const body of [
      '{"__proto__":{"names":["polluted"]}}',
      '{"nested":{"__proto__":{"value":1},"value":2}}',
      '{"names":[{"__proto__":{"isAdmin":true}}]}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
    ]) {
      const problem = assertProblem(await post(body), 400, 'validation');
      assert.match(String(problem.detail), /__proto__|constructor/);
    }
    assert.deepEqual(seen, [], 'the handler never ran');
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    assert.equal(({} as Record<string, unknown>).names, undefined);
  });

  it('treats a plain "constructor" key like any unknown field (400, not 500)', async () => {
    assertProblem(await post('{"constructor":1}'), 400, 'validation');
    assertProblem(
      await post('{"nested":{"constructor":{"name":"x"},"value":1}}'),
      400,
      'validation',
    );
  });

  for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'] as const) {
    it(`answers ${method} on a POST route with 405 and Allow: POST`, async () => {
      const response = await app.inject({ method, url: PROBE, headers: { origin: TEST_ORIGIN } });
      assert.equal(response.statusCode, 405);
      assert.equal(response.headers.allow, 'POST');
      assert.match(String(response.headers.vary), /\bOrigin\b/);
      if (method !== 'HEAD') assertProblem(response, 405, 'method-not-allowed');
    });
  }

  it('answers 405 with Allow: POST on every documented POST route', async () => {
    const paths = contract.operations('post');
    assert.ok(paths.length > 0);
    for (const path of paths) {
      const response = await app.inject({ method: 'GET', url: path });
      assertProblem(response, 405, 'method-not-allowed');
      assert.equal(response.headers.allow, 'POST', path);
    }
  });

  for (const url of [
    '/nope',
    '/api/nope',
    '/api/faction-stats/extra',
    '/.well-known/nope',
    '/API/HEALTH',
  ]) {
    it(`answers an unknown path ${url} with a 404 problem`, async () => {
      assertProblem(await app.inject({ method: 'GET', url }), 404, 'not-found');
      assertProblem(
        await app.inject({
          method: 'POST',
          url,
          headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
          payload: '{}',
        }),
        404,
        'not-found',
      );
    });
  }
});

describe('schema limits of the real POST routes', () => {
  let t: TestApp;
  let contract: OpenApiContract;

  before(async () => {
    t = await buildTestApp();
    contract = await OpenApiContract.load(t.app);
  });
  after(() => t.close());

  interface PropertySchema {
    type?: string;
    maxItems?: number;
    maximum?: number;
    maxLength?: number;
    items?: PropertySchema;
  }

  function bodyProperties(path: string): Record<string, PropertySchema> {
    const media = contract.operation(path, 'post').requestBody?.content['application/json'];
    return ((media?.schema as { properties?: Record<string, PropertySchema> } | undefined)
      ?.properties ?? {}) as Record<string, PropertySchema>;
  }

  it(`caps every top-level array at ${MAX_ARRAY_ITEMS} entries and refuses one more`, async () => {
    const paths = contract.operations('post');
    assert.ok(paths.length > 0, 'no POST route is documented yet');
    for (const path of paths) {
      for (const [name, schema] of Object.entries(bodyProperties(path))) {
        if (schema.type !== 'array') continue;
        assert.ok(
          schema.maxItems !== undefined && schema.maxItems <= MAX_ARRAY_ITEMS,
          `${path} ${name}: maxItems ${schema.maxItems}`,
        );
        const item =
          schema.items?.type === 'string' ? 'x' : schema.items?.type === 'number' ? 1 : 'x';
        const response = await t.app.inject({
          method: 'POST',
          url: path,
          headers: { origin: TEST_ORIGIN },
          payload: { [name]: Array(MAX_ARRAY_ITEMS + 1).fill(item) },
        });
        assertProblem(response, 400, 'validation');
      }
    }
  });

  it(`caps pageSize at ${MAX_PAGE_SIZE} wherever it exists`, async () => {
    for (const path of contract.operations('post')) {
      const pageSize = bodyProperties(path).pageSize;
      if (pageSize === undefined) continue;
      assert.ok(pageSize.maximum !== undefined && pageSize.maximum <= MAX_PAGE_SIZE, path);
      const response = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { origin: TEST_ORIGIN },
        payload: { pageSize: MAX_PAGE_SIZE + 1 },
      });
      const problem = assertProblem(response, 400, 'validation');
      const errors = problem.errors as Array<{ pointer: string }>;
      assert.ok(
        errors.some((e) => e.pointer === '/pageSize'),
        `${path}: ${JSON.stringify(errors)}`,
      );
    }
  });

  it('bounds the length of every free-text string field', async () => {
    for (const path of contract.operations('post')) {
      for (const [name, schema] of Object.entries(bodyProperties(path))) {
        if (
          schema.type === 'string' &&
          !('enum' in schema) &&
          !('format' in schema) &&
          !('pattern' in schema)
        ) {
          assert.ok(schema.maxLength !== undefined, `${path} ${name} has no maxLength`);
        }
        if (schema.type === 'array' && schema.items?.type === 'string') {
          const items = schema.items as PropertySchema & Record<string, unknown>;
          if (!('enum' in items) && !('pattern' in items) && !('format' in items)) {
            assert.ok(items.maxLength !== undefined, `${path} ${name}[] has no maxLength`);
          }
        }
      }
    }
  });
});
