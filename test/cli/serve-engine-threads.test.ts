/**
 * `muster serve` is one process however many threads it runs (docs/operations.md#threads): with
 * two (set by the older name MUSTER_WORKERS, still read), each a server on the one port, a
 * client on new connections gets exactly the advertised rate limit, not twice it, SIGTERM
 * stops it cleanly, and its metrics are one series for the service; a taken port ends it at
 * once with one line naming the port and MUSTER_PORT.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-engine-threads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, MUSTER_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (output.stdout += d));
  child.stderr.on('data', (d) => (output.stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output, exited };
}

describe('muster serve with two threads', () => {
  it(
    'runs one process whose client gets exactly MUSTER_RATE_LIMIT_MAX answers, and exits 0 on SIGTERM',
    { timeout: 180_000 },
    async () => {
      const { child, output, exited } = serve({
        MUSTER_DATABASE_URL: join(dir, 'threads.db'),
        MUSTER_PORT: '0',
        MUSTER_WORKERS: '2',
        MUSTER_RATE_LIMIT_MAX: '6',
        MUSTER_METRICS_PORT: '0',
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const check = setInterval(() => {
            const m = /listening on (http:\/\/\S+)/.exec(output.stdout);
            if (m) {
              clearInterval(check);
              resolve(m[1]);
            }
          }, 50);
          void exited.then((code) => {
            clearInterval(check);
            reject(new Error(`exited ${code}: ${output.stderr}`));
          });
        });
        assert.match(output.stdout, /2 server threads on the one port/);
        assert.equal(output.stdout.match(/listening on/g)?.length, 1, 'one server, one listener');
        // A new connection each time, as a load balancer's clients would arrive.
        const statuses: number[] = [];
        for (let i = 0; i < 14; i++) {
          const response = await fetch(`${url}/.well-known/api-catalog`, {
            headers: { connection: 'close' },
          });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        assert.equal(statuses.filter((s) => s === 200).length, 6, statuses.join(' '));
        assert.equal(statuses.filter((s) => s === 429).length, 8, statuses.join(' '));
        // Health is not limited: the service answers on.
        assert.equal((await fetch(`${url}/api/health`)).status, 200);
        // The operator's metrics, on their own listener: one series for the service.
        const metricsUrl = /metrics \(operators only\): (http:\/\/\S+)/.exec(output.stdout)?.[1];
        assert.ok(metricsUrl !== undefined, output.stdout);
        const metrics = await (await fetch(metricsUrl)).text();
        assert.match(metrics, /^muster_thread_requests_total\{thread="1"\} \d+$/m);
        assert.match(metrics, /^muster_snapshot_load_duration_seconds_count\{phase="ready"\} 1$/m);
        assert.match(metrics, /^muster_engine_queue_length 0$/m);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0, output.stderr);
    },
  );
});

describe('muster serve on a port that is taken', () => {
  it(
    'exits 1 at once with one line naming the port and MUSTER_PORT, no stack trace',
    { timeout: 120_000 },
    async () => {
      const holder = createServer();
      await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
      const port = (holder.address() as AddressInfo).port;
      try {
        const { child, output, exited } = serve({
          MUSTER_DATABASE_URL: join(dir, 'busy.db'),
          MUSTER_HOST: '127.0.0.1',
          MUSTER_PORT: String(port),
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        const code = await exited;
        clearTimeout(timer);
        assert.equal(code, 1, `${output.stdout}\n${output.stderr}`);
        const lines = output.stderr.trim().split('\n');
        assert.equal(lines.length, 1, output.stderr);
        assert.match(lines[0], new RegExp(`port ${port}\\b.*MUSTER_PORT`));
        assert.doesNotMatch(output.stderr, /EADDRINUSE|\n\s+at /);
        assert.doesNotMatch(output.stdout, /listening on|started/);
      } finally {
        holder.close();
      }
    },
  );
});
