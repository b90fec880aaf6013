/**
 * Shutting down over real sockets (docs/operations.md, "Shutdown"): requests in flight when the
 * server is told to stop complete, requests sent just after it on kept-alive connections are
 * answered with Connection: close, idle connections are ended without a reset.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeGracefully } from '../../src/http/graceful-close.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
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
      config: { shutdownGraceMs: 1_500 },
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
    for (const c of late) c.send('/api/health');
    await closed;
    const all = [...idle, ...late, ...inFlight];
    await Promise.race([Promise.all(all.map((c) => c.ended)), sleep(5_000)]);
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
