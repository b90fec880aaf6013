/**
 * Error paths as RFC 9457 problems (docs/problems.md): a throwing handler is an opaque 500
 * logged with its request id, a slow handler is a 503 timeout, and every answer (errors, 404,
 * preflight) carries API-Version.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { API_VERSION } from '../../src/version.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { mediaType } from '../support/openapi-contract.ts';

const BOOM = '/api/test-problems-boom';
const SLOW = '/api/test-problems-slow';
const SQL_ERROR = 'syntax error at or near "DROP" in SELECT password FROM users WHERE id = 1';

describe('problem responses', () => {
  let t: TestApp;
  const logs: Array<Record<string, unknown>> = [];
  let slowFinished = 0;

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    t = await buildTestApp({
      config: { requestTimeoutMs: 150 },
      logger: { level: 'error', stream },
      routes: (app) => {
        app.post(BOOM, async () => {
          throw Object.assign(new Error(SQL_ERROR), { code: '42601' });
        });
        app.post(SLOW, async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          slowFinished += 1;
          return { late: true };
        });
      },
    });
  });
  after(() => t.close());

  it('answers a throwing handler with an opaque 500 problem', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: BOOM,
      headers: { origin: TEST_ORIGIN, 'x-request-id': 'ignored' },
      payload: {},
    });
    assert.equal(response.statusCode, 500);
    assert.equal(mediaType(response.headers['content-type']), 'application/problem+json');
    const problem = response.json() as Record<string, unknown>;
    assert.equal(problem.type, '/problems/internal');
    assert.deepEqual(Object.keys(problem).sort(), [
      'detail',
      'instance',
      'status',
      'title',
      'type',
    ]);
    assert.doesNotMatch(response.body, /SELECT|password|DROP|42601|stack|\.ts:\d+/);
  });

  it('logs the 500 with its request id and the real error', async () => {
    logs.length = 0;
    await t.app.inject({
      method: 'POST',
      url: BOOM,
      headers: { origin: TEST_ORIGIN },
      payload: {},
    });
    const entry = logs.find((l) => l.msg === 'request failed');
    assert.ok(entry, JSON.stringify(logs));
    assert.equal(entry.level, 50);
    assert.ok(typeof entry.reqId === 'string' && entry.reqId !== '', 'reqId');
    const err = entry.err as { message: string; stack: string };
    assert.equal(err.message, SQL_ERROR);
    assert.match(err.stack, /Error/);
  });

  it('answers a handler that exceeds the time limit with a 503 timeout problem', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: SLOW,
      headers: { origin: TEST_ORIGIN },
      payload: {},
    });
    assert.equal(response.statusCode, 503);
    const problem = response.json() as Record<string, unknown>;
    assert.equal(problem.type, '/problems/timeout');
    assert.equal(response.headers['retry-after'], '1');
    assert.equal(slowFinished, 0, 'answered before the handler finished');
  });

  it('sends API-Version on successes, problems, 404s, 405s and preflights', async () => {
    const responses = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/nope' }),
      t.app.inject({ method: 'GET', url: BOOM }),
      t.app.inject({ method: 'OPTIONS', url: BOOM, headers: { origin: TEST_ORIGIN } }),
      t.app.inject({ method: 'OPTIONS', url: BOOM, headers: { origin: 'https://evil.test' } }),
      t.app.inject({ method: 'POST', url: BOOM, headers: { origin: TEST_ORIGIN }, payload: {} }),
      t.app.inject({
        method: 'POST',
        url: BOOM,
        payload: 'x',
        headers: { origin: TEST_ORIGIN, 'content-type': 'text/plain' },
      }),
      t.app.inject({ method: 'GET', url: '/docs' }),
    ]);
    assert.deepEqual(
      responses.map((r) => r.statusCode),
      [200, 404, 405, 204, 403, 500, 415, 200],
    );
    for (const response of responses) assert.equal(response.headers['api-version'], API_VERSION);
  });
});
