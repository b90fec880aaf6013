/**
 * POST /api/team-pairing on a server thread (docs/team-pairing.md#privacy): the draft is heavy,
 * so the thread that took the request sends it to the main thread's engine pool and keeps
 * answering (health answers while an 8-player draft from nothing solves); it is scheduled as
 * expensive there, yet nothing of the captain's matrix is kept: no key is made of it, the
 * response cache holds no entry, the same draft asked again is solved again, and no log line
 * holds it.
 */
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import { taskAffinity, taskIsHeavy, taskWarmKey } from '../../src/engine/engine-tasks.ts';
import type { TeamPairingRequest } from '../../src/engine/team-pairing/team-pairing.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { EnginePool } from '../../src/threads/engine-pool.ts';
import { EnginePoolHost } from '../../src/threads/engine-pool-host.ts';
import { EnginePoolThread } from '../../src/threads/engine-pool-thread.ts';
import { TEST_ORIGIN, buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const TOKEN = 11;

/** An 8 x 8 matrix of 0-20 scores, the same every run (Park-Miller). */
function matrixOf(seed: number): number[][] {
  let state = seed;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: 8 }, () =>
    Array.from({ length: 8 }, () => Math.round(random() * 20)),
  );
}

describe(`the pairing draft on a server thread (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let host: EnginePoolHost;
  let engine: EnginePoolThread;
  const logged: string[] = [];
  before(async () => {
    host = new EnginePoolHost(new EnginePool({ threads: 1, maxQueued: 64 }));
    const { port1, port2 } = new MessageChannel();
    host.attach(port1);
    engine = new EnginePoolThread(port2, () => TOKEN);
    t = await buildTestApp({
      seed: 'demo-slice',
      engineThread: engine,
      logger: { level: 'trace', stream: { write: (line: string) => logged.push(line) } },
    });
    await host.pool.start();
    await host.prepare(TOKEN, t.snapshots.current()!);
  });
  after(async () => {
    await t?.close();
    await engine?.close();
    await host?.close();
  });

  const draft = (matrix: number[][]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/team-pairing',
      headers: { origin: TEST_ORIGIN },
      payload: { format: 'defender-attacker', matrix, gameTotal: 20 },
    });
  const cacheCheck = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/health' })).json().checks[
      'responseCache:bytes'
    ][0] as { hits: number; misses: number; entries: number };

  it('declares the draft heavy with no key made of its matrix', () => {
    const request: TeamPairingRequest = {
      format: 'defender-attacker',
      matrix: matrixOf(3),
      gameTotal: 20,
    };
    assert.equal(taskIsHeavy('teamPairing'), true);
    assert.equal(taskWarmKey('teamPairing', [request]), null);
    assert.equal(taskAffinity('teamPairing', [request]), null);
    assert.equal(taskIsHeavy('eventList'), false);
  });

  it('answers health while an 8-player draft from nothing solves on the pool', async () => {
    let solved = false;
    const solving = draft(matrixOf(20261129)).finally(() => (solved = true));
    // Computed on this thread, the draft would be answered before the pool ever ran it.
    while (!solved && host.pool.pressure().running === 0) {
      await new Promise((done) => setTimeout(done, 5));
    }
    assert.equal(solved, false, 'the draft was answered without the pool');
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(health.statusCode, 200);
    assert.equal(solved, false, 'health waited for the draft');
    const answered = await solving;
    assert.equal(answered.statusCode, 200, answered.body.slice(0, 300));
    assert.equal(answered.json().data.players, 8);
  });

  it('solves the same draft again when asked again: nothing of the matrix was kept', async () => {
    const matrix = matrixOf(77);
    const before = await cacheCheck();
    const computed = host.pool.expensiveComputations();
    const first = await draft(matrix);
    const second = await draft(matrix);
    assert.equal(first.statusCode, 200, first.body.slice(0, 300));
    assert.deepEqual(second.json().data, first.json().data);
    assert.notEqual(second.json().meta.generatedAt, undefined);
    // Each solved on the pool, in its expensive lane, neither answered from something kept.
    assert.equal(host.pool.expensiveComputations(), computed + 2);
    const after = await cacheCheck();
    assert.deepEqual(
      [after.hits, after.misses, after.entries],
      [before.hits, before.misses, before.entries],
    );
  });

  it("counts drafts against their client's share of the expensive lane", async () => {
    const request: TeamPairingRequest = {
      format: 'defender-attacker',
      matrix: matrixOf(9),
      gameTotal: 20,
    };
    const snapshot = t.snapshots.current()!;
    // One thread: a client may have one draft running and two waiting; a fourth is refused.
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map(() =>
        engine.runAbortable({ client: 'captain' }, 'teamPairing', snapshot, request).then(
          () => 'solved',
          (error: unknown) => (error instanceof ProblemError ? error.kind : String(error)),
        ),
      ),
    );
    assert.deepEqual(outcomes, ['solved', 'solved', 'solved', 'too-many-computations']);
  });

  it('logs the requests but nothing of the matrix, even when its history is refused', async () => {
    // A cell no other number in the logs is likely to spell.
    const matrix = matrixOf(5).map((row, i) => (i === 0 ? [13.371, ...row.slice(1)] : row));
    const from = logged.length;
    await draft(matrix);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/team-pairing',
      headers: { origin: TEST_ORIGIN },
      payload: {
        format: 'defender-attacker',
        matrix,
        gameTotal: 20,
        history: [{ defenderA: 0, defenderB: 0, attackersA: [0, 1], attackersB: [1, 2] }],
      },
    });
    assert.equal(refused.statusCode, 400);
    const lines = logged.slice(from).join('\n');
    assert.match(lines, /\/api\/team-pairing/);
    assert.doesNotMatch(lines, /13\.371|"matrix"/);
  });
});
