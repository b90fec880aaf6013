/**
 * A rejected event writes nothing of its own (docs/import-formats.md#rejects-and-replay): not the
 * players a sheet or a pairing-app export names for it, not the system an export would create for
 * it, and a batch that writes no data leaves the data version where it was. And a sheet with only
 * the documented columns imports (docs/import-formats.md#csv): an event without a name is named
 * by its id.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

/** What a rejected event must leave as it was. */
async function stored(store: TestStore) {
  const ids = async (table: 'systems' | 'factions' | 'events' | 'players') =>
    (await store.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
  return {
    dataVersion: await store.dataVersion(),
    systems: await ids('systems'),
    factions: await ids('factions'),
    events: await ids('events'),
    players: await ids('players'),
  };
}

/** A pairing-app export as one file: an event on `date`, two players, one game. */
function bcpExport(id: string, date: string, players: [string, string]) {
  return {
    event: { objectId: id, name: `GT ${id}`, eventDate: date, gameSystem: { name: 'Test of War' } },
    players: players.map((p, i) => ({
      userId: p,
      firstName: `Player ${p}`,
      army: { name: i === 0 ? 'Vermin Swarm' : 'Highborn Elves' },
    })),
    pairings: [
      {
        objectId: `${id}-r1`,
        round: 1,
        player1: { userId: players[0], game: { gameResult: 2, gamePoints: 15 } },
        player2: { userId: players[1], game: { gameResult: 0, gamePoints: 5 } },
      },
    ],
  };
}

describe(`a rejected event writes nothing of its own (${TEST_BACKEND})`, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'muster-rejected-events-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('csv: a sheet with only the documented columns imports, each event named by its id', async () => {
    const store = await openTestStore();
    try {
      await importCanonical(store, { ...smallDocument(), events: [] });
      const path = join(dir, 'documented.csv');
      writeFileSync(
        path,
        'event_id,event_start,p1_id,p1_faction,p1_result,p2_id,p2_faction,p2_result\n' +
          'autumn-gt,2025-10-04,ann,VS,win,bob,HE,loss\n' +
          'autumn-gt,2025-10-04,bob,HE,draw,cy,DH,draw\n',
      );
      const report = await importSources(store, [path], { format: 'csv', system: 'tow' });
      assert.deepEqual(report.rejects, []);
      assert.equal(report.counts.events.imported, 1);
      assert.equal(report.counts.games.imported, 2);
      const event = await store.db
        .selectFrom('events')
        .select(['id', 'name'])
        .where('id', '=', 'autumn-gt')
        .executeTakeFirstOrThrow();
      assert.equal(event.name, 'autumn-gt');
    } finally {
      await store.close();
    }
  });

  it('csv: an event rejected for its date writes neither its players nor a new data version', async () => {
    const store = await openTestStore();
    try {
      await importCanonical(store, { ...smallDocument(), events: [] });
      const before = await stored(store);
      const path = join(dir, 'bad-date.csv');
      writeFileSync(
        path,
        'event_id,event_name,event_start,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score\n' +
          'feb-gt,February GT,2025-02-30,ann,VS,15,bob,HE,5\n' +
          'feb-gt,,,bob,HE,10,cy,DH,10\n',
      );
      const report = await importSources(store, [path], { format: 'csv', system: 'tow' });
      assert.equal(report.counts.events.rejected, 1);
      assert.deepEqual(report.counts.players, {
        imported: 0,
        updated: 0,
        unchanged: 0,
        rejected: 0,
      });
      assert.deepEqual(await stored(store), before);
      assert.equal(report.dataVersion, before.dataVersion);
    } finally {
      await store.close();
    }
  });

  it('bcp: an export dated 0000-00-00 writes neither its players, its new system nor its armies', async () => {
    const store = await openTestStore();
    try {
      const before = await stored(store);
      const path = join(dir, 'zero-date.json');
      writeFileSync(path, JSON.stringify(bcpExport('zero-gt', '0000-00-00', ['u1', 'u2'])));
      const report = await importSources(store, [path], { format: 'bcp' });
      assert.equal(report.counts.events.rejected, 1);
      assert.ok(
        report.notes.every((n) => !n.startsWith('new system')),
        report.notes.join('\n'),
      );
      assert.deepEqual(await stored(store), before);
    } finally {
      await store.close();
    }
  });

  it('bcp: the system a rejected export would have made is made by the next export that imports', async () => {
    const store = await openTestStore();
    try {
      const bad = join(dir, 'a-zero.json');
      const good = join(dir, 'b-good.json');
      writeFileSync(bad, JSON.stringify(bcpExport('zero-gt', '0000-00-00', ['u1', 'u2'])));
      writeFileSync(good, JSON.stringify(bcpExport('may-gt', '2025-05-03', ['u3', 'u4'])));
      // One batch per export, so the good one comes in a later transaction than the bad one.
      const report = await importSources(store, [bad, good], { format: 'bcp', batchGames: 1 });
      assert.equal(report.counts.events.rejected, 1);
      assert.equal(report.counts.events.imported, 1);
      const after = await stored(store);
      assert.deepEqual(after.systems, ['test-of-war']);
      assert.deepEqual(after.players, ['u3', 'u4']);
      assert.deepEqual(after.events, ['may-gt']);
      assert.equal(report.notes.filter((n) => n.startsWith('new system test-of-war')).length, 1);
    } finally {
      await store.close();
    }
  });
});
