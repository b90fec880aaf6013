/**
 * A server thread's engine calls over its port to the main thread's one engine pool
 * (engine-pool-thread.ts, engine-pool-host.ts), both ends in this thread: a task with a warm key
 * runs on the pool and is computed once, one without runs here, a refusal comes back as the same
 * problem with its headers, and an abandoned request aborts its pool task.
 */
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import { normaliseCommonFilter } from '../../src/engine/filter.ts';
import type { CommonFilter } from '../../src/engine/filter.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import { EnginePoolHost } from '../../src/threads/engine-pool-host.ts';
import { EnginePoolThread } from '../../src/threads/engine-pool-thread.ts';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const DEMO = generateDemo({ today: '2026-06-01' });

describe(`a server thread's tasks with a warm key on the main thread's pool (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let snapshot: Snapshot;
  let common: CommonFilter;
  let host: EnginePoolHost;
  let engine: EnginePoolThread;
  before(async () => {
    t = await buildTestApp({ seed: DEMO, shared: true });
    snapshot = t.snapshots.current()!;
    common = normaliseCommonFilter(snapshot, {});
    host = new EnginePoolHost(
      new EnginePool({ threads: 1, maxQueued: 64, clientExpensiveWaiting: 0 }),
    );
    await host.pool.start();
    await host.prepare(7, snapshot);
    const { port1, port2 } = new MessageChannel();
    host.attach(port1);
    engine = new EnginePoolThread(port2, () => 7);
  });
  after(async () => {
    await engine.close();
    await host.close();
    await t.close();
  });
  const rate = (tau: number, client: string, signal?: AbortSignal) =>
    engine.runAbortable({ client, signal }, 'leaderboard', snapshot, common, {
      glicko2: { tau },
    });

  it('computes ratings of one parameter set once on the pool, for any number of requests', async () => {
    const before = host.pool.expensiveComputations();
    const first = await rate(0.81, 'a');
    const again = await rate(0.81, 'b');
    assert.deepEqual(again, first);
    assert.equal(host.pool.expensiveComputations(), before + 1);
  });

  it('refuses a client past its share with the same 429 problem and Retry-After', async () => {
    const running = rate(0.82, 'c');
    await assert.rejects(rate(0.83, 'c'), (error: unknown) => {
      assert.ok(error instanceof ProblemError);
      assert.equal(error.kind, 'too-many-computations');
      assert.equal(error.status, 429);
      assert.equal(error.headers['retry-after'], '2');
      return true;
    });
    await running;
  });

  it('aborts the pool task of a request abandoned while it waits', async () => {
    const running = rate(0.84, 'd');
    const gone = new AbortController();
    const waiting = rate(0.85, 'e', gone.signal);
    gone.abort(new Error('the client went away'));
    await assert.rejects(waiting, /the client went away/);
    await running;
    // Dropped from the pool's queue before it started: it was never computed.
    await new Promise((done) => setImmediate(done));
    assert.equal(host.pool.pressure().waiting, 0);
    assert.notEqual(host.pool.pressure().lastAbandonedAt, null);
  });
});
