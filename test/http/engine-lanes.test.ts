/**
 * How the engine threads' work is scheduled under a burst (docs/operations.md#limits): cheap
 * tasks go before expensive ones that came first, each lane has its own bound on waiting tasks,
 * each client has a share of the expensive lane and takes its turn with the others, a task
 * whose waiters have all gone is dropped before it starts, a rating run is cancelled
 * where it stands, the response cache aborts a computation only when its last waiter leaves,
 * and health says "degraded" while computations are refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TaskCancelled, withCancellation } from '../../src/engine/cancellation.ts';
import { normaliseCommonFilter } from '../../src/engine/filter.ts';
import type { CommonFilter } from '../../src/engine/filter.ts';
import { leaderboard } from '../../src/engine/ratings/leaderboard.ts';
import type { ScenarioRequest } from '../../src/engine/scenario.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import type { EngineHost } from '../../src/threads/engine-host.ts';
import { ResponseCache } from '../../src/http/response-cache.ts';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import { TEST_ORIGIN, buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const DEMO = generateDemo({ today: '2026-06-01' });

const catalogueOf = (snapshot: Snapshot): ScenarioRequest => ({
  ...normaliseCommonFilter(snapshot, {}),
  kinds: [],
  search: null,
});

describe(`the engine's lanes (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let snapshot: Snapshot;
  let common: CommonFilter;
  const pools: EnginePool[] = [];
  before(async () => {
    t = await buildTestApp({ seed: DEMO, shared: true });
    snapshot = t.snapshots.current()!;
    common = normaliseCommonFilter(snapshot, {});
  });
  after(async () => {
    for (const pool of pools) await pool.close();
    await t.close();
  });
  const pool = (options: ConstructorParameters<typeof EnginePool>[0]) => {
    const made = new EnginePool(options);
    pools.push(made);
    return made;
  };
  // New Glicko-2 parameters: ratings no thread has computed, so an expensive task.
  const rate = (engines: EnginePool, tau: number, signal?: AbortSignal) =>
    engines.runAbortable({ signal }, 'leaderboard', snapshot, common, { glicko2: { tau } });

  it('runs a cheap task before the expensive ones that came before it', async () => {
    const engines = pool({ threads: 1, maxQueued: 64 });
    await engines.start();
    const order: string[] = [];
    const done = (name: string) => (value: unknown) => {
      order.push(name);
      return value;
    };
    const expensive = [0.31, 0.32, 0.33, 0.34].map((tau, i) =>
      rate(engines, tau).then(done(`expensive ${i + 1}`)),
    );
    const cheap = engines
      .run('scenarioCatalogue', snapshot, catalogueOf(snapshot))
      .then(done('cheap'));
    await Promise.all([...expensive, cheap]);
    // The first expensive task had started before the cheap one came; the rest wait behind it.
    assert.deepEqual(order.slice(0, 2), ['expensive 1', 'cheap']);
  });

  it('refuses expensive tasks past their own bound and still takes cheap ones', async () => {
    const engines = pool({ threads: 1, maxQueued: 8, maxExpensiveQueued: 2 });
    await engines.start();
    const expensive = [0.41, 0.42, 0.43, 0.44, 0.45, 0.46].map((tau) =>
      rate(engines, tau).then(
        () => 'ok',
        (error: { kind?: string }) => error.kind ?? 'failed',
      ),
    );
    const cheap = Array.from({ length: 8 }, () =>
      engines.run('scenarioCatalogue', snapshot, catalogueOf(snapshot)).then(
        () => 'ok',
        (error: { kind?: string }) => error.kind ?? 'failed',
      ),
    );
    // One runs, two wait, three are refused; every cheap task is taken.
    assert.deepEqual(await Promise.all(expensive), ['ok', 'ok', 'ok', 'busy', 'busy', 'busy']);
    assert.deepEqual(await Promise.all(cheap), Array(8).fill('ok'));
    assert.notEqual(engines.pressure().lastRefusedAt, null);
  });

  it('drops a waiting task whose signal aborts, answering its reason at once, and never sends it', async () => {
    const engines = pool({ threads: 1, maxQueued: 64 });
    await engines.start();
    const first = rate(engines, 0.51);
    const abandoned = new AbortController();
    const second = rate(engines, 0.52, abandoned.signal);
    const reason = new Error('the client went away');
    abandoned.abort(reason);
    await assert.rejects(second, (error) => error === reason);
    await first;
    assert.deepEqual(engines.tasksPerThread(), [1]);
    assert.equal(engines.pressure().waiting, 0);
    assert.notEqual(engines.pressure().lastAbandonedAt, null);
  });

  it("serves another client's expensive task before a flooding client's waiting ones and refuses the flooder past its share", async () => {
    const engines = pool({ threads: 1, maxQueued: 64 });
    await engines.start();
    const order: string[] = [];
    const outcome = (name: string, client: string, tau: number) =>
      engines.runAbortable({ client }, 'leaderboard', snapshot, common, { glicko2: { tau } }).then(
        () => order.push(name),
        (error: { kind?: string; headers?: Record<string, string> }) => {
          order.push(`${name} refused`);
          return error;
        },
      );
    // One runs and two wait: the flooder's whole share (one running with one thread, two waiting).
    const flood = [0.911, 0.912, 0.913, 0.914, 0.915].map((tau, i) =>
      outcome(`flooder ${i + 1}`, '10.0.0.1', tau),
    );
    const victim = outcome('victim', '10.0.0.2', 0.921);
    const refused = await flood[3];
    assert.equal((refused as { kind?: string }).kind, 'too-many-computations');
    assert.equal((refused as { headers?: Record<string, string> }).headers?.['retry-after'], '2');
    await Promise.all([...flood, victim]);
    assert.deepEqual(order.slice(0, 2), ['flooder 4 refused', 'flooder 5 refused']);
    // The victim's task came after the flooder's waiting ones and ran before them.
    assert.deepEqual(order.slice(2), ['flooder 1', 'victim', 'flooder 2', 'flooder 3']);
    assert.equal(engines.pressure().waiting, 0);
    // Its share is free again once answered.
    await outcome('flooder again', '10.0.0.1', 0.916);
    assert.equal(order.at(-1), 'flooder again');
  });

  it("takes turns between clients over every thread's queue, not only within one thread's", async () => {
    const engines = pool({ threads: 2, maxQueued: 64 });
    await engines.start();
    const order: string[] = [];
    const outcome = (name: string, client: string, tau: number) =>
      engines
        .runAbortable({ client }, 'leaderboard', snapshot, common, { glicko2: { tau } })
        .then(() => order.push(name));
    // Two threads, one expensive task at a time. The flooder's first task hashes to the thread
    // the victim's does, its next two to the other one.
    const flood = [0.981, 0.982, 0.984].map((tau, i) =>
      outcome(`flooder ${i + 1}`, '10.0.0.1', tau),
    );
    const victim = outcome('victim', '10.0.0.2', 0.983);
    await Promise.all([...flood, victim]);
    assert.deepEqual(order, ['flooder 1', 'victim', 'flooder 2', 'flooder 3']);
  });

  it('counts expensive tasks without a client against no share', async () => {
    const engines = pool({ threads: 1, maxQueued: 64, maxExpensiveQueued: 8 });
    await engines.start();
    const answers = await Promise.all(
      [0.931, 0.932, 0.933, 0.934, 0.935].map((tau) =>
        rate(engines, tau).then(
          () => 'ok',
          (error: { kind?: string }) => error.kind ?? 'failed',
        ),
      ),
    );
    assert.deepEqual(answers, Array(5).fill('ok'));
  });

  it('lets a running computation whose waiter left run on when a waiting task needs what it keeps', async () => {
    const engines = pool({ threads: 1, maxQueued: 64 });
    await engines.start();
    const cancelled: unknown[] = [];
    for (const worker of (engines as unknown as { workers: EngineHost[] }).workers) {
      const cancel = worker.cancel.bind(worker);
      worker.cancel = (task) => {
        cancelled.push(task);
        cancel(task);
      };
    }
    // Two filters of one system share its backtest: the second waits for the thread.
    const lastYear = normaliseCommonFilter(snapshot, { from: '2025-06-01' });
    const leaving = new AbortController();
    const first = engines.runAbortable(
      { signal: leaving.signal },
      'forecastAccuracy',
      snapshot,
      common,
    );
    const second = engines.runAbortable({}, 'forecastAccuracy', snapshot, lastYear);
    const reason = new Error('the first client went away');
    leaving.abort(reason);
    await assert.rejects(first, (error) => error === reason);
    assert.ok((await second).data.models.length > 0);
    assert.deepEqual(cancelled, [], 'the backtest the second task needs was not cancelled');
    // With nobody else waiting for it, a running computation is cancelled as before.
    const alone = new AbortController();
    const third = rate(engines, 0.971, alone.signal);
    alone.abort(new Error('gone'));
    await assert.rejects(third);
    assert.equal(cancelled.length, 1);
  });

  it('gives every thread but one to expensive tasks at most, so one is always free for cheap ones', async () => {
    const engines = pool({ threads: 2, maxQueued: 64 });
    await engines.start();
    const taus = [0.61, 0.62, 0.63, 0.64, 0.65, 0.66];
    let answered = 0;
    const expensive = taus.map((tau) => rate(engines, tau).then(() => answered++));
    // With two threads, one expensive task runs at a time; the others wait for it.
    assert.equal(engines.pressure().running, 1);
    assert.equal(engines.pressure().waiting, taus.length - 1);
    await engines.run('scenarioCatalogue', snapshot, catalogueOf(snapshot));
    assert.ok(answered < taus.length, `the cheap task waited for all ${answered} expensive ones`);
    await Promise.all(expensive);
    assert.equal(engines.pressure().running, 0);
  });
});

describe(`a client's share of the expensive lane over HTTP (${TEST_BACKEND})`, () => {
  let t: TestApp;
  const thread = new EnginePool({ maxQueued: 64 });
  before(async () => {
    t = await buildTestApp({ seed: DEMO, shared: true, engineThread: thread });
  });
  after(async () => {
    await t.close();
    await thread.close();
  });

  it("refuses a client's rankings past its share with 429 too-many-computations while another client's are answered", async () => {
    const rankings = (remoteAddress: string, tau: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/rankings',
        remoteAddress,
        headers: { origin: TEST_ORIGIN },
        payload: { glicko2: { tau } },
      });
    const flood = [0.951, 0.952, 0.953, 0.954, 0.955, 0.956, 0.957, 0.958].map((tau) =>
      rankings('10.0.0.1', tau),
    );
    const victim = rankings('10.0.0.2', 0.961);
    const answers = await Promise.all(flood);
    assert.equal((await victim).statusCode, 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    assert.ok(refused.length > 0, 'the flooder was refused past its share');
    assert.equal(refused.length + answers.filter((r) => r.statusCode === 200).length, 8);
    assert.equal(refused[0].json().type, '/problems/too-many-computations');
    assert.equal(refused[0].headers['retry-after'], '2');
    assert.match(String(refused[0].headers['content-type']), /^application\/problem\+json/);
  });
});

describe('a rating run under cancellation', () => {
  it('stops with TaskCancelled once its probe says so, and runs to the end otherwise', async () => {
    const t = await buildTestApp({ seed: DEMO, shared: true });
    try {
      const snapshot = t.snapshots.current()!;
      const common = normaliseCommonFilter(snapshot, {});
      let checks = 0;
      assert.throws(
        () =>
          withCancellation(
            () => ++checks > 3,
            () => leaderboard(snapshot, common, { glicko2: { tau: 0.71 } }),
          ),
        TaskCancelled,
      );
      assert.ok(checks > 3, `the run checked ${checks} times`);
      const whole = withCancellation(
        () => false,
        () => leaderboard(snapshot, common, { glicko2: { tau: 0.72 } }),
      );
      assert.ok(whole.data.players.length > 0);
      // A cancelled run left nothing half-computed behind: the same parameters compute again.
      const again = leaderboard(snapshot, common, { glicko2: { tau: 0.71 } });
      assert.ok(again.data.players.length > 0);
    } finally {
      await t.close();
    }
  });
});

describe('the response cache and the waiters of a computation', () => {
  const snapshot = { dataVersion: 1 };
  const waiter = () => {
    const controller = new AbortController();
    return { controller, signal: () => controller.signal };
  };

  it('keeps a shared computation while one waiter remains and aborts it when the last leaves', async () => {
    const cache = new ResponseCache(1 << 20);
    let computeSignal: AbortSignal | undefined;
    let finish: (text: string) => void = () => undefined;
    const compute = (signal: AbortSignal | undefined) => {
      computeSignal = signal;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const a = waiter();
    const b = waiter();
    const first = cache.get('/r', { x: 1 }, snapshot, compute, null, a.signal) as Promise<unknown>;
    const second = cache.get('/r', { x: 1 }, snapshot, compute, null, b.signal) as Promise<unknown>;
    a.controller.abort(new Error('a left'));
    await assert.rejects(first, /a left/);
    assert.equal(computeSignal?.aborted, false, 'b still waits');
    b.controller.abort(new Error('b left'));
    await assert.rejects(second, /b left/);
    assert.equal(computeSignal?.aborted, true, 'nobody waits: aborted');
    finish('{"late":true}');
    // The abandoned answer was not kept: the next request computes afresh.
    let computed = 0;
    const fresh = await cache.get('/r', { x: 1 }, snapshot, () => {
      computed++;
      return '{"fresh":true}';
    });
    assert.equal(computed, 1);
    assert.equal(String((fresh as { bytes: Buffer }).bytes), '{"fresh":true}');
  });

  it('answers every waiter that stayed, from one computation', async () => {
    const cache = new ResponseCache(1 << 20);
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return '{"ok":true}';
    };
    const leaving = waiter();
    const staying = waiter();
    const gone = cache.get('/r', { y: 1 }, snapshot, compute, null, leaving.signal);
    const kept = cache.get('/r', { y: 1 }, snapshot, compute, null, staying.signal);
    leaving.controller.abort(new Error('gone'));
    await assert.rejects(gone as Promise<unknown>);
    assert.equal(String(((await kept) as { bytes: Buffer }).bytes), '{"ok":true}');
    assert.equal(computed, 1);
  });
});

describe(`health while computations are refused (${TEST_BACKEND})`, () => {
  let t: TestApp;
  const thread = new EnginePool({ maxQueued: 2, maxExpensiveQueued: 1 });
  before(async () => {
    t = await buildTestApp({ seed: DEMO, shared: true, engineThread: thread });
  });
  after(async () => {
    await t.close();
    await thread.close();
  });

  it('reports the engine queue as degraded (warn, still 200) after a burst refused with busy', async () => {
    const quiet = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(quiet.json().checks['engine:queue'][0].status, 'pass');
    const answers = await Promise.all(
      [0.81, 0.82, 0.83, 0.84, 0.85].map((tau) =>
        t.app.inject({
          method: 'POST',
          url: '/api/rankings',
          headers: { origin: TEST_ORIGIN },
          payload: { glicko2: { tau } },
        }),
      ),
    );
    assert.ok(answers.some((r) => r.statusCode === 503));
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(health.statusCode, 200);
    const check = health.json().checks['engine:queue'][0];
    assert.equal(check.status, 'warn');
    assert.match(check.output, /^degraded: .*refused/);
  });
});
