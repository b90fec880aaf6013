/**
 * The engine's caches are built where the snapshot is loaded
 * (docs/architecture.md#snapshot-reloads): a snapshot loaded on a worker thread arrives with the
 * data of every engine cache and its columns on shared memory, so the serving thread only
 * attaches to it, and every route then answers exactly as it does from a snapshot whose caches
 * were built on the serving thread, whether it was built or read back from its file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { servingSnapshots } from '../../src/threads/serving-snapshots.ts';
import { loadConfig } from '../../src/config/config.ts';
import { engineDerivation } from '../../src/engine/engine-derivation.ts';
import { exportSnapshotCaches } from '../../src/engine/snapshot-cache.ts';
import { warmEngine } from '../../src/engine/warm-engine.ts';
import { STATS_ROUTES } from '../../src/http/routes/index.ts';
import { buildAppWithEngine } from '../../src/threads/app-with-engine.ts';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.ts';
import { loadersEnded, loadSnapshotInWorker } from '../../src/threads/load-snapshot-host.ts';
import { writeSnapshotFile } from '../../src/snapshot/snapshot-file.ts';
import type { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { forecastBodyOf, projectionBodyOf } from '../support/test-app.ts';
import { randomDocument } from './random-document.ts';
import { sharedRandomStore } from './shared-random-store.ts';
import { ORIGIN, startStatsApp } from './stats-app.ts';

const RANDOM = { seed: 20261123, gamesPerSystem: 1500 };
const WINDOW = { system: 'alpha', from: '2024-06-01', to: '2025-05-31', minParticipants: 10 };
const REQUESTS: Array<[string, Record<string, unknown>]> = [
  ['/api/faction-stats', { system: 'alpha' }],
  ['/api/faction-stats', { ...WINDOW, groupBy: 'month', excludeMirrors: false }],
  [
    '/api/faction-stats',
    { ...WINDOW, interval: 'event-clustered', compareTo: { to: '2024-05-31' } },
  ],
  ['/api/army-matchup', { system: 'beta', countries: ['DE', 'FR'] }],
  ['/api/army-matchup', { ...WINDOW, interval: 'event-clustered' }],
  ['/api/item-use-stats', { system: 'alpha', pageSize: 200 }],
  ['/api/item-use-stats', { ...WINDOW, interval: 'event-clustered', sort: 'delta' }],
  ['/api/scenario', { system: 'beta' }],
  ['/api/scenario', WINDOW],
  ['/api/scenario-stats', { system: 'alpha' }],
  ['/api/scenario-stats', { ...WINDOW, interval: 'event-clustered' }],
  ['/api/rankings', { system: 'alpha', pageSize: 200 }],
  ['/api/events', { ...WINDOW, sort: 'entries' }],
  ['/api/faction-strength', WINDOW],
  ['/api/forecast', forecastBodyOf(randomDocument(RANDOM) as CanonicalDocument, 'alpha')],
  // The random systems declare no placing rule: both threads answer the same 400.
  ['/api/event-projection', projectionBodyOf(randomDocument(RANDOM) as CanonicalDocument, 'alpha')],
  [
    '/api/team-matrix',
    teamsOf(forecastBodyOf(randomDocument(RANDOM) as CanonicalDocument, 'alpha')),
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
  ['/api/forecast-accuracy', WINDOW],
  ['/api/player-duplicates', { system: 'alpha', minScore: 0 }],
];

/** Two teams of one from a forecast's body, in its system. */
function teamsOf(b: Record<string, string>): Record<string, unknown> {
  return {
    system: b.system,
    teamA: [{ player: b.player1, faction: b.faction1 }],
    teamB: [{ player: b.player2, faction: b.faction2 }],
  };
}

describe(`engine caches built on the loading thread (${TEST_BACKEND})`, () => {
  const fixture = sharedRandomStore(RANDOM);

  it('asks every statistics route', () => {
    const asked = new Set(REQUESTS.map(([path]) => path));
    assert.deepEqual(
      STATS_ROUTES.map((route) => route.path).filter((path) => !asked.has(path)),
      [],
    );
  });

  it('arrives from the worker thread with the data of every engine cache', async () => {
    const fromWorker = await loadSnapshotInWorker(fixture.store.url, {
      derivation: engineDerivation,
    });
    const inThread = await loadSnapshot(fixture.store);
    warmEngine(inThread);
    const expected = Object.keys(exportSnapshotCaches(inThread)).sort();
    assert.ok(expected.length >= 14, `only ${expected.length} caches: ${expected.join(', ')}`);
    // Nothing has asked fromWorker for a cache yet: whatever it holds came with the message.
    assert.deepEqual(Object.keys(exportSnapshotCaches(fromWorker)).sort(), expected);
    // Its columns are on shared memory, for the engine thread to read without a copy.
    for (const column of [fromWorker.faction, fromWorker.score, fromWorker.events.startDay]) {
      assert.ok(column.buffer instanceof SharedArrayBuffer);
    }
  });

  /** Every route's answer from `snapshots` equals the reference app's, generatedAt aside. */
  async function assertAnswersAsReference(snapshots: SnapshotManager): Promise<void> {
    const reference = await startStatsApp(fixture.store);
    const config = Object.freeze({
      ...loadConfig({ MUSTER_LOG_LEVEL: 'silent' }),
      rateLimitMax: 1_000_000,
    });
    const app = await buildAppWithEngine(
      { config, store: fixture.store, snapshots },
      { logger: false },
    );
    try {
      for (const [path, body] of REQUESTS) {
        const expected = await reference.post(path, body);
        const response = await app.inject({
          method: 'POST',
          url: path,
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        const actual = response.json() as { meta: Record<string, unknown> };
        const status = path === '/api/event-projection' ? 400 : 200;
        assert.equal(response.statusCode, status, `${path} ${JSON.stringify(body)}`);
        assert.equal(expected.status, status);
        if (status !== 200) {
          // The random systems declare no placing rule: a problem document, the same from both.
          assert.deepEqual(actual, expected.json, `${path} ${JSON.stringify(body)}`);
          continue;
        }
        const { generatedAt: _a, ...actualMeta } = actual.meta;
        const { generatedAt: _b, ...expectedMeta } = expected.json.meta as Record<string, unknown>;
        assert.deepEqual(
          { ...actual, meta: actualMeta },
          { ...expected.json, meta: expectedMeta },
          `${path} ${JSON.stringify(body)}`,
        );
      }
    } finally {
      await app.close();
      await reference.close();
    }
  }

  it('answers every statistics route as a snapshot warmed on the serving thread does', async () => {
    const snapshots = servingSnapshots(fixture.store, fixture.store.url, { pollMs: 60_000 });
    await snapshots.start();
    snapshots.stop();
    await assertAnswersAsReference(snapshots);
  });

  it('serves a built snapshot first, then says so when its snapshot file cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-snapshot-file-'));
    const snapshotFile = join(dir, 'no-such-folder', 'fixture.store.snapshot');
    const notes: string[] = [];
    try {
      const snapshots = servingSnapshots(fixture.store, fixture.store.url, {
        pollMs: 60_000,
        snapshotFile,
        onNote: (n) => notes.push(n),
      });
      await snapshots.start();
      snapshots.stop();
      assert.ok(snapshots.current() !== null);
      await loadersEnded();
      assert.equal(notes.length, 1);
      assert.match(notes[0], /^snapshot file .*fixture.store\.snapshot not written: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is read back from its snapshot file at the next start and answers as a built one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-snapshot-file-'));
    const snapshotFile = join(dir, 'fixture.store.snapshot');
    const notes: string[] = [];
    try {
      // A file left by other data is not used: the first start builds, and replaces it.
      writeSnapshotFile(snapshotFile, 'another fixture.store', { snapshot: null, derived: null });
      const first = servingSnapshots(fixture.store, fixture.store.url, {
        pollMs: 60_000,
        snapshotFile,
        onNote: (n) => notes.push(n),
      });
      await first.start();
      first.stop();
      // The file is written after the snapshot is served: the next start waits for it.
      await loadersEnded();
      assert.equal(first.current()?.restoredFrom, undefined);
      assert.deepEqual(notes, [
        `snapshot file ${snapshotFile} not used: it was made from other data or by other code`,
      ]);
      const second = servingSnapshots(fixture.store, fixture.store.url, {
        pollMs: 60_000,
        snapshotFile,
      });
      await second.start();
      second.stop();
      const restored = second.current()!;
      assert.equal(restored.restoredFrom, snapshotFile);
      assert.equal(restored.dataVersion, first.current()!.dataVersion);
      for (const column of [restored.faction, restored.score, restored.events.startDay]) {
        assert.ok(column.buffer instanceof SharedArrayBuffer);
      }
      const expected = Object.keys(exportSnapshotCaches(first.current()!)).sort();
      assert.deepEqual(Object.keys(exportSnapshotCaches(restored)).sort(), expected);
      await assertAnswersAsReference(second);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
