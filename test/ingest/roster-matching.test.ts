/**
 * One rule matches rosters to players, in a pairing-app folder and with --format roster alike
 * (docs/import-formats.md#matching-rosters-to-players): a player of the event is one with an
 * entry or one who played a game of it, matched by id or by the name the export gives them.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const SPRING = join(FIXTURES, 'bcp', 'spring-gt');

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

/** A pairing of two players who are in no players.json, only in the pairings. */
const LATE_PAIRING = {
  objectId: 'pair-late',
  round: 3,
  table: 9,
  player1: {
    userId: 'u9',
    firstName: 'Gil',
    lastName: 'Grey',
    army: 'Dwarven Holds',
    game: { gameResult: 2, gamePoints: 12 },
  },
  player2: {
    userId: 'u8',
    firstName: 'Hal',
    lastName: 'Hunt',
    army: 'Vermin Swarm',
    game: { gameResult: 0, gamePoints: 8 },
  },
};

/** The Spring GT export with the late pairing, and a roster for Gil Grey named by his name. */
function exportWithLatePairing(dir: string): string {
  const copy = join(dir, 'spring-gt');
  cpSync(SPRING, copy, { recursive: true });
  rmSync(join(copy, 'rosters', 'nobody.ros'));
  const pairings = JSON.parse(readFileSync(join(copy, 'pairings.json'), 'utf8')) as unknown[];
  writeFileSync(join(copy, 'pairings.json'), JSON.stringify([...pairings, LATE_PAIRING]));
  cpSync(join(copy, 'rosters', 'Ada_Lovelace.ros'), join(copy, 'rosters', 'Gil_Grey.ros'));
  return copy;
}

describe(`one rule for matching rosters (${TEST_BACKEND})`, () => {
  let dir: string;
  let stores: TestStore[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'muster-match-'));
  });
  after(async () => {
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function fresh(): Promise<TestStore> {
    const store = await openTestStore();
    stores.push(store);
    assert.deepEqual((await importCanonical(store, REFERENCE)).rejects, []);
    return store;
  }

  it('attaches the roster of a player who is only in the pairings, in both paths', async () => {
    const copy = exportWithLatePairing(dir);
    const inFolder = await fresh();
    const folder = await importSources(inFolder, [copy], { format: 'bcp' });
    assert.deepEqual(folder.rejects, []);
    const rosters = join(dir, 'rosters-only');
    cpSync(join(copy, 'rosters'), rosters, { recursive: true });
    rmSync(join(copy, 'rosters'), { recursive: true });
    const apart = await fresh();
    assert.deepEqual((await importSources(apart, [copy], { format: 'bcp' })).rejects, []);
    const attached = await importSources(apart, [rosters], {
      format: 'roster',
      event: 'spring-gt',
    });
    assert.deepEqual(attached.rejects, []);
    for (const store of [inFolder, apart]) {
      const gil = await store.db
        .selectFrom('entries')
        .innerJoin('players', 'players.id', 'entries.player_id')
        .select(['players.name', 'entries.list_id'])
        .where('entries.player_id', '=', 'u9')
        .executeTakeFirst();
      assert.equal(gil?.name, 'Gil Grey');
      assert.equal(gil?.list_id, 'e:spring-gt:u9');
    }
    stores = stores.filter((s) => s !== inFolder && s !== apart).concat(inFolder, apart);
  });

  it('warns, naming the roster, when none of its units names a category, in both paths', async () => {
    const copy = join(dir, 'spring-gt-bare');
    cpSync(SPRING, copy, { recursive: true });
    rmSync(join(copy, 'rosters', 'nobody.ros'));
    cpSync(join(FIXTURES, 'rosters', 'no-categories.ros'), join(copy, 'rosters', 'u4.ros'));
    const note = (notes: string[]) => notes.filter((n) => /names a category/.test(n));
    const folder = await importSources(await fresh(), [copy], { format: 'bcp' });
    assert.deepEqual(folder.rejects, []);
    const bare = join(copy, 'rosters', 'u4.ros');
    assert.deepEqual(note(folder.notes), [
      `roster ${bare} (Di Dale (u4)): none of its 2 unit(s) names a category; stored as "Unit"`,
    ]);
    // Rosters whose units name categories (Ada's, Bo's, Cy's) are not mentioned.
    const store = await fresh();
    const apart = join(dir, 'bare-only');
    cpSync(join(copy, 'rosters'), apart, { recursive: true });
    rmSync(join(copy, 'rosters'), { recursive: true });
    assert.deepEqual((await importSources(store, [copy], { format: 'bcp' })).rejects, []);
    const attached = await importSources(store, [apart], { format: 'roster', event: 'spring-gt' });
    assert.deepEqual(attached.rejects, []);
    assert.deepEqual(note(attached.notes), [
      `roster ${join(apart, 'u4.ros')} (Di Dale (u4)): none of its 2 unit(s) names a category; stored as "Unit"`,
    ]);
  });
});
