/**
 * Slow senders over real sockets (docs/operations.md, "Timeouts"): a client that dribbles its
 * headers or its body is disconnected once MUSTER_HEADERS_TIMEOUT_MS or
 * MUSTER_RECEIVE_TIMEOUT_MS has passed, instead of holding its socket for ever.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const HEADERS_MS = 600;
const RECEIVE_MS = 1_200;
/** The deadline plus Node's checking interval plus slack for a loaded machine. */
const SLACK_MS = 2_500;

/**
 * Opens a connection, writes `head` at once, then one byte of `drip` every 100 ms; resolves
 * with how long the server kept the connection and what it answered.
 */
function dribble(port: number, head: string, drip: string): Promise<{ ms: number; text: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < drip.length && socket.writable) socket.write(drip[i]);
      i += 1;
    }, 100);
    // A client that keeps sending long after every bound: the server must end it first.
    const giveUp = setTimeout(() => done(), 20_000);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ms: performance.now() - started, text });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', done);
    socket.on('close', done);
    socket.write(head);
  });
}

describe(`slow clients (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await buildTestApp({
      env: {
        MUSTER_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        MUSTER_RECEIVE_TIMEOUT_MS: String(RECEIVE_MS),
      },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    port = address.port;
  });
  after(() => t.close());

  it('drops a client that sends its headers one byte at a time once the headers timeout passes', async () => {
    const { ms, text } = await dribble(
      port,
      'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X-Slow: ' + 'a'.repeat(400),
    );
    assert.ok(ms < HEADERS_MS + SLACK_MS, `kept ${Math.round(ms)} ms`);
    assert.ok(ms >= HEADERS_MS - 50, `dropped after ${Math.round(ms)} ms, before the bound`);
    assert.match(text, /^HTTP\/1\.1 408|^$/);
  });

  it('drops a client that sends its body one byte at a time once the receive timeout passes', async () => {
    const body = JSON.stringify({ minGames: 1, system: 'x'.repeat(80) });
    const { ms, text } = await dribble(
      port,
      'POST /api/faction-stats HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Origin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
      body,
    );
    assert.ok(ms < RECEIVE_MS + SLACK_MS, `kept ${Math.round(ms)} ms`);
    assert.ok(ms >= RECEIVE_MS - 50, `dropped after ${Math.round(ms)} ms, before the bound`);
    assert.doesNotMatch(text, /^HTTP\/1\.1 200/);
  });

  it('still answers a client that sends promptly', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    assert.ok([200, 503].includes(response.status));
  });
});
