/**
 * GET /: the built dashboard served by Muster itself (docs/operations.md#web-client): the page
 * with a strict Content-Security-Policy, hashed assets cached for good, none of it counted by
 * the rate limit, and a problem saying how to build it when it is not built.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { installProblemHandlers } from '../../src/http/problem-handler.ts';
import { WEB_CLIENT_ROOT, registerWebClientRoutes } from '../../src/http/routes/web-client.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const built = existsSync(join(WEB_CLIENT_ROOT, 'index.html'));
const notBuilt = built
  ? false
  : 'web/dist is not built (npm test builds it first; npm run build:web)';
if (notBuilt && process.env.CI === 'true') assert.fail(`${notBuilt}; CI requires it`);

describe(`the dashboard's files at / (${TEST_BACKEND})`, { skip: notBuilt }, () => {
  let test: TestApp;
  before(async () => {
    test = await buildTestApp({ env: { MUSTER_RATE_LIMIT_MAX: '2' } });
  });
  after(() => test.close());

  it('serves the page with a strict Content-Security-Policy and revalidation', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.body, /<div id="app">/);
    assert.equal(response.headers['cache-control'], 'no-cache');
    const csp = String(response.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.doesNotMatch(response.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'an inline script');
    assert.doesNotMatch(response.body, /https?:\/\//, 'a reference off the service');
  });

  it('serves every built asset, cached for good, without counting it in the rate limit', async () => {
    const assets = readdirSync(join(WEB_CLIENT_ROOT, 'assets'));
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')));
    for (let round = 0; round < 3; round++) {
      for (const url of ['/', '/favicon.svg', ...assets.map((a) => `/assets/${a}`)]) {
        const response = await test.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200, url);
        if (url.startsWith('/assets/')) {
          assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
        }
      }
    }
    const missing = await test.app.inject({ method: 'GET', url: '/assets/nothing-here.js' });
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
  });

  it('keeps the client out of the OpenAPI document', async () => {
    const document = (
      await test.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })
    ).json();
    const paths = Object.keys(document.paths as object);
    assert.ok(paths.includes('/api/filters'));
    assert.ok(!paths.some((p) => p === '/' || p.startsWith('/assets')), paths.join(', '));
  });
});

describe('GET / without a built client', () => {
  it('answers a 503 problem that says how to build it', async () => {
    const app = Fastify({ logger: false });
    installProblemHandlers(app);
    registerWebClientRoutes(app, '/nonexistent/web/dist');
    const response = await app.inject({ method: 'GET', url: '/' });
    assert.equal(response.statusCode, 503);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.match(response.json().detail, /npm run build:web/);
    await app.close();
  });
});
