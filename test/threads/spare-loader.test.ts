/**
 * Reloads take a loading thread started ahead (docs/operations.md#watching-a-folder): the
 * thread imports its modules before it is needed, but reads the store only when told to load,
 * so a change written while it waited is in the snapshot it builds; each load's steps are
 * stamped in order.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { engineDerivation } from '../../src/engine/engine-derivation.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { spareLoader } from '../../src/threads/load-snapshot-host.ts';
import { mergeDocument } from '../support/merge-document.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';

describe(`loading threads started ahead (${TEST_BACKEND})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('builds from the store as it is when asked, not as it was when the thread started', async () => {
    const { store, cleanup } = await openSharedTestStore();
    cleanups.push(cleanup, () => store.close());
    const document = mergeDocument('p-jose2');
    await importCanonical(store, { ...document, events: document.events!.slice(0, 1) });
    const loader = spareLoader(store.url, { derivation: engineDerivation, threads: 1 });
    cleanups.push(() => loader.close());
    const first = await loader.load();
    assert.equal(first.dataVersion, await store.dataVersion());
    // The next thread is started once the first load is done; the change comes after it.
    await importCanonical(store, document);
    const second = await loader.load();
    assert.equal(second.dataVersion, await store.dataVersion());
    assert.notEqual(second.dataVersion, first.dataVersion);
    assert.ok(second.games > first.games, `${second.games} games after ${first.games}`);
  });

  it('stamps each step of a load in the order the steps ran', async () => {
    const { store, cleanup } = await openSharedTestStore();
    cleanups.push(cleanup, () => store.close());
    await importCanonical(store, mergeDocument('p-jose2'));
    const loader = spareLoader(store.url, { derivation: engineDerivation, threads: 1 });
    cleanups.push(() => loader.close());
    const snapshot = await loader.load();
    const phases = snapshot.loadPhases!;
    const steps = ['loadStarted', 'goTaken', 'read', 'derived', 'posted', 'received', 'adopted'];
    assert.deepEqual(Object.keys(phases), steps);
    for (let i = 1; i < steps.length; i++) {
      assert.ok(phases[steps[i]] >= phases[steps[i - 1]], `${steps[i]} before ${steps[i - 1]}`);
    }
    assert.deepEqual(Object.keys(snapshot.loadCpuMs ?? {}), ['read', 'derived', 'posted']);
  });
});
