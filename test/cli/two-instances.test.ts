/**
 * Instances that agree (README "Production: N instances behind a load balancer"): two
 * `muster serve` processes on one PostgreSQL schema and one Redis database pick up an import made
 * through the CLI, answer with the same data version and numbers, report it in health, and count
 * a client's requests together. Runs in the PostgreSQL pass; needs Redis (required under CI).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');
const REDIS_URL = process.env.MUSTER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 6;
const dir = mkdtempSync(join(tmpdir(), 'muster-two-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function redisProblem(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    redis.disconnect();
  }
}

/** Starts `muster serve` and resolves to its base URL once it listens. */
function startServer(env: Record<string, string>, children: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) done(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`muster serve exited ${code}: ${stderr}`)));
  });
}

async function servedVersion(url: string): Promise<number | null> {
  const health = (await (await fetch(`${url}/api/health`)).json()) as {
    checks: Record<string, Array<{ dataVersion?: number }>>;
  };
  return health.checks['snapshot:games']?.[0]?.dataVersion ?? null;
}

describe('two muster serve instances on one PostgreSQL database and one Redis', () => {
  it(
    'both serve an import made through the CLI within seconds, with identical numbers, and share the rate limit',
    { timeout: 240_000 },
    async (ctx) => {
      if (TEST_BACKEND !== 'postgres') {
        ctx.skip('runs in the PostgreSQL pass of npm test');
        return;
      }
      const problem = await redisProblem();
      if (problem !== null) {
        const message = `Redis at ${REDIS_URL} unreachable (${problem})`;
        if (process.env.CI === 'true') assert.fail(`${message}; CI requires it`);
        ctx.skip(`${message}; start Redis or set MUSTER_TEST_REDIS_URL to run this test`);
        return;
      }
      const store = await openTestStore();
      await store.close();
      const env = {
        MUSTER_DATABASE_URL: store.url,
        MUSTER_REDIS_URL: REDIS_URL,
        MUSTER_PORT: '0',
        MUSTER_WORKERS: '1',
        MUSTER_LOG_LEVEL: 'warn',
        MUSTER_SNAPSHOT_POLL_MS: '200',
        MUSTER_RATE_LIMIT_MAX: String(LIMIT),
        MUSTER_TRUST_PROXY: 'true',
        MUSTER_ALLOW_NO_ORIGIN: 'true',
      };
      const children: ChildProcess[] = [];
      try {
        const [a, b] = await Promise.all([startServer(env, children), startServer(env, children)]);
        const before = await servedVersion(a);
        assert.equal(before, await servedVersion(b));

        const file = join(dir, 'batch.json');
        writeFileSync(file, JSON.stringify(smallDocument()));
        const imported = spawnSync(process.execPath, [BIN, 'import', file], {
          env: { ...process.env, ...env },
          encoding: 'utf8',
        });
        assert.equal(imported.status, 0, imported.stderr);

        const deadline = Date.now() + 15_000;
        let versions = [before, before];
        while (Date.now() < deadline) {
          versions = await Promise.all([servedVersion(a), servedVersion(b)]);
          if (versions.every((v) => v !== null && v !== before)) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.ok(versions[0] !== before && versions[0] === versions[1], `versions ${versions}`);

        const ask = (url: string, client: string) =>
          fetch(`${url}/api/faction-stats`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
            body: JSON.stringify({ system: 'tow' }),
          });
        const [ra, rb] = await Promise.all([ask(a, '203.0.113.1'), ask(b, '203.0.113.2')]);
        assert.equal(ra.status, 200);
        assert.equal(rb.status, 200);
        const [ja, jb] = (await Promise.all([ra.json(), rb.json()])) as Array<{
          data: { factions: unknown[] };
          meta: { dataVersion: number };
        }>;
        assert.equal(ja.meta.dataVersion, versions[0]);
        assert.equal(jb.meta.dataVersion, versions[0]);
        assert.ok(ja.data.factions.length > 0);
        assert.deepEqual(ja.data, jb.data);

        // One client, alternating instances: the shared counter refuses the request after LIMIT.
        const client = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
        const statuses: number[] = [];
        for (let i = 0; i <= LIMIT; i++) {
          statuses.push((await ask(i % 2 === 0 ? a : b, client)).status);
        }
        assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429]);
      } finally {
        for (const child of children) child.kill('SIGTERM');
      }
    },
  );
});
