/**
 * Request logging (docs/operations.md#logs): one `request completed` line per request at info,
 * with its request id, method, URL, status and response time, and no line on arrival; a 500
 * still logs its error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildTestApp, TEST_ORIGIN } from '../../support/test-app.ts';
import type { TestApp } from '../../support/test-app.ts';

const BOOM = '/api/test-request-log-boom';

describe('request log', () => {
  let t: TestApp;
  const logs: Array<Record<string, unknown>> = [];

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    t = await buildTestApp({
      logger: { level: 'info', stream },
      routes: (app) => {
        app.post(BOOM, async () => {
          throw new Error('boom');
        });
      },
    });
  });
  after(() => t.close());

  it('writes one line per request, when its answer has gone', async () => {
    logs.length = 0;
    const response = await t.app.inject({ method: 'GET', url: '/api/health?probe=1' });
    // Every line a request writes carries its id.
    const lines = logs.filter((l) => l.reqId !== undefined);
    assert.equal(lines.length, 1, JSON.stringify(logs));
    const [line] = lines;
    assert.equal(line.msg, 'request completed');
    assert.equal(line.level, 30);
    assert.equal(line.method, 'GET');
    assert.equal(line.url, '/api/health?probe=1');
    assert.equal(line.statusCode, response.statusCode);
    assert.equal(typeof line.responseTime, 'number');
    assert.equal(typeof line.reqId, 'string');
  });

  it('still logs a failed request as an error with its request id', async () => {
    logs.length = 0;
    const response = await t.app.inject({
      method: 'POST',
      url: BOOM,
      headers: { origin: TEST_ORIGIN },
      payload: {},
    });
    assert.equal(response.statusCode, 500);
    const failed = logs.find((l) => l.msg === 'request failed');
    assert.ok(failed !== undefined, JSON.stringify(logs));
    assert.equal(failed.level, 50);
    const completed = logs.filter((l) => l.msg === 'request completed');
    assert.equal(completed.length, 1);
    assert.equal(completed[0].statusCode, 500);
  });
});
