/**
 * Test support for the statistics routes: the real app over a test store with a real
 * SnapshotManager, and a POST helper that sends the allowed test Origin.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/config.ts';
import { buildAppWithEngine } from '../../src/threads/app-with-engine.ts';
import { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import type { Store } from '../../src/store/store.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { openTestStore } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

export const ORIGIN = 'http://localhost:8080';

export interface StatsApp {
  app: FastifyInstance;
  snapshots: SnapshotManager;
  post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** An app answering from a snapshot of `store` (loaded before it returns unless `load` is false). */
export async function startStatsApp(store: Store, load = true): Promise<StatsApp> {
  const config = Object.freeze({
    ...loadConfig({ MUSTER_LOG_LEVEL: 'silent' }),
    rateLimitMax: 1_000_000,
  });
  const snapshots = new SnapshotManager(store, { pollMs: 60_000 });
  if (load) await snapshots.reload();
  const app = await buildAppWithEngine({ config, store, snapshots }, { logger: false });
  await app.ready();
  return {
    app,
    snapshots,
    async post(path, body) {
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      return { status: res.statusCode, json: res.json() as Record<string, unknown> };
    },
    async close() {
      snapshots.stop();
      await app.close();
    },
  };
}

/**
 * In the enclosing describe: before its tests, a fresh test store holding `document` (imported
 * without a reject) and an app over it; after them, both closed. The answer stands for that app
 * inside the tests.
 */
export function statsAppOver(document: unknown): Omit<StatsApp, 'close'> {
  let store: TestStore | undefined;
  let stats: StatsApp | undefined;
  before(async () => {
    store = await openTestStore();
    const report = await importCanonical(store, document);
    assert.equal(report.rejects.length, 0, JSON.stringify(report.rejects));
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats?.close();
    await store?.close();
  });
  const ready = (): StatsApp => {
    if (stats === undefined) throw new Error('the stats app is ready only inside its tests');
    return stats;
  };
  return {
    get app() {
      return ready().app;
    },
    get snapshots() {
      return ready().snapshots;
    },
    post: (path, body) => ready().post(path, body),
  };
}
