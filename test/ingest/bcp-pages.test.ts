/**
 * A pairing app's API pages as scrapers store them (docs/import-formats.md#pages): a page, a file
 * of pages (a JSON array or NDJSON) or a folder of page files for each part, players as one list
 * or split into `active` and `dropped`. Unwrapped, they import as the plain documents do, and the
 * summary says what was read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const BCP = join(import.meta.dirname, '..', 'fixtures', 'bcp');
const PAGES = join(BCP, 'spring-gt-pages');

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

describe(`pairing-app pages (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await openTestStore();
    assert.deepEqual((await importCanonical(store, REFERENCE)).rejects, []);
    dir = mkdtempSync(join(tmpdir(), 'muster-pages-'));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('unwraps an event page, a folder of player pages and NDJSON pairing pages', async () => {
    const report = await importSources(store, [PAGES], { format: 'bcp' });
    assert.equal(report.status, 'imported', JSON.stringify(report.rejects));
    assert.deepEqual(report.rejects, []);
    assert.deepEqual(report.counts.games, { imported: 6, updated: 0, unchanged: 0, rejected: 0 });
    assert.equal(
      report.notes[0],
      'event "spring-gt": read 5 page(s) (event: 1 page(s), 1 event; players: 2 page(s), 5 players, 1 dropped; pairings: 2 page(s), 8 pairings)',
    );
    assert.ok(
      report.notes.includes(
        'event "spring-gt": 1 dropped player(s), kept with the rounds they played',
      ),
    );
    const entries = await store.db.selectFrom('entries').select('player_id').execute();
    assert.deepEqual(entries.map((e) => e.player_id).sort(), ['u1', 'u2', 'u3', 'u4', 'u5']);
  });

  it('reads players.json holding one page, or an array of pages, as the players', async () => {
    const event = readFileSync(join(PAGES, 'event.json'), 'utf8');
    const pages = [1, 2].map((n) =>
      JSON.parse(readFileSync(join(PAGES, 'players', `page-${n}.json`), 'utf8')),
    );
    const pairings = readFileSync(join(PAGES, 'pairings.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    writeFileSync(join(dir, 'event.json'), event);
    writeFileSync(join(dir, 'players.json'), JSON.stringify(pages));
    writeFileSync(join(dir, 'pairings.json'), JSON.stringify(pairings));
    const again = await importSources(store, [dir], { format: 'bcp' });
    assert.deepEqual(again.rejects, []);
    assert.deepEqual(again.counts.games, { imported: 0, updated: 0, unchanged: 6, rejected: 0 });
    writeFileSync(join(dir, 'players.json'), JSON.stringify(pages[0]));
    const one = await importSources(store, [dir], { format: 'bcp' });
    assert.match(one.notes[0], /players: 1 page\(s\), 3 players;/);
  });
});
