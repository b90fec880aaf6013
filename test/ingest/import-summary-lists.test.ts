/**
 * The summary of a roster import tells the truth (docs/import-formats.md#matching-rosters-to-players):
 * a list attached for the first time is imported, the event's untouched lists are unchanged, and
 * the players without a list leave out those whose list is already stored.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const SPRING = join(import.meta.dirname, '..', 'fixtures', 'bcp', 'spring-gt');

const REFERENCE = {
  format: 'muster/v1' as const,
  systems: [{ id: 'tow', name: 'Test of War', score: { min: 0, max: 20, total: 20 } }],
  factions: [
    { id: 'VS', system: 'tow', name: 'Vermin Swarm' },
    { id: 'HE', system: 'tow', name: 'Highborn Elves' },
    { id: 'DH', system: 'tow', name: 'Dwarven Holds' },
    { id: 'EO', system: 'tow', name: 'Ember Orcs' },
  ],
};

describe(`roster import summaries (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await openTestStore();
    assert.deepEqual((await importCanonical(store, REFERENCE)).rejects, []);
    dir = mkdtempSync(join(tmpdir(), 'muster-summary-'));
    const bare = join(dir, 'spring-gt');
    cpSync(SPRING, bare, { recursive: true });
    rmSync(join(bare, 'rosters'), { recursive: true });
    assert.equal((await importSources(store, [bare], { format: 'bcp' })).status, 'imported');
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A rosters folder holding the named rosters of the fixture. */
  function rosters(name: string, files: string[]): string {
    const folder = join(dir, name);
    mkdirSync(folder);
    for (const f of files) cpSync(join(SPRING, 'rosters', f), join(folder, f));
    return folder;
  }

  it('counts lists attached for the first time as imported', async () => {
    const report = await importSources(store, [rosters('first', ['Ada_Lovelace.ros'])], {
      format: 'roster',
      event: 'spring-gt',
    });
    assert.deepEqual(report.counts.lists, { imported: 1, updated: 0, unchanged: 0, rejected: 0 });
  });

  it('leaves the untouched lists unchanged and stored lists out of the players without one', async () => {
    const report = await importSources(store, [rosters('second', ['u2.rosz'])], {
      format: 'roster',
      event: 'spring-gt',
    });
    assert.deepEqual(report.counts.lists, { imported: 1, updated: 0, unchanged: 1, rejected: 0 });
    assert.deepEqual(report.notes, [
      'event "spring-gt": 3 player(s) without a list: Cy Cole (u3), Di Dale (u4), Ed Eve (u5)',
    ]);
  });
});
