/**
 * The engine's caches are built on every core at once (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * the warm-up splits into parts that need none of each other's caches, the loading thread
 * builds one and a helper thread each other, and the merged data is the data one thread builds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as engineDeriver from '../../src/engine/engine-derivation.ts';
import { engineDerivation } from '../../src/engine/engine-derivation.ts';
import { exportSnapshotCaches } from '../../src/engine/snapshot-cache.ts';
import { deriveInParts, startDeriveHelpers } from '../../src/threads/derive-host.ts';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.ts';
import { loadSnapshotInWorker } from '../../src/threads/load-snapshot-host.ts';
import { shareColumns } from '../../src/threads/share-columns.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { sharedRandomStore } from '../snapshot/shared-random-store.ts';

describe(`engine caches derived in parts (${TEST_BACKEND})`, () => {
  const fixture = sharedRandomStore({ seed: 20261127, gamesPerSystem: 800 });

  it('splits the warm-up into parts that share no cache but the event order', async () => {
    assert.equal(engineDeriver.parts, 2);
    const whole = Object.keys(engineDeriver.derive(await loadSnapshot(fixture.store), 0, 1));
    // Each part on a snapshot of its own: what a part builds is exactly what it exports.
    const first = Object.keys(engineDeriver.derive(await loadSnapshot(fixture.store), 0, 2));
    const second = Object.keys(engineDeriver.derive(await loadSnapshot(fixture.store), 1, 2));
    assert.deepEqual(
      first.filter((name) => second.includes(name)),
      ['event-order'],
      'a cache built by both parts is built twice, once on each thread',
    );
    assert.deepEqual([...new Set([...first, ...second])].sort(), [...whole].sort());
  });

  it('arrives from two threads with the same data as from one', async () => {
    const one = await loadSnapshotInWorker(fixture.store.url, {
      derivation: engineDerivation,
      threads: 1,
    });
    const two = await loadSnapshotInWorker(fixture.store.url, {
      derivation: engineDerivation,
      threads: 2,
    });
    const fromOne = exportSnapshotCaches(one);
    const fromTwo = exportSnapshotCaches(two);
    assert.deepEqual(Object.keys(fromTwo).sort(), Object.keys(fromOne).sort());
    for (const name of Object.keys(fromOne)) {
      assert.deepEqual(fromTwo[name], fromOne[name], name);
    }
  });

  it('derives a part on the loading thread when its helper thread fails', async () => {
    const snapshot = shareColumns(await loadSnapshot(fixture.store));
    const failing = new URL('../support/failing-deriver.ts', import.meta.url).href;
    const derived = await deriveInParts(snapshot, engineDeriver, startDeriveHelpers(failing, 1));
    const expected = engineDeriver.derive(await loadSnapshot(fixture.store), 0, 1);
    assert.deepEqual(Object.keys(derived).sort(), Object.keys(expected).sort());
    for (const name of Object.keys(expected)) {
      assert.deepEqual(derived[name], expected[name], name);
    }
  });
});
