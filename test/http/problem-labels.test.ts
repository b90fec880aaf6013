/**
 * Each failure gets the problem type that names it (docs/problems.md): a static file's 403 is
 * not an origin problem, bytes that are not UTF-8 are not a Content-Length mismatch, a request
 * the HTTP parser refuses still gets a problem document, and deep nesting is named as such.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fastifyStatic from '@fastify/static';
import { PROBLEM_TYPES } from '../../src/errors/problem.ts';
import { TEST_ORIGIN, buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-static-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes raw bytes on a socket and resolves with everything the server sent back. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const timer = setTimeout(() => socket.destroy(), 3_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', () => resolve(text));
    socket.write(bytes);
  });
}

describe(`problem types name what went wrong (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'folder', 'file.txt'), 'x');
    t = await buildTestApp({
      routes: (app) => {
        // Static files the way @fastify/static serves them: a folder without an index is a 403.
        void app.register(fastifyStatic, {
          root: dir,
          prefix: '/test-static/',
          index: false,
          decorateReply: false,
        });
      },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    port = address.port;
  });
  after(() => t.close());

  const post = (payload: string | Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/faction-stats',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload,
    });

  it('labels a static file 403 as forbidden, not as an origin problem', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test-static/folder/' });
    assert.equal(response.statusCode, 403);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.equal(response.json().type, '/problems/forbidden');
  });

  it('labels a body that is not UTF-8 as such, not as a Content-Length mismatch', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"system":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);
    const response = await post(bytes);
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.equal(problem.type, '/problems/invalid-encoding');
    assert.doesNotMatch(problem.detail, /Content-Length/);
  });

  it('labels nesting deeper than the parser allows as nesting-too-deep, for arrays and objects', async () => {
    for (const payload of [
      '['.repeat(5_000) + ']'.repeat(5_000),
      '{"a":'.repeat(2_000) + '1' + '}'.repeat(2_000),
    ]) {
      const response = await post(payload);
      assert.equal(response.statusCode, 400, response.body);
      const problem = response.json();
      assert.equal(problem.type, '/problems/nesting-too-deep');
      assert.doesNotMatch(response.body, /call stack/);
    }
  });

  it('answers a request with both Transfer-Encoding and Content-Length with a problem document', async () => {
    const body = '{}';
    const text = await rawExchange(
      port,
      'POST /api/faction-stats HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Origin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /\r\ncontent-type: application\/problem\+json/i);
    const problem = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { type: string };
    assert.equal(problem.type, '/problems/malformed-request');
  });

  it('gives every new type a description in the catalogue', () => {
    for (const kind of [
      'forbidden',
      'invalid-encoding',
      'nesting-too-deep',
      'malformed-request',
    ] as const) {
      const spec = (PROBLEM_TYPES as Record<string, { description?: string }>)[kind];
      assert.ok(spec?.description && spec.description.length > 40, kind);
    }
  });
});
