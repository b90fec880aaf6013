/**
 * Every import format reads to the end of its input (docs/import-formats.md#rules-for-every-format):
 * a record with bytes that are not UTF-8 (a Latin-1 é, a NUL, random bytes) in the middle of an
 * input is rejected alone, naming its file and its place, and the records after it still import.
 * Nothing with a replacement character (U+FFFD) is stored.
 */
import assert from 'node:assert/strict';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportSourcesOptions } from '../../src/ingest/import-sources.ts';
import type { ImportReport } from '../../src/ingest/import-types.ts';
import { writeBcpExport } from '../support/bcp-writer.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const MARK = '@BAD@';

/** Bytes a broken export can hold where text should be. */
const BAD: Record<string, Buffer> = {
  'a Latin-1 é': Buffer.from([0xe9]),
  'a NUL byte': Buffer.from([0x00]),
  'random bytes': Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x80]),
};

/** `text` as bytes with MARK replaced by `bad` (or by nothing when `bad` is null). */
function withBytes(text: string, bad: Buffer | null): Buffer {
  const at = text.indexOf(MARK);
  if (at === -1) return Buffer.from(text);
  const [before, after] = [text.slice(0, at), text.slice(at + MARK.length)];
  return Buffer.concat([Buffer.from(before), bad ?? Buffer.alloc(0), Buffer.from(after)]);
}

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

/** A canonical document of one event `id` (its name marked bad when `bad`), one game. */
function eventDocument(id: string, bad: boolean): CanonicalDocument {
  return {
    ...REFERENCE,
    players: [
      { id: `${id}-p1`, name: `Ada ${id}` },
      { id: `${id}-p2`, name: `Bo ${id}` },
    ],
    events: [
      {
        id,
        system: 'tow',
        name: `Event ${id}${bad ? MARK : ''}`,
        start: '2025-05-03',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        games: [
          {
            id: `${id}-g1`,
            round: 1,
            sides: [
              { player: `${id}-p1`, faction: 'VS', score: 12 },
              { player: `${id}-p2`, faction: 'HE', score: 8 },
            ],
          },
        ],
      },
    ],
  };
}

interface Case {
  format: ImportSourcesOptions['format'];
  /** Writes three records into `dir`, the middle one with `bad` bytes; returns the paths. */
  write: (
    store: TestStore,
    dir: string,
    bad: Buffer,
  ) => Promise<{
    paths: string[];
    options?: Partial<ImportSourcesOptions>;
    /** The file the bad record is in, and what is stored of the good ones. */
    badFile: string;
  }>;
  /** What the good records left in the store (compared with the same input without bad bytes). */
  stored: (store: TestStore) => Promise<unknown>;
}

const eventIds = async (store: TestStore) =>
  (await store.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);

const CASES: Case[] = [
  {
    format: 'canonical',
    write: async (_store, dir, bad) => {
      for (const id of ['ev-a', 'ev-b', 'ev-c'])
        writeFileSync(
          join(dir, `${id}.json`),
          withBytes(JSON.stringify(eventDocument(id, id === 'ev-b'), null, 1), bad),
        );
      return { paths: [dir], badFile: join(dir, 'ev-b.json') };
    },
    stored: eventIds,
  },
  {
    format: 'ndjson',
    write: async (_store, dir, bad) => {
      const lines = ['ev-a', 'ev-b', 'ev-c'].map((id) =>
        withBytes(`${JSON.stringify(eventDocument(id, id === 'ev-b'))}\n`, bad),
      );
      const file = join(dir, 'events.ndjson');
      writeFileSync(file, Buffer.concat(lines));
      return { paths: [file], badFile: file };
    },
    stored: eventIds,
  },
  {
    format: 'csv',
    write: async (store, dir, bad) => {
      await importCanonical(store, REFERENCE);
      const rows = ['ev-a', 'ev-b', 'ev-c'].map(
        (id) =>
          `${id},Event ${id},2025-05-03,1,Ada ${id}${id === 'ev-b' ? MARK : ''},VS,12,Bo ${id},HE,8\n`,
      );
      const file = join(dir, 'sheet.csv');
      writeFileSync(
        file,
        withBytes(
          `event_id,event_name,event_start,round,p1_name,p1_faction,p1_score,p2_name,p2_faction,p2_score\n${rows.join('')}`,
          bad,
        ),
      );
      return { paths: [file], badFile: file };
    },
    stored: eventIds,
  },
  {
    format: 't9a',
    write: async (_store, dir, bad) => {
      const data = join(FIXTURES, 't9a', 'data');
      const tournaments = readdirSync(data).sort().slice(0, 3);
      for (const t of tournaments) cpSync(join(data, t), join(dir, t), { recursive: true });
      const middle = join(dir, tournaments[1]);
      const report = readdirSync(middle).find((n) => n.startsWith('report_')) as string;
      const text = readFileSync(join(middle, report), 'utf8');
      writeFileSync(join(middle, report), withBytes(text.replace('{', `{"${MARK}": 1,`), bad));
      return { paths: [dir], badFile: join(middle, report) };
    },
    stored: async (store) => ({
      events: await eventIds(store),
      games: Number(
        (
          await store.db
            .selectFrom('games')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    }),
  },
  {
    format: 'bcp',
    write: async (store, dir, bad) => {
      await importCanonical(store, REFERENCE);
      for (const id of ['ev-a', 'ev-b', 'ev-c']) {
        const doc = eventDocument(id, false);
        const [event] = doc.events ?? [];
        writeBcpExport(doc, event, join(dir, id), { rosters: false });
      }
      const pairings = join(dir, 'ev-b', 'pairings.json');
      const text = readFileSync(pairings, 'utf8');
      writeFileSync(
        pairings,
        withBytes(text.replace('"firstName":"', `"firstName":"${MARK}`), bad),
      );
      return { paths: [dir], badFile: pairings };
    },
    stored: eventIds,
  },
  {
    format: 'roster',
    write: async (store, dir, bad) => {
      await importCanonical(store, REFERENCE);
      const spring = join(FIXTURES, 'bcp', 'spring-gt');
      const copy = join(dir, 'spring-gt');
      cpSync(spring, copy, { recursive: true });
      rmSync(join(copy, 'rosters'), { recursive: true });
      const first = await importSources(store, [copy], { format: 'bcp' });
      assert.equal(first.status, 'imported');
      // Rosters in name order; the second (New Recruit JSON) gets the bad bytes. After it come
      // the shapes of issue 38: u2's archive holds a list configuration selection and fighters
      // with custom names; u4 is a BattleScribe 2.01 roster whose every category link is named
      // "New CategoryLink"; u5 (zipped) writes its units' sizes as upgrades, as Age of Sigmar does.
      const rosters = join(dir, 'rosters');
      mkdirSync(rosters);
      for (const f of ['Ada_Lovelace.ros', 'cy-list.json', 'rosters.csv'])
        cpSync(join(spring, 'rosters', f), join(rosters, f));
      const named = readFileSync(join(FIXTURES, 'rosters', 'kill-team-named.ros'));
      writeFileSync(join(rosters, 'u2.rosz'), zipSync({ 'u2.ros': named }));
      cpSync(join(FIXTURES, 'rosters', 'new-categorylink-201.ros'), join(rosters, 'u4.ros'));
      const sizes = readFileSync(join(FIXTURES, 'rosters', 'size-upgrades-aos.ros'));
      writeFileSync(join(rosters, 'u5.rosz'), zipSync({ 'u5.ros': sizes }));
      const middle = join(rosters, 'cy-list.json');
      const text = readFileSync(middle, 'utf8');
      writeFileSync(middle, withBytes(text.replace('"name":"', `"name":"${MARK}`), bad));
      return { paths: [rosters], options: { event: 'spring-gt' }, badFile: middle };
    },
    stored: storedLists,
  },
];

/**
 * Each player's stored list at the roster case's event, as a line: the player, each unit with its
 * category and models, and the list's configuration choices.
 */
async function storedLists(store: TestStore): Promise<string[]> {
  const entries = await store.db
    .selectFrom('entries')
    .select(['player_id', 'list_id'])
    .where('list_id', 'is not', null)
    .orderBy('player_id')
    .execute();
  const lines: string[] = [];
  for (const { player_id, list_id } of entries) {
    const units = await store.db
      .selectFrom('list_units')
      .select(['name', 'category', 'models'])
      .where('list_id', '=', list_id!)
      .orderBy('unit_index')
      .execute();
    const choices = await store.db
      .selectFrom('list_configuration')
      .select(['name', 'type'])
      .where('list_id', '=', list_id!)
      .orderBy('choice_index')
      .execute();
    lines.push(
      [
        player_id,
        units.map((u) => `${u.name} (${u.category}, ${Number(u.models)})`).join(', '),
        choices.map((c) => `${c.type}: ${c.name}`).join(', '),
      ].join(' | '),
    );
  }
  return lines;
}

/** Every text column of the stored names that holds U+FFFD. */
async function replacementCharacters(store: TestStore): Promise<string[]> {
  const names = [
    ...(await store.db.selectFrom('events').select('name').execute()).map((r) => r.name),
    ...(await store.db.selectFrom('players').select('name').execute()).map((r) => r.name),
  ];
  return names.filter((n): n is string => typeof n === 'string' && n.includes('\uFFFD'));
}

describe(`every format reads to the end of its input (${TEST_BACKEND})`, () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'muster-to-the-end-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const c of CASES) {
    /** What the good records store: the same input without the bad bytes, bad record left out. */
    let expected: unknown;
    let clean: ImportReport;
    before(async () => {
      // The reference run: the same three records with the bad bytes left out, then the middle
      // record's contribution taken away by importing it alone into a second store.
      const store = await openTestStore();
      const dir = mkdtempSync(join(root, `${c.format}-clean-`));
      try {
        const { paths, options } = await c.write(store, dir, Buffer.alloc(0));
        clean = await importSources(store, paths, { format: c.format, ...options });
        expected = await c.stored(store);
      } finally {
        await store.close();
      }
    });

    for (const [kind, bytes] of Object.entries(BAD)) {
      it(`${c.format}: rejects the record with ${kind} alone, naming its file and line, and imports the records after it`, async () => {
        const store = await openTestStore();
        const dir = mkdtempSync(join(root, `${c.format}-`));
        try {
          const { paths, options, badFile } = await c.write(store, dir, bytes);
          const report = await importSources(store, paths, { format: c.format, ...options });
          const fresh = report.rejects.filter(
            (r) => !clean.rejects.some((k) => k.record === r.record && k.reason === r.reason),
          );
          assert.equal(fresh.length, 1, JSON.stringify(report.rejects, null, 1));
          const [reject] = fresh;
          assert.equal(reject.source, badFile);
          assert.match(
            `${reject.record ?? ''} ${reject.reason}`,
            /line \d+|position \d+/,
            'the reject says where in the file',
          );
          assert.equal(report.status, 'imported');
          assert.equal(report.rejects.length, clean.rejects.length + 1);
          const stored = await c.stored(store);
          assertWithoutMiddle(c.format, stored, expected, report.notes);
          assert.deepEqual(await replacementCharacters(store), []);
        } finally {
          await store.close();
        }
      });
    }
  }
});

/** The good records of the clean run are all stored, less the middle one's. */
function assertWithoutMiddle(
  format: string,
  stored: unknown,
  expected: unknown,
  notes: string[],
): void {
  if (format === 't9a') {
    const s = stored as { events: string[]; games: number };
    const e = expected as { events: string[]; games: number };
    assert.deepEqual(s.events, e.events, 'every tournament, the one after the bad report too');
    assert.equal(s.games, e.games - 1, 'every report but the bad one');
    return;
  }
  if (format === 'roster') {
    const lines = expected as string[];
    assert.deepEqual(
      stored,
      lines.filter((line) => !line.startsWith('u3 |')),
    );
    // The shapes of issue 38 after the bad roster are read as the builder means them.
    const of = (player: string) => lines.find((line) => line.startsWith(`${player} |`)) ?? '';
    assert.match(of('u2'), /Neophyte Leader/);
    assert.doesNotMatch(of('u2'), /Yorl Krauss/);
    assert.match(of('u2'), /List Configuration: Arena Mission/);
    assert.match(of('u4'), /Neurothrope \(HQ, 1\), Termagants \(Troops, 10\)/);
    assert.match(of('u4'), /Tyrannocyte \(Dedicated Transport, 1\)/);
    assert.match(of('u5'), /Clanrats \(Battleline, 40\), Clanrats \(Battleline, 20\)/);
    // u4's link to a category its force lacks is stored under its own name, and said so.
    assert.match(of('u4'), /Ripper Swarms \(New CategoryLink, 3\)/);
    assert.ok(
      notes.some((n) => /u4\.ros .*targets no category of its force.*"New CategoryLink"/.test(n)),
      notes.join('\n'),
    );
    return;
  }
  assert.deepEqual(
    stored,
    (expected as string[]).filter((id) => id !== 'ev-b'),
  );
  assert.deepEqual(expected, ['ev-a', 'ev-b', 'ev-c']);
}

describe(`a byte-order mark and CRLF line ends are text, not bad bytes (${TEST_BACKEND})`, () => {
  const BOM = '\uFEFF';
  const inputs: Array<[ImportSourcesOptions['format'], string, string]> = [
    ['canonical', 'bom.json', `${BOM}${JSON.stringify(eventDocument('ev-bom', false), null, 1)}`],
    ['ndjson', 'bom.ndjson', `${BOM}${JSON.stringify(eventDocument('ev-bom', false))}\r\n`],
    [
      'csv',
      'bom.csv',
      `${BOM}event_id,event_name,event_start,p1_name,p1_faction,p1_score,p2_name,p2_faction,p2_score\r\nev-bom,Event ev-bom,2025-05-03,Ada,VS,12,Bo,HE,8\r\n`,
    ],
  ];
  for (const [format, name, text] of inputs) {
    it(`${format}: imports a UTF-8 file that starts with a byte-order mark`, async () => {
      const store = await openTestStore();
      const dir = mkdtempSync(join(tmpdir(), 'muster-bom-'));
      try {
        await importCanonical(store, REFERENCE);
        const path = join(dir, name);
        writeFileSync(path, text);
        const report = await importSources(store, [path], { format });
        assert.deepEqual(report.rejects, []);
        assert.deepEqual(await eventIds(store), ['ev-bom']);
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe(`a CSV row the parser cannot read is rejected alone (${TEST_BACKEND})`, () => {
  const HEADER =
    'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score';
  const row = (round: number, a: string, b: string) =>
    `e1,Autumn,2026-10-01,${round},${a},Elves,15,${b},Orcs,5`;
  const CASES: Array<[string, string, number[]]> = [
    ['a quote that never closes', 'e1,Autumn,2026-10-01,3,"cat,Elves,15,dan,Orcs,5', [4]],
    ['a stray quote after a quoted cell', 'e1,Autumn,2026-10-01,3,"cat"x,Elves,15,dan,Orcs,5', [4]],
    ['one cell too many', `${row(3, 'cat', 'dan')},extra`, [4]],
    [
      'one cell too many, then a stray quote that leaves a quote open to the end',
      `${row(3, 'cat', 'dan')},extra\ne1,Autumn,2026-10-01,3,"cat"x,Elves,15,dan,Orcs,5`,
      [4, 5],
    ],
  ];

  for (const [kind, bad, lines] of CASES) {
    it(`csv: rejects a row with ${kind} by its line and imports the rows before and after it`, async () => {
      const store = await openTestStore();
      const dir = mkdtempSync(join(tmpdir(), 'muster-csv-row-'));
      try {
        const file = join(dir, 'autumn.csv');
        const rows = [
          HEADER,
          row(1, 'ann', 'bob'),
          row(2, 'cat', 'bob'),
          bad,
          row(4, 'ann', 'dan'),
        ];
        writeFileSync(file, `${rows.join('\n')}\n`);
        const report = await importSources(store, [file], { format: 'csv', system: 'kow' });
        assert.equal(report.status, 'imported');
        assert.deepEqual(
          report.rejects.map((r) => [r.source, r.record]),
          lines.map((line) => [file, `line ${line}`]),
          JSON.stringify(report.rejects),
        );
        const rounds = await store.db
          .selectFrom('games')
          .select('round')
          .orderBy('round')
          .execute();
        assert.deepEqual(
          rounds.map((r) => Number(r.round)),
          [1, 2, 4],
        );
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
