/**
 * Shutting down over real sockets (docs/operations.md, "Shutdown"): requests in flight when the
 * server is told to stop complete, requests sent just after it on kept-alive connections are
 * answered with Connection: close, idle connections are ended without a reset. New connections
 * are refused from the signal on, health answers 503 while draining, and shutdown ends within
 * the grace whatever clients send: dripped headers or bodies, kept-alive sockets that start a
 * second request and never finish it.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeGracefully } from '../../src/http/graceful-close.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { deadline } from '../support/deadline.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const SLOW_PATH = '/test/slow';
const SLOW_MS = 400;

/** One raw HTTP/1.1 connection: writes requests, collects bytes, and how it ended. */
class Connection {
  text = '';
  error: NodeJS.ErrnoException | null = null;
  readonly ended: Promise<void>;
  private readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.text += chunk));
    this.socket.on('error', (error: NodeJS.ErrnoException) => (this.error = error));
    this.ended = new Promise((resolve) => this.socket.on('close', () => resolve()));
  }

  send(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  }

  write(text: string): void {
    if (this.socket.writable) this.socket.write(text);
  }

  /** Writes `head` now, then one byte of `drip` every 100 ms for as long as the socket lasts. */
  drip(head: string, drip: string): void {
    this.write(head);
    let i = 0;
    const timer = setInterval(() => {
      if (i < drip.length) this.write(drip[i]);
      i += 1;
    }, 100);
    void this.ended.then(() => clearInterval(timer));
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  /** Status lines and Connection headers of the answers so far. */
  answers(): Array<{ status: number; connection: string | null }> {
    return [...this.text.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n((?:[^\r]+\r\n)*)\r\n/g)].map(
      (m) => ({
        status: Number(m[1]),
        connection: /^connection: *(.+)$/im.exec(m[2])?.[1].trim().toLowerCase() ?? null,
      }),
    );
  }

  async waitForAnswers(count: number): Promise<void> {
    for (let i = 0; i < 200 && this.answers().length < count; i += 1) await sleep(10);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe(`shutting down with connections open (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await buildTestApp({
      // Generous: what is still in flight when the grace ends is cut, and a loaded machine is slow.
      config: { shutdownGraceMs: 3_000 },
      routes: (app) =>
        app.get(SLOW_PATH, async () => {
          await sleep(SLOW_MS);
          return { ok: true };
        }),
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    port = address.port;
  });
  after(() => t.close());

  it('completes requests in flight, answers kept-alive requests sent after the signal with Connection: close, and resets nothing', async () => {
    const idle = Array.from({ length: 4 }, () => new Connection(port));
    const late = Array.from({ length: 4 }, () => new Connection(port));
    for (const c of [...idle, ...late]) c.send('/api/health');
    for (const c of [...idle, ...late]) await c.waitForAnswers(1);
    const inFlight = Array.from({ length: 8 }, () => new Connection(port));
    for (const c of inFlight) c.send(SLOW_PATH);
    await sleep(100);

    const closed = closeGracefully(t.app, t.config.shutdownGraceMs);
    await sleep(20);
    // Health answers 503 while draining (tested below): another GET route shows the answer.
    for (const c of late) c.send('/.well-known/api-catalog');
    await closed;
    const all = [...idle, ...late, ...inFlight];
    await Promise.race([Promise.all(all.map((c) => c.ended)), deadline(5_000, null)]);
    for (const c of all) c.destroy();

    const resets = all.filter((c) => c.error !== null).map((c) => c.error?.code);
    assert.deepEqual(resets, [], 'no connection ends with an error');
    for (const c of inFlight) {
      assert.deepEqual(
        c.answers().map((a) => a.status),
        [200],
        `in flight: ${c.text.slice(0, 200)}`,
      );
      assert.equal(c.answers()[0].connection, 'close');
    }
    for (const c of late) {
      const answers = c.answers();
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200],
        `after the signal: ${c.text.slice(0, 400)}`,
      );
      assert.equal(answers[1].connection, 'close');
    }
    for (const c of idle) assert.deepEqual(c.answers().length, 1);
  });
});

/** A listening test app and its port; closed by the caller (closeGracefully or t.close). */
async function listening(config: Partial<TestApp['config']>, env: Record<string, string> = {}) {
  const t = await buildTestApp({ config, env });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { t, port: address.port };
}

/** Resolves with the error code of a new connection to `port`, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe(`a shutdown bounded whatever clients do (${TEST_BACKEND})`, () => {
  const GRACE_MS = 1_500;
  /** The grace, the poll and the app's own close on a loaded machine. */
  const SLACK_MS = 2_500;

  it('refuses new connections once shutdown begins, and answers health with 503 while draining', async () => {
    const { t, port } = await listening({ shutdownGraceMs: GRACE_MS });
    const kept = new Connection(port);
    try {
      kept.send('/api/health');
      await kept.waitForAnswers(1);
      assert.equal(kept.answers()[0]?.status, 200, kept.text.slice(0, 300));
      const closed = closeGracefully(t.app, GRACE_MS);
      await sleep(20);
      assert.equal(await tryConnect(port), 'ECONNREFUSED', 'a new connection during the drain');
      kept.send('/api/health');
      await kept.waitForAnswers(2);
      const answer = kept.answers()[1];
      assert.deepEqual(answer, { status: 503, connection: 'close' }, kept.text.slice(-600));
      assert.match(kept.text, /"process:draining":\[\{[^\]]*"status":"fail"/);
      await closed;
      await kept.ended;
      assert.equal(kept.error, null, 'the kept-alive connection ends without a reset');
    } finally {
      kept.destroy();
      await t.close();
    }
  });

  it('ends within the grace while clients drip headers, bodies and a second request on a kept-alive socket', async () => {
    // Timeouts far beyond the grace: only the shutdown's own bound can end these clients.
    const { t, port } = await listening(
      { shutdownGraceMs: GRACE_MS },
      { MUSTER_HEADERS_TIMEOUT_MS: '60000', MUSTER_RECEIVE_TIMEOUT_MS: '60000' },
    );
    const headers = new Connection(port);
    const body = new Connection(port);
    const keptAlive = new Connection(port);
    const clients = [headers, body, keptAlive];
    try {
      headers.drip('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: ' + 'a'.repeat(900));
      body.drip(
        'POST /api/faction-stats HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Origin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n`,
        '{"minGames":' + ' '.repeat(900),
      );
      keptAlive.send('/api/health');
      await keptAlive.waitForAnswers(1);
      keptAlive.drip('GET /api/health HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(900));
      await sleep(300);

      const started = performance.now();
      const closed = closeGracefully(t.app, GRACE_MS).then(() => 'closed');
      const outcome = await Promise.race([closed, deadline(GRACE_MS + 10_000, 'hung')]);
      const ms = performance.now() - started;
      assert.equal(outcome, 'closed', `still open ${Math.round(ms)} ms after the signal`);
      assert.ok(ms < GRACE_MS + SLACK_MS, `shutdown took ${Math.round(ms)} ms`);
      await Promise.race([Promise.all(clients.map((c) => c.ended)), deadline(2_000, null)]);
      assert.deepEqual(
        clients.map((c) => c.closed),
        [true, true, true],
        'every socket is closed once shutdown has ended',
      );
    } finally {
      for (const c of clients) c.destroy();
      await t.close();
    }
  });

  it('keeps applying the headers timeout during the drain', async () => {
    const { t, port } = await listening(
      { shutdownGraceMs: 6_000 },
      { MUSTER_HEADERS_TIMEOUT_MS: '600', MUSTER_RECEIVE_TIMEOUT_MS: '600' },
    );
    const slow = new Connection(port);
    try {
      await sleep(50);
      const closed = closeGracefully(t.app, 6_000);
      const started = performance.now();
      slow.drip('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: ' + 'a'.repeat(900));
      await Promise.race([slow.ended, deadline(5_000, null)]);
      const ms = performance.now() - started;
      assert.ok(slow.closed, 'the dripping client is still connected 5 s into the drain');
      assert.ok(ms < 600 + SLACK_MS, `cut after ${Math.round(ms)} ms`);
      assert.match(slow.text, /^HTTP\/1\.1 408|^$/);
      await closed;
    } finally {
      slow.destroy();
      await t.close();
    }
  });
});
