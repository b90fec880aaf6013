/**
 * Bounds on open connections over real sockets (docs/operations.md#connections): idle
 * keep-alive connections never keep a new request out, one client holds at most its share, a
 * connection past a bound is refused only when every one there is busy (and that is logged),
 * and a connection that stays silent is cut at the headers deadline counted from its accept.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const MAX = 40;
const PER_CLIENT = 12;
const HEADERS_MS = 800;

/** Opens a connection, sends `request` and resolves once the answer's head has come. */
function ask(port: number, request: string): Promise<{ socket: Socket; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n\r\n')) resolve({ socket, text });
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ socket, text }));
    socket.write(request);
  });
}

const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Resolves once `socket` closes (true) or after `ms` (false). */
function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe(`bounded connections (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let port: number;
  const lines: Array<{ level: number; msg: string; event?: string }> = [];
  const sockets: Socket[] = [];

  before(async () => {
    t = await buildTestApp({
      env: {
        MUSTER_MAX_CONNECTIONS: String(MAX),
        MUSTER_MAX_CONNECTIONS_PER_CLIENT: String(PER_CLIENT),
        MUSTER_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        MUSTER_RECEIVE_TIMEOUT_MS: '60000',
      },
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    port = address.port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await t.close();
  });

  const open = () =>
    new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));

  it('answers health on a new connection while idle keep-alive connections of one client fill its share many times over', async () => {
    for (let i = 0; i < PER_CLIENT * 5; i++) {
      const { socket, text } = await ask(port, HEALTH);
      assert.match(text, /^HTTP\/1\.1 200/);
      sockets.push(socket);
    }
    // The client's oldest idle connections were closed to make room for its newer ones.
    assert.ok((await open()) <= PER_CLIENT, `${await open()} connections open`);
    const { text } = await ask(port, HEALTH);
    assert.match(text, /^HTTP\/1\.1 200/);
  });

  it('refuses a connection past the bound when every connection there is busy, and logs it once', async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    // Each connection sends a request head and only part of its body: a request in progress.
    const busy: Socket[] = [];
    for (let i = 0; i < PER_CLIENT; i++) {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/faction-stats HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${TEST_ORIGIN}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      busy.push(socket);
      sockets.push(socket);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const extra = connect(port, '127.0.0.1');
    extra.on('error', () => undefined);
    sockets.push(extra);
    assert.equal(await closedWithin(extra, 2000), true, 'the extra connection was refused');
    for (const socket of busy) assert.equal(socket.destroyed, false, 'busy connections stay');
    const refused = lines.filter((l) => l.event === 'client-connections-full');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].level, 40);
  });

  it('cuts a silent connection at the headers deadline counted from its accept, not from its first byte', async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    sockets.push(socket);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    // The first byte just before the deadline: Node alone would allow another whole deadline.
    setTimeout(() => socket.writable && socket.write('G'), HEADERS_MS - 150);
    assert.equal(await closedWithin(socket, HEADERS_MS * 3), true);
    const ms = performance.now() - started;
    assert.ok(ms < HEADERS_MS + 700, `closed after ${ms.toFixed(0)} ms`);
    assert.match(text, /^HTTP\/1\.1 408/);
  });
});
