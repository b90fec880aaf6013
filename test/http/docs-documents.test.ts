/**
 * The OpenAPI document is built once per start and the docs page counts against the rate limit
 * (docs/http-api.md#discovery, #limits): /docs/yaml once rebuilt and re-encoded the document
 * on every request (30 ms of CPU, 385 KB) without any limit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const DOCUMENT_PATHS = ['/.well-known/openapi.json', '/docs/json', '/docs/yaml'];

describe(`the OpenAPI document and the docs page (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let builds = 0;

  before(async () => {
    t = await buildTestApp({ env: { MUSTER_RATE_LIMIT_MAX: '4' } });
    // Counts the generations of the document: every answer below must reuse the first one.
    const app = t.app as unknown as { swagger: (...args: unknown[]) => unknown };
    const generate = app.swagger.bind(app);
    app.swagger = (...args: unknown[]) => {
      builds += 1;
      return generate(...args);
    };
  });
  after(() => t.close());

  it('builds the document once per start: every answer of every document path is the same bytes', async () => {
    const bodies = new Map<string, Set<string>>();
    for (let round = 0; round < 3; round += 1) {
      for (const url of DOCUMENT_PATHS) {
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: { host: 'docs.example:8080' },
          remoteAddress: `198.51.100.${round}`,
        });
        assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 200)}`);
        const seen = bodies.get(url) ?? new Set<string>();
        seen.add(response.body);
        bodies.set(url, seen);
      }
    }
    for (const [url, seen] of bodies) assert.equal(seen.size, 1, `${url} answered differently`);
    // @fastify/swagger is asked twice, once for the object and once for its YAML, then never.
    assert.ok(builds <= 2, `the document was generated ${builds} times for 9 answers`);
  });

  it('names this server as "/" in servers, whatever the Host, in JSON and YAML alike', async () => {
    const get = (url: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { host: 'other.example:9000' },
        remoteAddress: '198.51.100.20',
      });
    const json = (await get('/.well-known/openapi.json')).json() as {
      openapi: string;
      paths: Record<string, unknown>;
      servers: Array<{ url: string }>;
    };
    assert.deepEqual(
      json.servers.map((s) => s.url),
      ['/'],
    );
    assert.match(json.openapi, /^3\.1\./);
    assert.ok(json.paths['/api/rankings'] !== undefined);
    const docsJson = (await get('/docs/json')).json() as typeof json;
    assert.deepEqual(docsJson, json);
    const yaml = (await get('/docs/yaml')).body;
    assert.match(yaml, /^openapi: 3\.1\.0$/m);
    assert.match(yaml, /^servers:\n {2}- url: "\/"\n/m);
    assert.doesNotMatch(yaml, /other\.example/);
    assert.equal(yaml.match(/^servers:/gm)?.length, 1);
    assert.match(yaml, /^ {2}\/api\/rankings:$/m);
  });

  it('counts the docs page and its documents against the rate limit', async () => {
    const ip = '198.51.100.30';
    const remaining: string[] = [];
    for (const url of ['/docs', '/docs/json', '/docs/yaml', '/docs/static/swagger-ui.css']) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: ip });
      assert.equal(response.statusCode, 200, url);
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['3', '2', '1', '0']);
    const refused = await t.app.inject({ method: 'GET', url: '/docs/yaml', remoteAddress: ip });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().type, '/problems/rate-limited');
    const health = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: ip });
    assert.equal(health.statusCode, 200, 'health stays unlimited');
  });
});
