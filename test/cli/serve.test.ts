import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { deadline } from '../support/deadline.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-serve-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A running `muster serve` child: its URL once it listens, its exit code, what it wrote. */
interface ServeChild {
  child: ChildProcess;
  url: URL;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** Spawns `muster serve` on a free port with `env` added, and waits until it listens. */
async function startServe(args: string[], env: Record<string, string>): Promise<ServeChild> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, MUSTER_PORT: '0', MUSTER_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      stdout += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (m) resolve(new URL(m[1]));
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr };
}

describe('muster serve as a process', () => {
  it(
    'seeds an empty store, serves health with demo data, and exits 0 on SIGTERM',
    { timeout: 180_000 },
    async () => {
      const { child, url, exited, stderr } = await startServe(['--seed-if-empty'], {
        MUSTER_DATABASE_URL: join(dir, 'serve.db'),
      });
      try {
        const res = await fetch(new URL('/api/health', url));
        assert.equal(res.status, 200);
        const body = (await res.json()) as {
          status: string;
          notes: string[];
          checks: Record<string, Array<{ observedValue: unknown }>>;
        };
        assert.equal(body.status, 'pass');
        assert.ok(body.notes.some((n) => /DEMO/.test(n)));
        assert.ok(Number(body.checks['snapshot:games'][0].observedValue) > 5000);
        assert.match(stderr(), /seeding the demo dataset/);
        // MUSTER_PORT=0 and no MUSTER_ALLOWED_ORIGINS: the served dashboard's own origin posts.
        const post = (origin: string) =>
          fetch(new URL('/api/faction-stats', url), {
            method: 'POST',
            headers: { origin, 'content-type': 'application/json' },
            body: '{}',
          });
        assert.equal((await post(`http://127.0.0.1:${url.port}`)).status, 200);
        assert.equal((await post(`http://localhost:${url.port}`)).status, 200);
        assert.equal((await post('http://127.0.0.1:0')).status, 403);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0, stderr());
    },
  );

  it(
    'exits within the shutdown grace after SIGTERM while clients drip headers and bodies, refusing new connections meanwhile',
    { timeout: 60_000 },
    async () => {
      const GRACE_MS = 1_000;
      const { child, url, exited, stderr } = await startServe([], {
        MUSTER_DATABASE_URL: join(dir, 'drain.db'),
        MUSTER_SHUTDOWN_GRACE_MS: String(GRACE_MS),
        // Far beyond the grace: only the shutdown's own bound can end the dripping clients.
        MUSTER_HEADERS_TIMEOUT_MS: '60000',
        MUSTER_RECEIVE_TIMEOUT_MS: '60000',
      });
      const port = Number(url.port);
      const sockets: Socket[] = [];
      const timers: NodeJS.Timeout[] = [];
      const drip = (head: string, rest: string) => {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(head);
        let i = 0;
        timers.push(
          setInterval(() => {
            if (socket.writable && i < rest.length) socket.write(rest[i++]);
          }, 100),
        );
        sockets.push(socket);
      };
      try {
        drip('GET /api/health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: ' + 'a'.repeat(900));
        drip(
          'POST /api/faction-stats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Content-Length: 900\r\n\r\n',
          ' '.repeat(900),
        );
        await sleep(300);
        const started = performance.now();
        child.kill('SIGTERM');
        await sleep(150);
        const refused = await new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          socket.on('connect', () => {
            socket.destroy();
            resolve('connected');
          });
          socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        });
        assert.equal(refused, 'ECONNREFUSED', 'a new connection after SIGTERM');
        const code = await Promise.race([exited, deadline(GRACE_MS + 15_000, 'alive')]);
        const ms = performance.now() - started;
        assert.equal(code, 0, `after ${Math.round(ms)} ms: ${stderr()}`);
        assert.ok(ms < GRACE_MS + 5_000, `exited ${Math.round(ms)} ms after SIGTERM`);
      } finally {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        child.kill('SIGKILL');
      }
    },
  );
});
