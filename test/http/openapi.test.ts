/**
 * GET /.well-known/openapi.json (DESIGN.md §6 "Discovery"): a valid OpenAPI 3.1 document
 * generated from the route schemas, with the API version, servers, tags, limits and only the
 * public routes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_VERSION } from '../../src/version.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { mediaType } from '../support/openapi-contract.ts';
import type { OpenApiDocument } from '../support/openapi-contract.ts';

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  before(async () => {
    t = await buildTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.equal(mediaType(response.headers['content-type']), 'application/json');
    document = response.json() as OpenApiDocument;
  });
  after(() => t.close());

  it('passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(document) as unknown as Record<string, unknown>,
    );
    assert.equal(validator.version, '3.1');
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
  });

  it('declares openapi 3.1.0 and the API version, matching the API-Version header', async () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, API_VERSION);
    assert.match(API_VERSION, /^\d+\.\d+\.\d+$/);
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(response.headers['api-version'], document.info.version);
  });

  it('documents the limits and the origin rule in info.description', () => {
    const description = document.info.description ?? '';
    assert.match(description, /16 KiB/);
    assert.match(description, /100 entries/);
    assert.match(description, /200/);
    assert.match(description, new RegExp(`${t.config.rateLimitMax} requests per 60 s`));
    assert.match(description, /Origin/);
  });

  it('derives servers from the request when no public URL is configured', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/.well-known/openapi.json',
      headers: { host: 'stats.local:9000' },
    });
    assert.deepEqual(
      (response.json() as OpenApiDocument).servers?.map((s) => s.url),
      ['http://stats.local:9000'],
    );
  });

  it('ignores a malformed Host header when deriving servers', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/.well-known/openapi.json',
      headers: { host: 'evil.test/"><script>' },
    });
    const urls = (response.json() as OpenApiDocument).servers?.map((s) => s.url) ?? [];
    assert.deepEqual(urls, [`http://${t.config.host}:${t.config.port}`]);
  });

  it('uses MUSTER_PUBLIC_URL for servers when configured', async () => {
    const other = await buildTestApp({
      env: { MUSTER_PUBLIC_URL: 'https://stats.example.org/muster/' },
    });
    try {
      const response = await other.app.inject({
        method: 'GET',
        url: '/.well-known/openapi.json',
        headers: { host: 'internal:8080' },
      });
      assert.deepEqual(
        (response.json() as OpenApiDocument).servers?.map((s) => s.url),
        ['https://stats.example.org/muster'],
      );
    } finally {
      await other.close();
    }
  });

  it('sends application/openapi+json when asked for it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/.well-known/openapi.json',
      headers: { accept: 'application/openapi+json' },
    });
    assert.equal(mediaType(response.headers['content-type']), 'application/openapi+json');
  });

  it('lists health, the discovery documents and the POST routes, each tagged and summarised', () => {
    assert.ok(document.paths['/api/health']?.get);
    assert.ok(document.paths['/.well-known/openapi.json']?.get);
    assert.ok(document.paths['/.well-known/api-catalog']?.get);
    const posts = Object.keys(document.paths).filter((p) => document.paths[p].post);
    assert.ok(posts.length > 0, 'no POST route documented');
    const tags = new Set(document.tags?.map((tag) => tag.name));
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.summary, `${method} ${path}: summary`);
        assert.ok(op.tags?.length, `${method} ${path}: tags`);
        for (const tag of op.tags ?? []) assert.ok(tags.has(tag), `${method} ${path}: tag ${tag}`);
      }
    }
  });

  it('hides internal routes: docs assets, preflights, 405 companions and HEAD', () => {
    for (const path of Object.keys(document.paths)) {
      assert.ok(!path.startsWith('/docs'), path);
      for (const method of Object.keys(document.paths[path])) {
        assert.ok(['get', 'post'].includes(method), `${method} ${path}`);
      }
      if (document.paths[path].post) assert.equal(document.paths[path].get, undefined, path);
    }
  });

  it('names the shared Problem schema and uses it for every problem response', () => {
    assert.ok(document.components?.schemas?.Problem);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const problem = response.content?.['application/problem+json'];
          if (Number(status) >= 400 && path !== '/api/health') {
            assert.ok(problem, `${method} ${path} ${status}`);
            assert.deepEqual(problem.schema, { $ref: '#/components/schemas/Problem' });
          }
        }
        assert.ok(op.responses['500'], `${method} ${path}: 500`);
      }
    }
  });

  it('documents health as application/health+json', () => {
    const content = document.paths['/api/health'].get.responses['200'].content ?? {};
    assert.deepEqual(Object.keys(content), ['application/health+json']);
  });
});
