/**
 * The games are read in key ranges on several threads at once
 * (docs/architecture.md#the-snapshot-and-its-lifecycle), and the snapshot is the one a single
 * thread reads: same columns, same dictionaries in the same order, same standings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.ts';
import { readPartInWorker } from '../../src/threads/read-part-host.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import { gameKeyRanges, gameKeySplits } from '../../src/store/read-facts.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { sharedRandomStore } from './shared-random-store.ts';

/** The snapshot without when and how fast it was loaded. */
function content(snapshot: Snapshot): Omit<Snapshot, 'loadedAt' | 'loadMs'> {
  const { loadedAt: _at, loadMs: _ms, ...rest } = snapshot;
  return rest;
}

describe(`a snapshot read in key ranges (${TEST_BACKEND})`, () => {
  const fixture = sharedRandomStore({ seed: 20261128, gamesPerSystem: 900 });

  it('cuts the games into ranges of about the same size that cover every game once', async () => {
    const splits = await gameKeySplits(fixture.store, 3);
    assert.equal(splits.length, 2);
    const ranges = gameKeyRanges(splits);
    assert.deepEqual(ranges[0].after, null);
    assert.deepEqual(ranges[2].upTo, null);
    const ids = (
      await fixture.store.db.selectFrom('games').select('id').orderBy('id').execute()
    ).map((g) => g.id);
    // Each split is the last id of its range: a third and two thirds of the way.
    assert.equal(splits[0], ids[Math.floor(ids.length / 3) - 1]);
    assert.equal(splits[1], ids[Math.floor((2 * ids.length) / 3) - 1]);
  });

  it('reads a range on a helper thread, every game of a completed event in it', async () => {
    const [range] = gameKeyRanges(await gameKeySplits(fixture.store, 2)).slice(1);
    const part = await readPartInWorker(fixture.store.url, range);
    assert.ok(part !== null, 'the helper thread failed');
    const { n } = await fixture.store.db
      .selectFrom('games')
      .innerJoin('events', 'events.id', 'games.event_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('events.status', '=', 'completed')
      .where('games.id', '>', range.after!)
      .executeTakeFirstOrThrow();
    assert.ok(part.games > 0);
    assert.equal(part.games, Number(n));
  });

  for (const count of [2, 3]) {
    it(`equals the snapshot one thread reads, read by ${count} threads`, async () => {
      const single = await loadSnapshot(fixture.store);
      const ranged = await loadSnapshot(fixture.store, {
        readers: { count, read: (range) => readPartInWorker(fixture.store.url, range) },
      });
      assert.ok(single.games > 1000);
      assert.deepEqual(content(ranged), content(single));
    });
  }

  it('reads a range on the loading thread when its helper cannot reach the fixture.store', async () => {
    const single = await loadSnapshot(fixture.store);
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const ranged = await loadSnapshot(fixture.store, {
      readers: { count: 2, read: (range) => readPartInWorker(unreachable, range) },
    });
    assert.deepEqual(content(ranged), content(single));
  });
});
