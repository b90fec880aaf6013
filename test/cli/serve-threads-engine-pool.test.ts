/**
 * `muster serve` with two server threads sends every task with a warm key (ratings of a
 * parameter set not yet computed, a joint model) to the main thread's one engine pool
 * (docs/architecture.md#threads): health answers on new connections while such computations
 * run, its engine:queue check seeing the pool's queue, a client's share of the expensive lane holds over both threads (429
 * too-many-computations), and ratings of one parameter set are computed once for the service.
 * Each server runs over a copy of the pass's seeded demo database (test/support/seeded-demo-file.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { copySeededDemo } from '../support/seeded-demo-file.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const ORIGIN = 'http://stats.example';
const dir = mkdtempSync(join(tmpdir(), 'muster-threads-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function startServe(name: string) {
  const database = join(dir, `${name}.db`);
  await copySeededDemo(database);
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      MUSTER_PORT: '0',
      MUSTER_LOG_LEVEL: 'warn',
      MUSTER_DATABASE_URL: database,
      MUSTER_THREADS: '2',
      MUSTER_METRICS_PORT: '0',
      MUSTER_ALLOWED_ORIGINS: ORIGIN,
      MUSTER_RATE_LIMIT_MAX: '10000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (output.stdout += d));
  child.stderr.on('data', (d) => (output.stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  // The service's address, then the metrics' (printed after it).
  const [url, metricsUrl] = await new Promise<[string, string]>((done, fail) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(output.stdout);
      const metrics = /metrics \(operators only\): (http:\/\/\S+)/.exec(output.stdout);
      if (m && metrics) done([m[1], metrics[1]]);
    });
    void exited.then((code) => fail(new Error(`exited ${code}: ${output.stderr}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output.stderr);
  };
  return { url, metricsUrl, stop };
}

/** Rankings with Glicko-2's `tau` (a parameter set of its own), on a connection of its own. */
function rankings(url: string, tau: number, extra: object = {}): Promise<Response> {
  return fetch(`${url}/api/rankings`, {
    method: 'POST',
    headers: { connection: 'close', origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ glicko2: { tau }, ...extra }),
  });
}

async function expensiveComputations(metricsUrl: string): Promise<number> {
  const metrics = await (await fetch(metricsUrl)).text();
  const m = /^muster_engine_expensive_computations (\d+)$/m.exec(metrics);
  assert.ok(m !== null, metrics);
  return Number(m[1]);
}

describe('muster serve with two server threads and one engine pool', () => {
  it(
    'answers health on new connections while ratings of new parameter sets are computed',
    { timeout: 240_000 },
    async () => {
      const { url, stop } = await startServe('health');
      try {
        let settled = 0;
        // Three: one client's share of the expensive lane (one running, two waiting).
        const taus = [0.41, 0.42, 0.43];
        const computing = taus.map((tau) =>
          rankings(url, tau).then(async (r) => {
            await r.arrayBuffer();
            settled++;
            return r.status;
          }),
        );
        // Health on new connections until it has seen a computation waiting for the pool's one
        // engine thread (the rankings requests may reach the server after the first few health
        // requests), or until every computation has settled.
        const health: number[] = [];
        const waiting: number[] = [];
        let seenWaiting = false;
        while (!seenWaiting && settled < taus.length) {
          const response = await fetch(`${url}/api/health`, { headers: { connection: 'close' } });
          const body = (await response.json()) as {
            checks: Record<string, Array<{ observedValue: number }>>;
          };
          health.push(response.status);
          const queued = body.checks['engine:queue'][0].observedValue;
          waiting.push(queued);
          seenWaiting = queued >= 1 && settled < taus.length;
        }
        assert.deepEqual(health, Array<number>(health.length).fill(200));
        // The pool's one engine thread rates one parameter set at a time: the others wait
        // there, and engine:queue on whichever thread answers health sees them while they do.
        assert.ok(seenWaiting, `engine:queue waiting: ${waiting.join(' ')}`);
        assert.deepEqual(await Promise.all(computing), Array<number>(taus.length).fill(200));
      } finally {
        await stop();
      }
    },
  );

  it(
    "refuses one client's expensive requests past its share over both threads with 429 too-many-computations",
    { timeout: 240_000 },
    async () => {
      const { url, stop } = await startServe('share');
      try {
        const taus = [0.51, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57, 0.58];
        const answers = await Promise.all(taus.map((tau) => rankings(url, tau)));
        const refused = answers.filter((r) => r.status === 429);
        const bodies = await Promise.all(answers.map((r) => r.text()));
        assert.ok(refused.length > 0, `statuses: ${answers.map((r) => r.status).join(' ')}`);
        assert.equal(refused.length + answers.filter((r) => r.status === 200).length, 8);
        const problem = JSON.parse(bodies[answers.indexOf(refused[0])]) as { type: string };
        assert.equal(problem.type, '/problems/too-many-computations');
        assert.equal(refused[0].headers.get('retry-after'), '2');
        assert.match(String(refused[0].headers.get('content-type')), /^application\/problem\+json/);
      } finally {
        await stop();
      }
    },
  );

  it(
    'computes the ratings of one parameter set once for the service, whichever thread asks',
    { timeout: 240_000 },
    async () => {
      const { url, metricsUrl, stop } = await startServe('once');
      try {
        const before = await expensiveComputations(metricsUrl);
        // One parameter set, minimum games apart so that no answer is another's in the response cache.
        for (let minGames = 0; minGames < 6; minGames++) {
          const response = await rankings(url, 0.61, { minGames });
          await response.arrayBuffer();
          assert.equal(response.status, 200);
        }
        assert.equal(await expensiveComputations(metricsUrl), before + 1);
      } finally {
        await stop();
      }
    },
  );
});
