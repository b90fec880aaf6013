/**
 * Origin validation on POST routes (docs/http-api.md#origins-and-cors): exact origins, anchored
 * wildcards, missing
 * and `null` Origin, preflight, and proof that a refused request never reaches the handler.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { originMatcher, normaliseOrigin } from '../../src/http/plugins/origin-matcher.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { mediaType } from '../support/openapi-contract.ts';

const ALLOWED = 'https://stats.example.net,http://localhost:5173,https://*.example.org';
const PROBE = '/api/test-origin-probe';

describe('originMatcher', () => {
  const matches = originMatcher([
    'https://stats.example.net',
    'http://localhost:5173',
    'https://*.example.org',
  ]);

  it('accepts a listed exact origin, case-insensitively and with the default port written out', () => {
    assert.equal(matches('https://stats.example.net'), true);
    assert.equal(matches('HTTPS://Stats.Example.NET'), true);
    assert.equal(matches('https://stats.example.net:443'), true);
    assert.equal(matches('http://localhost:5173'), true);
  });

  it('refuses look-alike suffixes and prefixes of an exact origin', () => {
    assert.equal(matches('https://stats.example.net.evil.test'), false);
    assert.equal(matches('https://evilstats.example.net'), false);
    assert.equal(matches('https://x.stats.example.net'), false);
  });

  it('refuses another port or another scheme of an exact origin', () => {
    assert.equal(matches('http://localhost:5174'), false);
    assert.equal(matches('https://localhost:5173'), false);
    assert.equal(matches('http://stats.example.net'), false);
    assert.equal(matches('https://stats.example.net:8443'), false);
  });

  it('lets the wildcard match one or more subdomain labels', () => {
    assert.equal(matches('https://app.example.org'), true);
    assert.equal(matches('https://eu.app.example.org'), true);
    assert.equal(matches('https://xn--bcher-kva.example.org'), true);
  });

  it('never lets the wildcard match the bare domain or a look-alike', () => {
    assert.equal(matches('https://example.org'), false);
    assert.equal(matches('https://evilexample.org'), false);
    assert.equal(matches('https://example.org.evil.test'), false);
    assert.equal(matches('https://app.example.org.evil.test'), false);
    assert.equal(matches('https://app.evilexample.org'), false);
    assert.equal(matches('http://app.example.org'), false);
    assert.equal(matches('https://app.example.org:8443'), false);
    assert.equal(matches('https://.example.org'), false);
    assert.equal(matches('https://a..example.org'), false);
    assert.equal(matches('https://app.example.org.'), false);
  });

  it('refuses values that are not serialised origins', () => {
    for (const value of [
      'null',
      '',
      'https://stats.example.net/',
      'https://stats.example.net/path',
      'https://user@stats.example.net',
      'https://stats.example.net?x',
      'stats.example.net',
      'file:///etc/passwd',
      'https://stats.example.net, https://evil.test',
    ]) {
      assert.equal(matches(value), false, value);
    }
  });

  it('normalises origins the way browsers serialise them', () => {
    assert.equal(normaliseOrigin('HTTP://LocalHost:80'), 'http://localhost');
    assert.equal(normaliseOrigin('http://[::1]:8080'), 'http://[::1]:8080');
    assert.equal(normaliseOrigin('https://a.b/c'), null);
  });
});

describe('origin guard on POST routes', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let handled = 0;

  before(async () => {
    t = await buildTestApp({
      env: { MUSTER_ALLOWED_ORIGINS: ALLOWED },
      routes: (a) =>
        a.post(PROBE, async () => {
          handled += 1;
          return { ok: true };
        }),
    });
    app = t.app;
  });
  after(() => t.close());

  async function post(origin: string | undefined) {
    const before = handled;
    const response = await app.inject({
      method: 'POST',
      url: PROBE,
      headers: origin === undefined ? {} : { origin },
      payload: {},
    });
    return { response, ran: handled - before };
  }

  it('accepts a POST from an allowed origin and echoes it in Access-Control-Allow-Origin', async () => {
    const { response, ran } = await post('https://stats.example.net');
    assert.equal(response.statusCode, 200);
    assert.equal(ran, 1);
    assert.equal(response.headers['access-control-allow-origin'], 'https://stats.example.net');
    assert.match(String(response.headers.vary), /\bOrigin\b/);
  });

  it('accepts a POST from a subdomain matched by the wildcard', async () => {
    const { response, ran } = await post('https://club.example.org');
    assert.equal(response.statusCode, 200);
    assert.equal(ran, 1);
    assert.equal(response.headers['access-control-allow-origin'], 'https://club.example.org');
  });

  const refused: Array<[string, string | undefined]> = [
    ['an unlisted origin', 'https://evil.test'],
    ['a missing Origin', undefined],
    ['Origin: null', 'null'],
    ['a look-alike suffix', 'https://example.org.evil.test'],
    ['a look-alike suffix of an exact origin', 'https://stats.example.net.evil.test'],
    ['a look-alike prefix', 'https://evilexample.org'],
    ['another port', 'http://localhost:5174'],
    ['another scheme', 'http://stats.example.net'],
    ['the bare domain of the wildcard', 'https://example.org'],
    ['a deeper look-alike of the wildcard', 'https://app.example.org.evil.test'],
    ['the default origin of an app configured otherwise', TEST_ORIGIN],
  ];
  for (const [name, origin] of refused) {
    it(`refuses a POST with ${name} with 403 problem+json, before the handler runs`, async () => {
      const { response, ran } = await post(origin);
      assert.equal(response.statusCode, 403);
      assert.equal(ran, 0, 'the handler must not run');
      assert.equal(mediaType(response.headers['content-type']), 'application/problem+json');
      const problem = response.json();
      assert.equal(problem.type, '/problems/origin-not-allowed');
      assert.equal(problem.status, 403);
      assert.equal(response.headers['access-control-allow-origin'], undefined);
      assert.match(String(response.headers.vary), /\bOrigin\b/);
    });
  }

  it('refuses before the body is read: an oversized body from a bad origin is 403, not 413', async () => {
    const before = handled;
    const response = await app.inject({
      method: 'POST',
      url: PROBE,
      headers: { origin: 'https://evil.test', 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(40_000) }),
    });
    assert.equal(response.statusCode, 403);
    assert.equal(handled, before);
  });

  it('answers a preflight from an allowed origin with 204 and the CORS headers', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: PROBE,
      headers: {
        origin: 'https://club.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    assert.equal(response.headers['access-control-allow-origin'], 'https://club.example.org');
    assert.match(String(response.headers['access-control-allow-methods']), /\bPOST\b/);
    assert.match(String(response.headers['access-control-allow-headers']), /content-type/i);
    assert.ok(Number(response.headers['access-control-max-age']) > 0);
    assert.match(String(response.headers.vary), /\bOrigin\b/);
    assert.equal(response.headers['api-version'], '1.0.0');
  });

  for (const [name, origin] of [
    ['an unlisted origin', 'https://evil.test'],
    ['a missing Origin', undefined],
    ['Origin: null', 'null'],
  ] as const) {
    it(`refuses a preflight from ${name} with 403`, async () => {
      const response = await app.inject({
        method: 'OPTIONS',
        url: PROBE,
        headers: {
          ...(origin === undefined ? {} : { origin }),
          'access-control-request-method': 'POST',
        },
      });
      assert.equal(response.statusCode, 403);
      assert.equal(response.headers['access-control-allow-origin'], undefined);
      assert.equal(mediaType(response.headers['content-type']), 'application/problem+json');
      assert.match(String(response.headers.vary), /\bOrigin\b/);
    });
  }

  it('leaves GET routes (health, discovery) open to any origin', async () => {
    for (const url of ['/api/health', '/.well-known/openapi.json', '/.well-known/api-catalog']) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { origin: 'https://evil.test' },
      });
      assert.equal(response.statusCode, 200, url);
    }
  });
});

describe('origin guard configuration', () => {
  it('accepts a missing or null Origin when MUSTER_ALLOW_NO_ORIGIN=true, still refusing bad ones', async () => {
    let handled = 0;
    const t = await buildTestApp({
      env: { MUSTER_ALLOW_NO_ORIGIN: 'true' },
      routes: (a) =>
        a.post(PROBE, async () => {
          handled += 1;
          return { ok: true };
        }),
    });
    try {
      const missing = await t.app.inject({ method: 'POST', url: PROBE, payload: {} });
      assert.equal(missing.statusCode, 200);
      assert.equal(missing.headers['access-control-allow-origin'], undefined);
      const nullOrigin = await t.app.inject({
        method: 'POST',
        url: PROBE,
        headers: { origin: 'null' },
        payload: {},
      });
      assert.equal(nullOrigin.statusCode, 200);
      const bad = await t.app.inject({
        method: 'POST',
        url: PROBE,
        headers: { origin: 'https://evil.test' },
        payload: {},
      });
      assert.equal(bad.statusCode, 403);
      assert.equal(handled, 2);
    } finally {
      await t.close();
    }
  });

  it('allows http://localhost:PORT and http://127.0.0.1:PORT by default', async () => {
    const t = await buildTestApp({
      env: { MUSTER_PORT: '9123' },
      routes: (a) => a.post(PROBE, async () => ({ ok: true })),
    });
    try {
      for (const origin of ['http://localhost:9123', 'http://127.0.0.1:9123']) {
        const r = await t.app.inject({
          method: 'POST',
          url: PROBE,
          headers: { origin },
          payload: {},
        });
        assert.equal(r.statusCode, 200, origin);
      }
      for (const origin of [
        'http://localhost:8080',
        'https://localhost:9123',
        'http://0.0.0.0:9123',
      ]) {
        const r = await t.app.inject({
          method: 'POST',
          url: PROBE,
          headers: { origin },
          payload: {},
        });
        assert.equal(r.statusCode, 403, origin);
      }
    } finally {
      await t.close();
    }
  });
});
