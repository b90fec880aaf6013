/** The snapshot manager: loads, reports status, notices a new data version and swaps atomically. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { SnapshotManager } from '../../src/snapshot/snapshot-manager.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import { HAND_DOCUMENT } from './hand-fixture.ts';

describe(`snapshot manager (${TEST_BACKEND})`, () => {
  it('loads completed games only, reports its status and reloads when the data version moves', async () => {
    const store = await openTestStore();
    const manager = new SnapshotManager(store, { pollMs: 100 });
    try {
      await manager.start();
      assert.equal(manager.status()!.games, 0);
      await importCanonical(store, HAND_DOCUMENT);
      const old = manager.current()!;
      const deadline = Date.now() + 10_000;
      while (manager.current() === old && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const status = manager.status()!;
      assert.equal(status.dataVersion, await store.dataVersion());
      assert.deepEqual([status.games, status.sides, status.lists], [5, 10, 4]);
      assert.ok(
        status.bytes > 0 && status.loadMs >= 0 && !Number.isNaN(Date.parse(status.loadedAt)),
      );
      // The old snapshot object is untouched: a request holding it finishes on it.
      assert.equal(old.games, 0);
      const snapshot = manager.current()!;
      assert.equal(snapshot.events.count, 2, 'the scheduled event is not in the snapshot');
      // Games are ordered by start date: E1's four games come first.
      assert.deepEqual(
        [...snapshot.gameEvent].map((e) => snapshot.events.ids[e]),
        ['E1', 'E1', 'E1', 'E1', 'E2'],
      );
      assert.equal(await manager.refresh(), false, 'no reload without a new version');
    } finally {
      manager.stop();
      await store.close();
    }
  });

  it('prepares a new snapshot before swapping it in, serving the old one meanwhile', async () => {
    const store = await openTestStore();
    const seen: Array<{ preparing: number; serving: number | null }> = [];
    const manager: SnapshotManager = new SnapshotManager(store, {
      pollMs: 60_000,
      prepare: (next) =>
        seen.push({ preparing: next.games, serving: manager.current()?.games ?? null }),
    });
    try {
      await manager.start();
      await importCanonical(store, HAND_DOCUMENT);
      assert.equal(await manager.refresh(), true);
      assert.deepEqual(seen, [
        { preparing: 0, serving: null },
        { preparing: 5, serving: 0 },
      ]);
      assert.equal(manager.current()!.games, 5);
    } finally {
      manager.stop();
      await store.close();
    }
  });
});
