/**
 * `muster serve` with two server threads on one port (docs/operations.md#threads), clients on
 * new connections so the kernel spreads them: both threads answer, the rate limit is exact
 * over both, health answers the same from either and lists both, one scrape of /metrics covers
 * both, an answer computed on one thread is a hit on the other (one response cache on shared
 * memory), and SIGTERM with requests in flight on the threads answers every one and exits 0.
 * Each server runs over a copy of the pass's seeded demo database (test/support/seeded-demo-file.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { copySeededDemo } from '../support/seeded-demo-file.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-threads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `muster serve` over a copy of the seeded demo database at `MUSTER_DATABASE_URL` (a file). */
async function startServe(env: Record<string, string> & { MUSTER_DATABASE_URL: string }) {
  await copySeededDemo(env.MUSTER_DATABASE_URL);
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, MUSTER_PORT: '0', MUSTER_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (output.stdout += d));
  child.stderr.on('data', (d) => (output.stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(output.stdout);
      if (m) done(m[1]);
    });
    void exited.then((code) => fail(new Error(`exited ${code}: ${output.stderr}`)));
  });
  return { child, output, exited, url };
}

/** A GET on a connection of its own. */
async function fresh(url: string): Promise<Response> {
  return fetch(url, { headers: { connection: 'close' } });
}

interface Health {
  status: string;
  checks: Record<string, Array<{ componentId?: string; status: string; observedValue: number }>>;
}

describe('muster serve with two server threads', () => {
  it(
    'answers from both threads, the rate limit exact over both, health and /metrics covering both',
    { timeout: 240_000 },
    async () => {
      const { child, output, exited, url } = await startServe({
        MUSTER_DATABASE_URL: join(dir, 'limits.db'),
        MUSTER_THREADS: '2',
        MUSTER_RATE_LIMIT_MAX: '10',
        MUSTER_METRICS_PORT: '0',
      });
      try {
        assert.match(output.stdout, /2 server threads on the one port/);
        const statuses: number[] = [];
        for (let i = 0; i < 24; i++) {
          const response = await fresh(`${url}/.well-known/api-catalog`);
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        assert.deepEqual(
          statuses,
          [...Array<number>(10).fill(200), ...Array<number>(14).fill(429)],
          'the 11th request of the window is refused, whichever thread took it',
        );
        // Health is not limited; any thread answers it the same, listing both.
        const lists = new Set<string>();
        for (let i = 0; i < 6; i++) {
          const response = await fresh(`${url}/api/health`);
          assert.equal(response.status, 200);
          const body = (await response.json()) as Health;
          const threads = body.checks['thread:requests'];
          lists.add(JSON.stringify(threads.map((t) => [t.componentId, t.status])));
        }
        assert.deepEqual(
          [...lists],
          [
            JSON.stringify([
              ['thread-0', 'pass'],
              ['thread-1', 'pass'],
            ]),
          ],
        );
        const metricsUrl = /metrics \(operators only\): (http:\/\/\S+)/.exec(output.stdout)?.[1];
        assert.ok(metricsUrl !== undefined, output.stdout);
        const metrics = await (await fetch(metricsUrl)).text();
        const answered = [0, 1].map((thread) =>
          Number(
            new RegExp(`^muster_thread_requests_total\\{thread="${thread}"\\} (\\d+)$`, 'm').exec(
              metrics,
            )?.[1],
          ),
        );
        assert.ok(
          answered.every((n) => n > 0),
          `both threads answered: ${answered.join(' / ')}`,
        );
        assert.equal(answered[0] + answered[1], 30, 'every answer counted once');
        // The requests' latency, summed over the threads in the one scrape.
        const counted = [
          ...metrics.matchAll(/^muster_http_request_duration_seconds_count\{[^}]*\} (\d+)$/gm),
        ].reduce((sum, m) => sum + Number(m[1]), 0);
        assert.equal(counted, 30, metrics);
        assert.match(metrics, /^muster_snapshot_load_duration_seconds_count\{phase="ready"\} 1$/m);
        assert.equal(metrics.match(/^# TYPE muster_process_cpu_seconds_total/gm)?.length, 1);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0, output.stderr);
    },
  );

  it(
    'answers on either thread from the one response cache what one thread computed',
    { timeout: 240_000 },
    async () => {
      const { child, output, exited, url } = await startServe({
        MUSTER_DATABASE_URL: join(dir, 'cache.db'),
        MUSTER_THREADS: '2',
        MUSTER_METRICS_PORT: '0',
        MUSTER_ALLOWED_ORIGINS: 'http://stats.example',
        MUSTER_RATE_LIMIT_MAX: '10000',
      });
      try {
        // The metrics' address is printed just after the service's.
        let metricsUrl: string | undefined;
        for (let i = 0; i < 100 && metricsUrl === undefined; i++) {
          metricsUrl = /metrics \(operators only\): (http:\/\/\S+)/.exec(output.stdout)?.[1];
          if (metricsUrl === undefined) await new Promise((done) => setTimeout(done, 50));
        }
        assert.ok(metricsUrl !== undefined, output.stdout);
        const answeredBy = async () => {
          const metrics = await (await fetch(metricsUrl!)).text();
          return [0, 1].map((thread) =>
            Number(
              new RegExp(`^muster_thread_requests_total\\{thread="${thread}"\\} (\\d+)$`, 'm').exec(
                metrics,
              )?.[1],
            ),
          );
        };
        const before = await answeredBy();
        const bodies = new Set<string>();
        for (let i = 0; i < 12; i++) {
          const response = await fetch(`${url}/api/faction-stats`, {
            method: 'POST',
            headers: {
              connection: 'close',
              origin: 'http://stats.example',
              'content-type': 'application/json',
            },
            body: JSON.stringify({ minParticipants: 3 }),
          });
          assert.equal(response.status, 200);
          bodies.add(await response.text());
        }
        const after = await answeredBy();
        assert.ok(
          [0, 1].every((t) => after[t] > before[t]),
          `both threads answered: ${before.join(' / ')} -> ${after.join(' / ')}`,
        );
        // generatedAt differs between computations: one body means one computation.
        assert.equal(bodies.size, 1, 'computed once, a hit on both threads since');
        const metrics = await (await fetch(metricsUrl)).text();
        const outcome = (cache: string) =>
          metrics
            .split('\n')
            .filter((line) => line.startsWith('muster_http_request_duration_seconds_count{'))
            .filter((line) => line.includes('route="/api/faction-stats"'))
            .filter((line) => line.includes(`cache="${cache}"`))
            .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
        assert.deepEqual([outcome('miss'), outcome('hit')], [1, 11], metrics);
        // The one cache's figures, once in the scrape, not once per thread.
        assert.match(metrics, /^muster_response_cache_hits_total 11$/m);
        assert.match(metrics, /^muster_response_cache_misses_total 1$/m);
        // Health's figures are the service's, from either thread.
        const health = (await (await fetch(`${url}/api/health`)).json()) as {
          checks: Record<string, Array<{ hits: number; misses: number; entries: number }>>;
        };
        const cache = health.checks['responseCache:bytes'][0];
        assert.deepEqual([cache.hits, cache.misses], [11, 1]);
        assert.ok(cache.entries >= 1);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0, output.stderr);
    },
  );

  it(
    'answers every request in flight on the threads after SIGTERM, then exits 0',
    { timeout: 240_000 },
    async () => {
      const { child, output, exited, url } = await startServe({
        MUSTER_DATABASE_URL: join(dir, 'sigterm.db'),
        MUSTER_THREADS: '2',
        MUSTER_SHUTDOWN_GRACE_MS: '5000',
        MUSTER_ALLOWED_ORIGINS: 'http://stats.example',
      });
      const { port } = new URL(url);
      const body = '{}';
      // Twelve connections, each a request whose body is yet to come: the kernel spreads them
      // over both threads (all on one: 1 in 2,048).
      const sockets = Array.from({ length: 12 }, () => connect(Number(port), '127.0.0.1'));
      const answers = sockets.map(
        (socket) =>
          new Promise<string>((done) => {
            let text = '';
            socket.on('data', (d) => (text += d));
            socket.on('close', () => done(text));
            socket.on('error', () => undefined);
          }),
      );
      for (const socket of sockets) {
        socket.write(
          `POST /api/faction-stats HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://stats.example\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
      }
      await new Promise((done) => setTimeout(done, 500));
      child.kill('SIGTERM');
      await new Promise((done) => setTimeout(done, 500));
      for (const socket of sockets) socket.end(body);
      const texts = await Promise.all(answers);
      for (const text of texts) {
        assert.match(text, /^HTTP\/1\.1 200 /, text.slice(0, 300));
        assert.match(text, /connection: close/i);
      }
      assert.equal(await exited, 0, output.stderr);
    },
  );
});
