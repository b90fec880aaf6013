/**
 * `muster serve`'s pool of engine threads (docs/architecture.md#engine-thread): every statistics
 * route answers on two engine threads exactly what the engine computes on the serving thread,
 * the work is spread over both threads, and a reload while requests are in flight answers every
 * one of them (from the old or the new snapshot) and hands the new snapshot to every thread
 * before it is served: posted by the loading thread, not the serving one (snapshot-handoff.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { seedDemo } from '../../src/cli/seed-demo.ts';
import { servingSnapshots } from '../../src/threads/serving-snapshots.ts';
import { loadConfig } from '../../src/config/config.ts';
import { runEngineTask } from '../../src/engine/engine-tasks.ts';
import { exportSnapshotCaches } from '../../src/engine/snapshot-cache.ts';
import { warmEngine } from '../../src/engine/warm-engine.ts';
import { buildApp } from '../../src/http/app.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import type { EngineRunner } from '../../src/http/engine-runner.ts';
import { STATS_ROUTES } from '../../src/http/routes/index.ts';
import { answerHere } from '../../src/http/routes/stats-route.ts';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import type { ScenarioRequest } from '../../src/engine/scenario.ts';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import {
  TEST_ORIGIN,
  buildTestApp,
  forecastBodyOf,
  projectionBodyOf,
} from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND, openSharedTestStore } from '../support/test-store.ts';

const DEMO = generateDemo({ today: '2026-06-01' });

/** The engine on the serving thread, behind the same interface (the reference answers). */
const inThread: EngineRunner = {
  run: (task, snapshot, ...args) => Promise.resolve(runEngineTask(task, snapshot, ...args)),
  runAbortable: (_signal, task, snapshot, ...args) =>
    Promise.resolve(runEngineTask(task, snapshot, ...args)),
  answer: (_signal, order, task, snapshot, ...args) =>
    Promise.resolve(answerHere(order, task, snapshot, args)),
  pressure: () => ({
    waiting: 0,
    running: 0,
    oldestWaitMs: 0,
    lastRefusedAt: null,
    lastAbandonedAt: null,
  }),
  start: () => Promise.resolve(),
  prepare: () => Promise.resolve(),
  queued: () => 0,
  close: () => Promise.resolve(),
};

/** Requests over every statistics route, with options that reach each engine's branches. */
const REQUESTS: Array<[string, object]> = [
  ['/api/faction-stats', {}],
  ['/api/faction-stats', { from: '2025-01-01', groupBy: 'month', compareTo: { to: '2024-12-31' } }],
  [
    '/api/faction-stats',
    { excludeMirrors: false, interval: 'event-clustered', minParticipants: 12 },
  ],
  ['/api/army-matchup', {}],
  ['/api/army-matchup', { minGames: 3, from: '2025-03-01' }],
  ['/api/item-use-stats', {}],
  ['/api/item-use-stats', { sort: 'winRate', page: 2, pageSize: 10 }],
  ['/api/scenario-stats', {}],
  ['/api/scenario-stats', { minGames: 5, to: '2025-12-31' }],
  ['/api/scenario', {}],
  ['/api/rankings', {}],
  ['/api/rankings', { method: 'elo', from: '2025-01-01' }],
  ['/api/rankings', { method: 'points', page: 2 }],
  ['/api/rankings', { glicko2: { period: 'month' }, includeProvisional: true }],
  ['/api/events', {}],
  ['/api/events', { sort: 'entries', pageSize: 5 }],
  ['/api/faction-strength', {}],
  ['/api/faction-strength', { minParticipants: 12 }],
  ['/api/forecast', forecastBodyOf(DEMO)],
  // An event of the reload test's first snapshot too (its first 40 events).
  [
    '/api/event-projection',
    projectionBodyOf({ ...DEMO, events: (DEMO.events ?? []).slice(0, 40) }),
  ],
  [
    '/api/team-matrix',
    {
      teamA: [{ player: forecastBodyOf(DEMO).player1, faction: forecastBodyOf(DEMO).faction1 }],
      teamB: [{ player: forecastBodyOf(DEMO).player2, faction: forecastBodyOf(DEMO).faction2 }],
    },
  ],
  [
    '/api/team-pairing',
    {
      format: 'defender-attacker',
      matrix: [
        [10, 12, 8],
        [9, 10, 14],
        [13, 6, 10],
      ],
      gameTotal: 20,
    },
  ],
  ['/api/forecast-accuracy', {}],
  ['/api/forecast-accuracy', { from: '2025-06-01' }],
  ['/api/player-duplicates', {}],
  ['/api/player-duplicates', { minScore: 0.3 }],
];

/** An answer without its time of computation, which differs between any two computations. */
function answerOf(body: string): unknown {
  const parsed = JSON.parse(body) as { meta?: { generatedAt?: unknown } };
  if (parsed.meta !== undefined) delete parsed.meta.generatedAt;
  return parsed;
}

describe(`the engine pool (${TEST_BACKEND})`, () => {
  let pooled: TestApp;
  let reference: TestApp;
  // Every request comes from one client: its share of the expensive lane must not refuse any.
  const pool = new EnginePool({ threads: 2, maxQueued: 64, clientExpensiveWaiting: 1000 });
  before(async () => {
    // What is asserted is the answers, not their time: a loaded machine must not turn one into a 503.
    const env = { MUSTER_REQUEST_TIMEOUT_MS: '300000' };
    pooled = await buildTestApp({ seed: DEMO, shared: true, engineThread: pool, env });
    reference = await buildTestApp({ store: pooled.store, engineThread: inThread, env });
    // As `muster serve` does before serving a snapshot: every thread holds it, caches attached.
    await pool.start();
    await pool.prepare(pooled.snapshots.current()!);
  });
  after(async () => {
    await reference.close();
    await pooled.close();
    await pool.close();
  });

  const post = (t: TestApp, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN }, payload });

  it('asks every statistics route', () => {
    const asked = new Set(REQUESTS.map(([url]) => url));
    assert.deepEqual(
      STATS_ROUTES.map((route) => route.path).filter((path) => !asked.has(path)),
      [],
    );
  });

  it('answers every statistics route on two engine threads as the serving thread computes it', async () => {
    // All at once, so that both threads take some.
    const answers = await Promise.all(REQUESTS.map(([url, body]) => post(pooled, url, body)));
    for (const [i, [url, body]] of REQUESTS.entries()) {
      const expected = await post(reference, url, body);
      assert.equal(expected.statusCode, 200, `${url} ${expected.body}`);
      assert.equal(answers[i].statusCode, 200, `${url} ${answers[i].body}`);
      assert.deepEqual(
        answerOf(answers[i].body),
        answerOf(expected.body),
        `${url} ${JSON.stringify(body)}`,
      );
    }
    const perThread = pool.tasksPerThread();
    assert.equal(perThread.length, 2);
    assert.ok(
      perThread.every((n) => n > 0),
      `tasks per thread: ${perThread.join(', ')}`,
    );
  });

  it('refuses with the same problem as the serving thread (an unknown player is a 404)', async () => {
    const pooledAnswer = await post(pooled, '/api/rankings', { player: 'no-such-player' });
    const expected = await post(reference, '/api/rankings', { player: 'no-such-player' });
    assert.equal(pooledAnswer.statusCode, 404);
    assert.deepEqual(pooledAnswer.json(), expected.json());
  });
});

describe(`a reload on the engine pool while requests are in flight (${TEST_BACKEND})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('answers every request from the old or the new snapshot, then only from the new one on every thread', async () => {
    const { store, cleanup } = await openSharedTestStore();
    cleanups.push(cleanup, () => store.close());
    const slice = { ...DEMO, events: (DEMO.events ?? []).slice(0, 40) };
    await importCanonical(store, slice, { source: 'test-seed' });
    const pool = new EnginePool({ threads: 2, maxQueued: 1000, clientExpensiveWaiting: 1000 });
    cleanups.push(() => pool.close());
    // Loaded as `muster serve` loads: on a worker thread, the caches' data on shared memory.
    const manager = servingSnapshots(store, store.url, { pollMs: 3_600_000, engines: pool });
    const config = loadConfig({
      MUSTER_RATE_LIMIT_MAX: '1000000',
      MUSTER_LOG_LEVEL: 'silent',
      MUSTER_RESPONSE_CACHE_MB: '0',
      MUSTER_REQUEST_TIMEOUT_MS: '300000',
    });
    const app = await buildApp(
      { config, store, snapshots: manager, engineThread: pool },
      { logger: false },
    );
    cleanups.push(() => app.close());
    // Every snapshot the serving thread itself posts to an engine thread (none should be).
    const postMessage = Worker.prototype.postMessage;
    let postedHere = 0;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
      if ((message as { type?: string } | null)?.type === 'snapshot') postedHere++;
      return postMessage.call(this, message, ...rest);
    };
    cleanups.push(() => {
      Worker.prototype.postMessage = postMessage;
    });
    await Promise.all([manager.start(), pool.start()]);
    const before = manager.current()!.dataVersion;
    await seedDemo(store, '2026-06-01');

    const versions = new Set<number>();
    const failures: string[] = [];
    let sent = 0;
    let reloading = true;
    const ask = async (i: number) => {
      const [url, body] = REQUESTS[i % REQUESTS.length];
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { origin: TEST_ORIGIN },
        payload: body,
      });
      if (response.statusCode !== 200) failures.push(`${url}: ${response.body}`);
      else versions.add((response.json() as { meta: { dataVersion: number } }).meta.dataVersion);
    };
    // Four clients asking one request after another for as long as the reload runs.
    const clients = [0, 1, 2, 3].map(async (client) => {
      while (reloading) await ask(client + 4 * sent++);
    });
    assert.equal(await manager.refresh(), true);
    reloading = false;
    await Promise.all(clients);
    const after = manager.current()!.dataVersion;
    assert.notEqual(after, before);
    assert.deepEqual(failures, []);
    assert.ok(sent >= 8, `only ${sent} requests during the reload`);
    assert.ok(
      versions.has(before),
      'requests during the reload were answered from the old snapshot',
    );

    // Every thread holds the new snapshot now: whichever answers, it answers from it.
    const tasksBefore = pool.tasksPerThread();
    versions.clear();
    await Promise.all(REQUESTS.map((_, i) => ask(i)));
    assert.deepEqual(failures, []);
    assert.deepEqual([...versions], [after]);
    const tasksAfter = pool.tasksPerThread();
    assert.ok(
      tasksAfter.every((n, i) => n > tasksBefore[i]),
      `tasks per thread before ${tasksBefore.join(', ')}, after ${tasksAfter.join(', ')}`,
    );
    // Both snapshots reached both threads from the loading thread.
    assert.equal(postedHere, 0, 'snapshots posted by the serving thread');
  });
});

describe(`a snapshot handed to an engine thread by another thread (${TEST_BACKEND})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** The scenario catalogue of the whole snapshot: one task that reads its columns. */
  const catalogueOf = (snapshot: Snapshot): ScenarioRequest => ({
    system: snapshot.systems[0].id,
    from: null,
    to: null,
    minParticipants: null,
    maxParticipants: null,
    format: 'all',
    tiers: [],
    countries: [],
    rulesVersions: [],
    eventIds: [],
    minRounds: null,
    online: null,
    kinds: [],
    search: null,
  });

  async function smallSnapshot() {
    const { store, cleanup } = await openSharedTestStore();
    cleanups.push(cleanup, () => store.close());
    const slice = { ...DEMO, events: (DEMO.events ?? []).slice(0, 12) };
    await importCanonical(store, slice, { source: 'test-seed' });
    const snapshot = await loadSnapshot(store);
    warmEngine(snapshot);
    return snapshot;
  }

  it('runs a task sent before the snapshot has come, once it comes', async () => {
    const snapshot = await smallSnapshot();
    const thread = new EnginePool();
    cleanups.push(() => thread.close());
    const { ports, received } = thread.handoff();
    const [port] = ports;
    received(snapshot);
    const answer = thread.run('warm', snapshot);
    const expected = runEngineTask('scenarioCatalogue', snapshot, catalogueOf(snapshot));
    const stats = thread.run('scenarioCatalogue', snapshot, catalogueOf(snapshot));
    port.postMessage({ snapshot, derived: exportSnapshotCaches(snapshot) });
    port.close();
    assert.equal(await answer, null);
    assert.deepEqual(await stats, expected);
  });

  it('posts the snapshot itself when the other thread ends without sending it', async () => {
    const snapshot = await smallSnapshot();
    const thread = new EnginePool();
    cleanups.push(() => thread.close());
    const { ports, received } = thread.handoff();
    const [port] = ports;
    received(snapshot);
    const answer = thread.run('warm', snapshot);
    // As when the loading thread fails: its end of the port closes with nothing sent.
    port.close();
    assert.equal(await answer, null);
    assert.deepEqual(
      await thread.run('scenarioCatalogue', snapshot, catalogueOf(snapshot)),
      runEngineTask('scenarioCatalogue', snapshot, catalogueOf(snapshot)),
    );
  });
});
