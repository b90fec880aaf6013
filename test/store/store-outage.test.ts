/**
 * The store going away while Muster serves (docs/operations.md#store-outages): PostgreSQL ending
 * connections (a restart, a failover, an idle-session reaper), a network that drops them, a
 * table held locked. The process lives, answers statistics from its snapshot, says it is
 * degraded, and recovers by itself; an import cut off fails with its reason and writes nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { main } from '../../src/cli/main.ts';
import { openMigratedStore } from '../../src/store/store.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import type { TcpProxy } from '../support/tcp-proxy.ts';
import { TEST_ORIGIN, buildTestApp, demoSlice } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND, TEST_DATABASE_URL } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'muster.js');

interface Health {
  status: string;
  checks: Record<string, Array<{ status: string; output?: string }>>;
}

/** Polls `condition` every 100 ms until it holds or `ms` pass. */
async function until(condition: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${what}`);
    await sleep(100);
  }
}

describe(`the store going away while serving (${TEST_BACKEND})`, () => {
  const applicationName = `muster_outage_${randomBytes(4).toString('hex')}`;
  const schema = `t_outage_${randomBytes(4).toString('hex')}`;
  const connectionErrors: Error[] = [];
  let proxy: TcpProxy;
  let admin: pg.Client;
  let url: string;
  let t: TestApp;

  before(async () => {
    if (TEST_BACKEND !== 'postgres') return;
    const direct = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
    const proxied = new URL(TEST_DATABASE_URL);
    proxied.host = `127.0.0.1:${proxy.port}`;
    proxied.searchParams.set('application_name', applicationName);
    url = proxied.toString();
    const store = await openMigratedStore(url, {
      schema,
      onConnectionError: (error) => connectionErrors.push(error),
    });
    proxied.searchParams.set('schema', schema);
    const testStore: TestStore = Object.assign(store, { url: proxied.toString() });
    t = await buildTestApp({ seed: 'demo-slice', store: testStore });
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  after(async () => {
    if (TEST_BACKEND !== 'postgres') return;
    await t.close();
    await t.store.close();
    await admin.end();
    await proxy.close();
  });

  const health = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    return { code: response.statusCode, body: response.json<Health>() };
  };
  const factionStats = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/faction-stats',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: { system: demoSlice().systems?.[0]?.id },
    });
  const terminate = async (where = '') =>
    (
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 ${where}`,
        [applicationName],
      )
    ).rowCount ?? 0;

  it('lives through PostgreSQL terminating its connections, and the next queries reconnect', async (ctx) => {
    if (TEST_BACKEND !== 'postgres') return ctx.skip('runs in the PostgreSQL pass of npm test');
    assert.equal((await health()).body.status, 'pass');
    const ended = await terminate();
    assert.ok(ended >= 2, `terminated ${ended} connections`);
    // The pool tells of its idle connections' ends instead of throwing them at the process.
    await until(
      async () => connectionErrors.length > 0,
      5000,
      'the pool told of an ended connection',
    );
    assert.match(connectionErrors[0].message, /terminat/i);
    await sleep(200);
    const after = await health();
    assert.equal(after.code, 200);
    assert.equal(after.body.status, 'pass', JSON.stringify(after.body.checks));
    assert.equal((await factionStats()).statusCode, 200);
    // Writes reconnect too: an import after the outage lands, and a reload picks it up.
    const before = t.snapshots.current()?.dataVersion ?? 0;
    const dir = mkdtempSync(join(tmpdir(), 'muster-outage-'));
    try {
      const file = join(dir, 'small.json');
      writeFileSync(file, JSON.stringify(smallDocument()));
      const err: string[] = [];
      const code = await main(['import', '--format', 'canonical', file], {
        out: () => undefined,
        err: (line) => err.push(line),
        env: { MUSTER_DATABASE_URL: t.store.url },
      });
      assert.equal(code, 0, err.join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(await t.snapshots.refresh(), true);
    assert.ok((t.snapshots.current()?.dataVersion ?? 0) > before);
  });

  it('answers statistics from its snapshot while the store is unreachable, says it is degraded (not down), and recovers', async (ctx) => {
    if (TEST_BACKEND !== 'postgres') return ctx.skip('runs in the PostgreSQL pass of npm test');
    const served = t.snapshots.current()?.dataVersion;
    proxy.down();
    try {
      const started = performance.now();
      const degraded = await health();
      assert.ok(performance.now() - started < 4000, 'health answered within its bound');
      // 200 with "warn": a load balancer keeps the instance, which still answers statistics.
      assert.equal(degraded.code, 200);
      assert.equal(degraded.body.status, 'warn');
      assert.equal(degraded.body.checks['store:responseTime'][0].status, 'fail');
      assert.match(degraded.body.checks['store:responseTime'][0].output ?? '', /unreachable/);
      assert.equal(degraded.body.checks['snapshot:games'][0].status, 'warn');
      assert.match(
        degraded.body.checks['snapshot:games'][0].output ?? '',
        new RegExp(`snapshot of data version ${served}`),
      );
      assert.equal((await factionStats()).statusCode, 200);
      // The poll fails and the snapshot stays.
      await assert.rejects(t.snapshots.refresh());
      assert.equal(t.snapshots.current()?.dataVersion, served);
    } finally {
      proxy.up();
    }
    await until(async () => (await health()).body.status === 'pass', 15_000, 'health passes again');
    assert.equal(await t.snapshots.refresh(), false);
    assert.equal((await factionStats()).statusCode, 200);
  });

  it('answers health within its bound while a table it reads is locked', async (ctx) => {
    if (TEST_BACKEND !== 'postgres') return ctx.skip('runs in the PostgreSQL pass of npm test');
    await admin.query('begin');
    try {
      await admin.query(`lock table ${schema}.meta in access exclusive mode`);
      const started = performance.now();
      const locked = await health();
      const ms = performance.now() - started;
      assert.ok(ms < 3500, `health took ${Math.round(ms)} ms`);
      assert.equal(locked.code, 200);
      assert.equal(locked.body.status, 'warn');
      assert.equal(locked.body.checks['store:read'][0].status, 'fail');
      // The poll is bounded the same way: it fails instead of hanging.
      const poll = performance.now();
      await assert.rejects(t.snapshots.refresh());
      assert.ok(performance.now() - poll < 3500);
    } finally {
      await admin.query('rollback');
    }
    assert.equal((await health()).body.status, 'pass');
  });

  it('fails an import whose connection is ended mid-way with the reason, and writes nothing', async (ctx) => {
    if (TEST_BACKEND !== 'postgres') return ctx.skip('runs in the PostgreSQL pass of npm test');
    const events = async () =>
      Number((await admin.query(`select count(*) from ${schema}.events`)).rows[0].count);
    const version = async () =>
      Number(
        (await admin.query(`select value from ${schema}.meta where key = 'data_version'`)).rows[0]
          .value,
      );
    const [eventsBefore, versionBefore] = [await events(), await version()];
    const dir = mkdtempSync(join(tmpdir(), 'muster-outage-'));
    const file = join(dir, 'cut.json');
    const document = smallDocument();
    for (const event of document.events) event.id = `cut-${event.id}`;
    writeFileSync(file, JSON.stringify(document));
    const err: string[] = [];
    // Hold the events table, so the import waits inside its transaction, then end its connection.
    // (On a client of its own: a transaction sees pg_stat_activity as of its first look.)
    const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    let code: number;
    try {
      await locker.query('begin');
      await locker.query(`lock table ${schema}.events in access exclusive mode`);
      const running = main(['import', '--format', 'canonical', file], {
        out: () => undefined,
        err: (line) => err.push(line),
        env: { MUSTER_DATABASE_URL: t.store.url },
      });
      await until(
        async () =>
          (
            await admin.query(
              `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
              [applicationName],
            )
          ).rowCount! > 0,
        10_000,
        'the import waits on the lock',
      );
      assert.ok((await terminate(`and wait_event_type = 'Lock'`)) >= 1);
      await locker.query('rollback');
      code = await running;
    } finally {
      await locker.end();
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(code, 1);
    assert.match(err.join('\n'), /terminat/i);
    assert.equal(await events(), eventsBefore);
    assert.equal(await version(), versionBefore);
    // The serving side never noticed; health shows the failed import with its reason.
    const after = await health();
    assert.equal(after.code, 200);
    assert.equal(after.body.checks['store:responseTime'][0].status, 'pass');
    assert.match(after.body.checks['import:last'][0].output ?? '', /failed: .*terminat/);
  });
});

describe(`muster serve as a process when PostgreSQL ends its connections (${TEST_BACKEND})`, () => {
  it(
    'keeps serving and exits 0 on SIGTERM after every backend it held was terminated',
    { timeout: 120_000 },
    async (ctx) => {
      if (TEST_BACKEND !== 'postgres') return ctx.skip('runs in the PostgreSQL pass of npm test');
      const applicationName = `muster_serve_${randomBytes(4).toString('hex')}`;
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('application_name', applicationName);
      url.searchParams.set('schema', `t_serve_${randomBytes(4).toString('hex')}`);
      const dir = mkdtempSync(join(tmpdir(), 'muster-outage-'));
      const file = join(dir, 'small.json');
      writeFileSync(file, JSON.stringify(smallDocument()));
      const env = { MUSTER_DATABASE_URL: url.toString() };
      assert.equal(
        await main(['import', '--format', 'canonical', file], {
          out: () => undefined,
          err: () => undefined,
          env,
        }),
        0,
      );
      rmSync(dir, { recursive: true, force: true });
      const child = spawn(process.execPath, [BIN, 'serve'], {
        env: {
          ...process.env,
          ...env,
          MUSTER_PORT: '0',
          MUSTER_LOG_LEVEL: 'warn',
          MUSTER_ENGINE_THREADS: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        const base = await new Promise<URL>((resolve, reject) => {
          child.stdout.on('data', (d) => {
            stdout += d;
            const m = /listening on (http:\/\/[^\s]+)/.exec(stdout);
            if (m) resolve(new URL(m[1]));
          });
          void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
        });
        const health = async () => {
          const response = await fetch(new URL('/api/health', base));
          return { code: response.status, body: (await response.json()) as Health };
        };
        assert.equal((await health()).body.status, 'pass');
        const ended = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [applicationName],
        );
        assert.ok((ended.rowCount ?? 0) >= 1, 'it held connections');
        // Past a data-version poll (every 2 s), on connections that were ended under it.
        await sleep(2500);
        const after = await health();
        assert.equal(after.code, 200);
        assert.equal(after.body.status, 'pass', JSON.stringify(after.body.checks));
        // Logged (JSON lines on standard output), once per 10 s whatever the count.
        assert.match(stdout, /store connection ended/);
      } finally {
        child.kill('SIGTERM');
        await admin.end();
      }
      assert.equal(await exited, 0, stderr);
    },
  );
});
