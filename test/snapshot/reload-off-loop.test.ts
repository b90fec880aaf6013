/**
 * A reload does not stall the service (docs/architecture.md#snapshot-reloads): the new
 * snapshot is built on a worker thread and the engine caches warmed in steps, so health keeps
 * answering quickly from the old snapshot while the demo dataset (about 12,000 games) reloads.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { seedDemo } from '../../src/cli/seed-demo.ts';
import { servingSnapshots } from '../../src/threads/serving-snapshots.ts';
import { loadConfig } from '../../src/config/config.ts';
import { buildAppWithEngine } from '../../src/threads/app-with-engine.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';

const MAX_WAIT_MS = 250;

/** Sends a health request every 20 ms while `work` runs: each wait and the versions seen. */
async function probeDuring<T>(
  app: FastifyInstance,
  work: () => Promise<T>,
): Promise<{ result: T; waits: number[]; versions: Set<number> }> {
  const waits: number[] = [];
  const versions = new Set<number>();
  let running = true;
  const probe = (async () => {
    while (running) {
      const sent = performance.now();
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      waits.push(performance.now() - sent);
      const health = response.json() as {
        checks: { 'snapshot:games': Array<{ dataVersion: number }> };
      };
      versions.add(health.checks['snapshot:games'][0].dataVersion);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await work(), waits, versions };
  } finally {
    running = false;
    await probe;
  }
}

describe(`snapshot reload off the event loop (${TEST_BACKEND})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('answers health within 250 ms, from the old snapshot, while the demo dataset reloads', async () => {
    const { store, cleanup } = await openSharedTestStore();
    cleanups.push(cleanup, () => store.close());
    const manager = servingSnapshots(store, store.url, { pollMs: 60_000 });
    const config = loadConfig({ MUSTER_RATE_LIMIT_MAX: '1000000', MUSTER_LOG_LEVEL: 'silent' });
    const app = await buildAppWithEngine({ config, store, snapshots: manager }, { logger: false });
    cleanups.push(() => app.close());
    await manager.start();
    const before = manager.current()!.dataVersion;
    await seedDemo(store, '2026-06-01');

    const first = await probeDuring(app, () => manager.refresh());
    assert.equal(first.result, true);
    assert.ok(manager.current()!.games > 10_000, 'the demo dataset was loaded');
    assert.notEqual(manager.current()!.dataVersion, before);
    assert.ok(
      first.versions.has(before),
      'requests during the reload were answered from the old snapshot',
    );
    assert.ok(first.waits.length >= 5, `only ${first.waits.length} probes during the reload`);
    // On a shared, loaded machine a whole process can be descheduled for a while: the bound is
    // on the best of three reloads, which a reload on the serving thread (over 1 s here) misses.
    const longest = [Math.max(...first.waits)];
    while (Math.min(...longest) >= MAX_WAIT_MS && longest.length < 3) {
      const again = await probeDuring(app, () => manager.reload());
      longest.push(Math.max(...again.waits));
    }
    assert.ok(
      Math.min(...longest) < MAX_WAIT_MS,
      `health requests waited up to ${longest.map((ms) => ms.toFixed(0)).join(', ')} ms during the reloads`,
    );
  });
});
