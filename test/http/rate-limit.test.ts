/**
 * The per-client rate limit (docs/http-api.md#limits): 429 problem+json with Retry-After and
 * RateLimit headers after the limit, on the in-memory store and on Redis, where two app
 * instances share one counter. Redis is expected at MUSTER_TEST_REDIS_URL or 127.0.0.1:6379;
 * without it the Redis tests skip, except under CI=true where they fail.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { openTestStore } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { mediaType } from '../support/openapi-contract.ts';

const REDIS_URL = process.env.MUSTER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 5;
const POST_PATH = '/api/test-rate-limit-probe';
const probe = (app: FastifyInstance) => app.post(POST_PATH, async () => ({ ok: true }));

async function redisReachable(): Promise<string | null> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    probe.disconnect();
  }
}

function post(app: FastifyInstance, ip = '203.0.113.7') {
  return app.inject({
    method: 'POST',
    url: POST_PATH,
    remoteAddress: ip,
    headers: { origin: TEST_ORIGIN },
    payload: {},
  });
}

function assertLimited(response: Awaited<ReturnType<typeof post>>): void {
  assert.equal(response.statusCode, 429, response.body);
  assert.equal(mediaType(response.headers['content-type']), 'application/problem+json');
  const problem = response.json() as { type: string; status: number };
  assert.equal(problem.type, '/problems/rate-limited');
  assert.equal(problem.status, 429);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0, `Retry-After ${retryAfter}`);
  assert.equal(response.headers['ratelimit-limit'], String(LIMIT));
  assert.equal(response.headers['ratelimit-remaining'], '0');
  assert.ok(Number(response.headers['ratelimit-reset']) > 0);
  assert.equal(response.headers['api-version'], '1.0.0');
  // A browser on an allowed origin must be able to read the 429.
  assert.equal(response.headers['access-control-allow-origin'], TEST_ORIGIN);
}

describe('rate limit on the in-memory store', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({
      env: { MUSTER_RATE_LIMIT_MAX: String(LIMIT), MUSTER_RATE_LIMIT_WINDOW_MS: '60000' },
      routes: probe,
    });
  });
  after(() => t.close());

  it(`answers request ${LIMIT + 1} of a client within the window with 429`, async () => {
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await post(t.app);
      assert.notEqual(response.statusCode, 429, `request ${i + 1}`);
      assert.equal(response.headers['ratelimit-limit'], String(LIMIT));
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
    assertLimited(await post(t.app));
  });

  it('counts each client address separately', async () => {
    const response = await post(t.app, '198.51.100.20');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['ratelimit-remaining'], String(LIMIT - 1));
  });

  it('counts every route of a client together, 404s and discovery included', async () => {
    const ip = '198.51.100.30';
    for (const url of ['/.well-known/openapi.json', '/.well-known/api-catalog', '/nope']) {
      await t.app.inject({ method: 'GET', url, remoteAddress: ip });
    }
    await t.app.inject({ method: 'GET', url: POST_PATH, remoteAddress: ip });
    const fifth = await post(t.app, ip);
    assert.equal(fifth.headers['ratelimit-remaining'], '0');
    const notFound = await t.app.inject({ method: 'GET', url: '/nope', remoteAddress: ip });
    assert.equal(notFound.statusCode, 429);
  });

  it('never limits health', async () => {
    const ip = '198.51.100.40';
    for (let i = 0; i < LIMIT + 3; i++) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: ip });
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers['ratelimit-limit'], undefined);
    }
    assert.equal((await post(t.app, ip)).statusCode, 200);
  });
});

describe('rate limit on Redis', () => {
  let unreachable: string | null;
  let store: TestStore;
  const namespace = `muster-test:${Date.now().toString(36)}:${randomBytes(4).toString('hex')}:`;

  before(async () => {
    unreachable = await redisReachable();
    store = await openTestStore();
  });
  after(async () => {
    await store.close();
    if (unreachable !== null) return;
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  function skipWithoutRedis(ctx: { skip(message: string): void }): boolean {
    if (unreachable === null) return false;
    const message = `Redis at ${REDIS_URL} unreachable (${unreachable})`;
    if (process.env.CI === 'true') assert.fail(`${message}; CI requires it`);
    ctx.skip(`${message}; start Redis or set MUSTER_TEST_REDIS_URL to run this test`);
    return true;
  }

  const redisApp = () =>
    buildTestApp({
      store,
      rateLimitNamespace: namespace,
      routes: probe,
      env: {
        MUSTER_REDIS_URL: REDIS_URL,
        MUSTER_RATE_LIMIT_MAX: String(LIMIT),
        MUSTER_RATE_LIMIT_WINDOW_MS: '60000',
      },
    });

  it(`answers request ${LIMIT + 1} with 429 and keeps the counter in Redis`, async (ctx) => {
    if (skipWithoutRedis(ctx)) return;
    const t = await redisApp();
    try {
      for (let i = 0; i < LIMIT; i++)
        assert.equal((await post(t.app, '192.0.2.1')).statusCode, 200);
      assertLimited(await post(t.app, '192.0.2.1'));
      const redis = new Redis(REDIS_URL);
      try {
        assert.equal(await redis.get(`${namespace}192.0.2.1`), String(LIMIT + 1));
      } finally {
        redis.disconnect();
      }
    } finally {
      await t.close();
    }
  });

  it('shares one counter between two app instances', async (ctx) => {
    if (skipWithoutRedis(ctx)) return;
    const [a, b] = [await redisApp(), await redisApp()];
    try {
      const ip = '192.0.2.2';
      const sequence: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) {
        const response = await post(i % 2 === 0 ? a.app : b.app, ip);
        sequence.push(response.statusCode);
      }
      assert.deepEqual(sequence, [200, 200, 200, 200, 200, 429]);
      assertLimited(await post(a.app, ip));
      assertLimited(await post(b.app, ip));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the rate limit behind a trusted proxy', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      routes: probe,
      env: { MUSTER_TRUST_PROXY: 'true' },
      config: { rateLimitMax: LIMIT },
    });
  });
  after(() => t.close());

  const forwarded = (xff: string) =>
    t.app.inject({
      method: 'POST',
      url: POST_PATH,
      remoteAddress: '10.0.0.1',
      headers: { origin: TEST_ORIGIN, 'x-forwarded-for': xff },
      payload: {},
    });

  it('counts a client by the forwarded address, and a forwarded value that is no address by the nearest one that is', async () => {
    // Fresh text in each request: counted against the proxy's address, not a new key each time.
    for (let i = 0; i < LIMIT; i++) {
      assert.equal((await forwarded(`not-an-ip-${i}`)).statusCode, 200);
    }
    assertLimited(await forwarded('not-an-ip-again'));
    // A real forwarded address is its own client.
    assert.equal((await forwarded('198.51.100.9')).statusCode, 200);
  });
});
