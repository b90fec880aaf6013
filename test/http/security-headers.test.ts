/**
 * Response headers and the rate limit's edges (docs/http-api.md, "Security headers"): the
 * headers a security scanner expects on API, OpenAPI and ICS answers, a CSP that keeps /docs
 * working, preflights counted by the limit like any request, a 429 a browser can read, refused requests
 * counted, and Redis in health when it is configured.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { browserMissing, launchBrowser, until, watchedPage } from '../support/browser.ts';
import { TEST_ORIGIN, buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const LIMIT = 4;
const REDIS_URL = process.env.MUSTER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

describe(`security headers (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
  });
  after(() => t.close());

  it('sends nosniff and the usual security headers on API, OpenAPI, ICS and problem answers', async () => {
    const answers = [
      await t.app.inject({
        method: 'POST',
        url: '/api/faction-stats',
        headers: { origin: TEST_ORIGIN },
        payload: {},
      }),
      await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' }),
      await t.app.inject({ method: 'GET', url: '/api/upcoming-satellites.ics' }),
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/no-such-page' }),
    ];
    for (const response of answers) {
      const what = `${response.statusCode} ${response.headers['content-type']}`;
      assert.equal(response.headers['x-content-type-options'], 'nosniff', what);
      assert.ok(response.headers['x-frame-options'], `${what}: x-frame-options`);
      assert.ok(response.headers['referrer-policy'], `${what}: referrer-policy`);
      assert.ok(response.headers['strict-transport-security'], `${what}: hsts`);
      assert.ok(response.headers['content-security-policy'], `${what}: csp`);
      assert.equal(response.headers['x-powered-by'], undefined);
    }
  });

  it('keeps a CSP on /docs that lets Swagger UI load its own scripts and styles, nothing else', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(page.statusCode, 200);
    const csp = String(page.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    assert.ok(directives.get('script-src')?.includes("'self'"), csp);
    assert.ok(directives.get('style-src')?.includes("'self'"), csp);
    assert.ok(!directives.get('script-src')?.includes("'unsafe-eval'"), csp);
    assert.ok(!directives.has('upgrade-insecure-requests'), 'plain-HTTP deployments keep working');
    // Every script and stylesheet the page names is served from this origin.
    for (const [, src] of page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)) {
      assert.ok(src.startsWith('/') || src.startsWith('./'), src);
      const asset = await t.app.inject({
        method: 'GET',
        url: new URL(src, 'http://x/docs/').pathname,
      });
      assert.equal(asset.statusCode, 200, src);
      assert.equal(asset.headers['x-content-type-options'], 'nosniff');
    }
  });
});

describe(`rate limit edges (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      env: { MUSTER_RATE_LIMIT_MAX: String(LIMIT), MUSTER_RATE_LIMIT_WINDOW_MS: '60000' },
    });
  });
  after(() => t.close());

  const post = (ip: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/faction-stats',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', ...headers },
      payload: '{}',
    });

  it('counts preflights toward the limit, on real and unknown paths, and its 429 on the POST is readable', async () => {
    const ip = '198.51.100.71';
    const preflight = (url: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url,
        remoteAddress: ip,
        headers: {
          origin: TEST_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    for (let i = 0; i < LIMIT / 2; i += 1) {
      assert.equal((await preflight('/api/faction-stats')).statusCode, 204);
      assert.equal((await preflight(`/no/such/path/${i}`)).statusCode, 404);
    }
    assert.equal((await preflight('/api/faction-stats')).statusCode, 429);
    assert.equal((await preflight('/no/such/path')).statusCode, 429);
    const limited = await post(ip, { origin: TEST_ORIGIN });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['access-control-allow-origin'], TEST_ORIGIN);
    assert.match(String(limited.headers['access-control-expose-headers']), /Retry-After/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
  });

  it('counts refused origins (403) and wrong media types (415) toward the limit', async () => {
    const ip = '198.51.100.72';
    for (let i = 0; i < LIMIT / 2; i += 1) {
      assert.equal((await post(ip, { origin: 'https://evil.example' })).statusCode, 403);
      const wrongType = await t.app.inject({
        method: 'POST',
        url: '/api/faction-stats',
        remoteAddress: ip,
        headers: { origin: TEST_ORIGIN, 'content-type': 'text/plain' },
        payload: '{}',
      });
      assert.equal(wrongType.statusCode, 415);
    }
    const next = await post(ip, { origin: 'https://evil.example' });
    assert.equal(next.statusCode, 429, 'the refused requests used up the budget');
  });
});

describe(`health reports Redis (${TEST_BACKEND})`, () => {
  it('adds a redis:responseTime check when MUSTER_REDIS_URL is configured', async (ctx) => {
    if (!(await redisAnswers())) {
      if (process.env.CI === 'true') assert.fail(`Redis at ${REDIS_URL} unreachable`);
      ctx.skip(`Redis at ${REDIS_URL} unreachable`);
      return;
    }
    const t = await buildTestApp({
      env: { MUSTER_REDIS_URL: REDIS_URL },
      rateLimitNamespace: `muster-test:${randomBytes(4).toString('hex')}:`,
    });
    try {
      const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json() as {
        checks: Record<
          string,
          Array<{
            status: string;
            observedUnit?: string;
            observedValue?: unknown;
            componentType?: string;
          }>
        >;
      };
      const [redis] = health.checks['redis:responseTime'] ?? [];
      assert.ok(redis, JSON.stringify(Object.keys(health.checks)));
      assert.equal(redis.status, 'pass');
      assert.equal(redis.observedUnit, 'ms');
      assert.equal(typeof redis.observedValue, 'number');
      assert.equal(redis.componentType, 'datastore');
    } finally {
      await t.close();
    }
    const without = await buildTestApp({});
    try {
      const health = (await without.app.inject({ method: 'GET', url: '/api/health' })).json() as {
        checks: Record<string, unknown>;
      };
      assert.equal(health.checks['redis:responseTime'], undefined);
    } finally {
      await without.close();
    }
  });
});

describe(`/docs in a browser under the security headers (${TEST_BACKEND})`, () => {
  it('renders Swagger UI with its operations and no CSP violation or console error', async (ctx) => {
    const missing = browserMissing();
    if (missing !== null) {
      ctx.skip(missing);
      return;
    }
    const t = await buildTestApp({ seed: 'demo-slice', shared: true, env: { MUSTER_PORT: '0' } });
    const browser = await launchBrowser();
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const address = t.app.server.address();
      assert.ok(address !== null && typeof address === 'object');
      const origin = `http://127.0.0.1:${address.port}`;
      const { page, errors, outside } = await watchedPage(browser, origin);
      await page.goto(`${origin}/docs`);
      await until(async () => (await page.locator('.opblock').count()) > 3);
      assert.match(await page.locator('.info .title').innerText(), /Muster/);
      assert.deepEqual(errors, []);
      assert.deepEqual(outside, []);
    } finally {
      await browser.close();
      await t.close();
    }
  });
});
