/**
 * Errors found before any route runs, over raw sockets where app.inject() cannot express the
 * request (docs/problems.md): bad percent-encoding, an over-long path parameter, no Host, an
 * unknown Expect, methods the router does not know, HTTP framing errors. Each is a problem
 * document from the catalogue with the security headers every answer carries. And one rule for
 * an unknown system on every route, the satellites and their feed included.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../src/version.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` on a new connection and reads the first answer (the server closes). */
function exchange(port: number, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => socket.destroy(), 5_000);
    const done = () => {
      clearTimeout(timer);
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = text.slice(end + 4);
      if (headers['content-length'] !== undefined) {
        body = body.slice(0, Number(headers['content-length']));
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // One answer is enough: a keep-alive connection would otherwise stay open.
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (end >= 0 && length !== null && text.length >= end + 4 + Number(length[1])) {
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', done);
    socket.write(request, 'latin1');
  });
}

/** A problem document of `kind` with `status`, carrying the headers every answer carries. */
function assertProblem(answer: Answer, status: number, kind: string): Record<string, unknown> {
  const what = `${answer.status} ${JSON.stringify(answer.headers)} ${answer.body.slice(0, 300)}`;
  assert.equal(answer.status, status, what);
  assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json/, what);
  const problem = JSON.parse(answer.body) as Record<string, unknown>;
  assert.equal(problem.type, `/problems/${kind}`, what);
  assert.equal(problem.status, status, what);
  assert.equal(typeof problem.title, 'string', what);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', what);
  assert.match(answer.headers['content-security-policy'] ?? '', /default-src 'self'/, what);
  assert.equal(answer.headers['x-frame-options'], 'SAMEORIGIN', what);
  assert.equal(answer.headers['api-version'], API_VERSION, what);
  return problem;
}

describe(`errors before any route runs (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    port = address.port;
  });
  after(() => t.close());

  const get = (path: string, extra = '') =>
    exchange(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`);

  it('answers a path that is not valid percent-encoded UTF-8 (GET /api/%c0) with a 400 problem', async () => {
    assertProblem(await get('/api/%c0'), 400, 'malformed-request');
    assertProblem(await get('/problems/%ff%fe'), 400, 'malformed-request');
  });

  it('answers an over-long path parameter with a 414 problem', async () => {
    assertProblem(await get(`/problems/${'a'.repeat(300)}`), 414, 'uri-too-long');
  });

  it('answers an HTTP/1.1 request without Host with a 400 problem, and HTTP/1.0 without it normally', async () => {
    const answer = await exchange(port, 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.match(String(assertProblem(answer, 400, 'malformed-request').detail), /Host/);
    const old = await exchange(port, 'GET /api/health HTTP/1.0\r\n\r\n');
    assert.equal(old.status, 200, old.body);
  });

  it('answers an Expect other than 100-continue with a 417 problem, and still honours 100-continue', async () => {
    assertProblem(await get('/api/health', 'Expect: bogus\r\n'), 417, 'expectation-failed');
    const body = '{}';
    const answer = await exchange(
      port,
      'POST /api/faction-stats HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n' +
        `Connection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    assert.equal(answer.status, 100, answer.body);
  });

  it('answers TRACE, PROPFIND and an unknown method on a POST path with 405 and Allow: POST', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PATCH', 'GET']) {
      const answer = await exchange(
        port,
        `${method} /api/rankings HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      assertProblem(answer, 405, 'method-not-allowed');
      assert.equal(answer.headers.allow, 'POST', method);
    }
  });

  it('answers another method on a GET path with 405 and its Allow, and an unknown path with 404', async () => {
    const answer = await exchange(
      port,
      'POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    assertProblem(answer, 405, 'method-not-allowed');
    assert.equal(answer.headers.allow, 'GET, HEAD');
    assertProblem(
      await exchange(port, 'TRACE /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      404,
      'not-found',
    );
  });

  it('answers POST, OPTIONS and DELETE on a problem type page with 405 and Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'OPTIONS', 'DELETE']) {
      const answer = await exchange(
        port,
        `${method} /problems/not-found HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      assertProblem(answer, 405, 'method-not-allowed');
      assert.equal(answer.headers.allow, 'GET, HEAD', method);
    }
    // The docs page's assets (a wildcard path) likewise; a path no pattern matches stays a 404.
    const asset = await exchange(
      port,
      'DELETE /docs/static/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    assertProblem(asset, 405, 'method-not-allowed');
    assertProblem(
      await exchange(
        port,
        'POST /problems/a/b HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n',
      ),
      404,
      'not-found',
    );
  });

  it('answers CONNECT with a 405 problem instead of closing the connection unanswered', async () => {
    const answer = await exchange(
      port,
      'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n',
    );
    const problem = assertProblem(answer, 405, 'method-not-allowed');
    assert.match(String(problem.detail), /not a proxy/);
    assert.equal(answer.headers.allow, 'GET, HEAD, POST, OPTIONS');
    assert.equal(answer.headers.connection, 'close');
  });

  it('answers a message that cannot be framed with a 400 problem and the security headers, then closes', async () => {
    const answer = await exchange(
      port,
      'POST /api/rankings HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    assertProblem(answer, 400, 'malformed-request');
    assert.equal(answer.headers.connection, 'close');
  });

  it('answers an unknown system with a 400 problem on the satellites and their feed, as on statistics', async () => {
    for (const path of ['/api/upcoming-satellites', '/api/faction-stats', '/api/rankings']) {
      const { status, json } = await post(t, path, { system: 'nope' });
      assert.equal(status, 400, `${path}: ${JSON.stringify(json)}`);
      assert.equal(json.type, '/problems/validation');
      assert.equal(json.errors?.[0].pointer, '/system', path);
    }
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/upcoming-satellites.ics?system=nope',
    });
    assert.equal(feed.statusCode, 400, feed.body);
    assert.equal(feed.json().errors[0].pointer, '/system');
    const known = await t.app.inject({
      method: 'GET',
      url: '/api/upcoming-satellites.ics?system=demo-fantasy',
    });
    assert.equal(known.statusCode, 200, known.body);
  });
});
