/**
 * Hostile roster files (docs/import-formats.md#list-builder-rosters): a `.rosz` inflates only its
 * roster entry, and that no further than its header says and the limit allows, so a zip of many
 * large entries or a zip bomb costs no memory and is refused alone; a `.ros` with a DOCTYPE
 * (a billion laughs) is refused instead of being stored with `&lol9;` for a unit. The rosters
 * beside the refused one still import, on both backends.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { rosterArchive } from '../support/roster-writer.ts';
import type { ArchiveEntry } from '../support/roster-writer.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const SPRING = join(import.meta.dirname, '..', 'fixtures', 'bcp', 'spring-gt');
const MIB = 1024 * 1024;

/** u2's roster as a `.ros`, taken out of the fixture's `.rosz`. */
const U2_ROS = (() => {
  const files = unzipSync(readFileSync(join(SPRING, 'rosters', 'u2.rosz')));
  const name = Object.keys(files).find((n) => n.endsWith('.ros')) as string;
  return files[name];
})();

const REFERENCE = {
  format: 'muster/v1' as const,
  systems: [{ id: 'tow', name: 'Test of War', score: { min: 0, max: 20, total: 20 } }],
  factions: [
    { id: 'VS', system: 'tow', name: 'Vermin Swarm' },
    { id: 'HE', system: 'tow', name: 'Highborn Elves' },
  ],
};

const LOL = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE roster [',
  '  <!ENTITY lol "lol">',
  ...Array.from(
    { length: 9 },
    (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ),
  ']>',
  '<roster name="lols" gameSystemName="Test of War"><forces><force name="Army" catalogueName="Vermin Swarm">',
  '<selections><selection name="&lol9;" type="unit" number="1"/></selections>',
  '</force></forces></roster>',
].join('\n');

/** The spring-gt event stored without lists, and a rosters folder with u2's roster as given. */
async function rostersWith(
  store: TestStore,
  dir: string,
  u2: { name: string; bytes: Uint8Array | string },
): Promise<string> {
  await importCanonical(store, REFERENCE);
  const copy = join(dir, 'spring-gt');
  cpSync(SPRING, copy, { recursive: true });
  rmSync(join(copy, 'rosters'), { recursive: true });
  assert.equal((await importSources(store, [copy], { format: 'bcp' })).status, 'imported');
  const rosters = join(dir, 'rosters');
  mkdirSync(rosters);
  for (const f of ['Ada_Lovelace.ros', 'cy-list.json', 'rosters.csv'])
    cpSync(join(SPRING, 'rosters', f), join(rosters, f));
  writeFileSync(join(rosters, u2.name), u2.bytes);
  return rosters;
}

const listedPlayers = async (store: TestStore) =>
  (
    await store.db
      .selectFrom('entries')
      .select('player_id')
      .where('list_id', 'is not', null)
      .orderBy('player_id')
      .execute()
  ).map((r) => r.player_id);

/** Kilobytes of peak RSS this process has reached so far. */
const peakKiB = () => process.resourceUsage().maxRSS;

describe(`hostile roster archives and documents (${TEST_BACKEND})`, () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'muster-rosz-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function importU2(u2: { name: string; bytes: Uint8Array | string }) {
    const store = await openTestStore();
    const dir = mkdtempSync(join(root, 'case-'));
    try {
      const rosters = await rostersWith(store, dir, u2);
      const before = peakKiB();
      const report = await importSources(store, [rosters], {
        format: 'roster',
        event: 'spring-gt',
      });
      const grewMiB = (peakKiB() - before) / 1024;
      const u2Rejects = report.rejects.filter((r) => r.source === join(rosters, u2.name));
      return { report, u2Rejects, listed: await listedPlayers(store), grewMiB };
    } finally {
      await store.close();
    }
  }

  it('inflates only the roster entry of a .rosz of forty 63 MiB entries, and imports it', async () => {
    const pads: ArchiveEntry[] = Array.from({ length: 40 }, (_, i) => ({
      name: `pad-${String(i).padStart(2, '0')}.bin`,
      zeros: 63 * MIB,
    }));
    const bytes = rosterArchive([...pads, { name: 'u2.ros', data: U2_ROS }]);
    assert.ok(bytes.length < 4 * MIB, `${bytes.length} bytes`);
    const { report, u2Rejects, listed, grewMiB } = await importU2({ name: 'u2.rosz', bytes });
    assert.deepEqual(u2Rejects, []);
    assert.equal(report.status, 'imported');
    assert.deepEqual(listed, ['u1', 'u2', 'u3']);
    // Inflating every entry took 2.5 GB; the roster entry is a few kilobytes.
    assert.ok(grewMiB < 200, `peak RSS grew by ${grewMiB.toFixed(0)} MiB`);
  });

  it('imports a .rosz whose other entry unzips past the limit, since only the roster is inflated', async () => {
    const bytes = rosterArchive([
      { name: 'u2.ros', data: U2_ROS },
      { name: 'notes.bin', zeros: 65 * MIB },
    ]);
    const { u2Rejects, listed } = await importU2({ name: 'u2.rosz', bytes });
    assert.deepEqual(u2Rejects, []);
    assert.deepEqual(listed, ['u1', 'u2', 'u3']);
  });

  const refused: Array<[string, { name: string; bytes: () => Uint8Array | string }, RegExp]> = [
    [
      'a zip bomb: a roster entry that unzips past the size its header says',
      {
        name: 'u2.rosz',
        bytes: () =>
          rosterArchive([
            {
              name: 'u2.ros',
              data: Buffer.concat([U2_ROS, Buffer.alloc(80 * MIB, 0x20)]),
              claims: U2_ROS.length,
            },
          ]),
      },
      /u2\.ros unzips to more than the \d+ bytes its header says/,
    ],
    [
      'a roster entry whose header says it unzips past the limit',
      {
        name: 'u2.rosz',
        bytes: () =>
          rosterArchive([
            { name: 'u2.ros', data: Buffer.concat([U2_ROS, Buffer.alloc(65 * MIB, 0x20)]) },
          ]),
      },
      /u2\.ros unzips to \d+ bytes; at most 67108864/,
    ],
    [
      'a .rosz of two .ros entries',
      {
        name: 'u2.rosz',
        bytes: () =>
          rosterArchive([
            { name: 'u2.ros', data: U2_ROS },
            { name: 'other.ros', data: U2_ROS },
          ]),
      },
      /the zip holds 2 \.ros entries \(u2\.ros, other\.ros\); a \.rosz holds one roster/,
    ],
    [
      'a billion laughs (.ros with a DOCTYPE and entities)',
      { name: 'u2.ros', bytes: () => LOL },
      /a DOCTYPE or entity declaration/,
    ],
  ];
  for (const [what, u2, reason] of refused) {
    it(`refuses ${what} alone, and imports the rosters beside it`, async () => {
      const { report, u2Rejects, listed } = await importU2({ name: u2.name, bytes: u2.bytes() });
      assert.equal(u2Rejects.length, 1, JSON.stringify(report.rejects));
      assert.match(u2Rejects[0].reason, reason);
      assert.match(u2Rejects[0].reason, /^not a roster: /);
      assert.equal(report.status, 'imported');
      assert.deepEqual(listed, ['u1', 'u3']);
    });
  }
});
