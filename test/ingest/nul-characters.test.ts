/**
 * A NUL character (U+0000) in any text field is a reject of its record alone, in every format and
 * on both backends (docs/import-formats.md#nul-characters): PostgreSQL refuses a NUL in text, so
 * one used to fail the whole batch there, while SQLite stored it. The rest of the batch imports,
 * and the reject itself is stored with the same reason whatever the format.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportSourcesOptions } from '../../src/ingest/import-sources.ts';
import type { ImportReport } from '../../src/ingest/import-types.ts';
import { NUL_REASON } from '../../src/ingest/nul-text.ts';
import { writeBcpExport } from '../support/bcp-writer.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
/** A JSON string escape of U+0000, as it appears in a file's text. */
const JSON_NUL = '\\u0000';

const REFERENCE = {
  format: 'muster/v1' as const,
  systems: [{ id: 'tow', name: 'Test of War', score: { min: 0, max: 20, total: 20 } }],
  factions: [
    { id: 'VS', system: 'tow', name: 'Vermin Swarm' },
    { id: 'HE', system: 'tow', name: 'Highborn Elves' },
  ],
};

/** One event `id` with one game; `nul` puts a NUL into the player's name or the event's id. */
function eventDocument(id: string, nul: 'name' | 'id' | null): CanonicalDocument {
  return {
    ...REFERENCE,
    players: [
      { id: `${id}-p1`, name: `Ada ${id}${nul === 'name' ? '\u0000' : ''}` },
      { id: `${id}-p2`, name: `Bo ${id}` },
    ],
    events: [
      {
        id: `${id}${nul === 'id' ? '\u0000' : ''}`,
        system: 'tow',
        name: `Event ${id}`,
        start: '2025-05-03',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        games: [
          {
            id: `${id}-g1`,
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

const IDS = ['ev-a', 'ev-b', 'ev-c'];

interface Case {
  name: string;
  format: ImportSourcesOptions['format'];
  /** Writes the input into `dir`, with a NUL in one record when `nul`. */
  write: (
    store: TestStore,
    dir: string,
    nul: boolean,
  ) => Promise<{ paths: string[]; options?: Partial<ImportSourcesOptions> }>;
  /** The record rejected: its source file (relative to `dir`), kind and field. */
  rejected: { file: string; kind: string; field: string | null };
  stored: (store: TestStore) => Promise<unknown>;
  /** What the records beside the rejected one leave stored, given what the clean input stores. */
  without: (clean: unknown) => unknown;
}

const eventIds = async (store: TestStore) =>
  (await store.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);
const countGames = async (store: TestStore) =>
  Number(
    (
      await store.db
        .selectFrom('games')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const listedPlayers = async (store: TestStore) =>
  (
    await store.db
      .selectFrom('entries')
      .select('player_id')
      .where('list_id', 'is not', null)
      .orderBy('player_id')
      .execute()
  ).map((r) => r.player_id);
const allEvents = (clean: unknown) => clean;
const withoutEvB = (clean: unknown) => (clean as string[]).filter((id) => id !== 'ev-b');

function canonicalCase(nulIn: 'name' | 'id'): Case {
  return {
    name: nulIn === 'name' ? `a player's name` : 'an event id',
    format: 'canonical',
    write: async (_store, dir, nul) => {
      for (const id of IDS)
        writeFileSync(
          join(dir, `${id}.json`),
          JSON.stringify(eventDocument(id, nul && id === 'ev-b' ? nulIn : null)),
        );
      return { paths: [dir] };
    },
    rejected:
      nulIn === 'name'
        ? { file: 'ev-b.json', kind: 'player', field: '/name' }
        : { file: 'ev-b.json', kind: 'event', field: '/id' },
    stored: eventIds,
    without: nulIn === 'name' ? allEvents : withoutEvB,
  };
}

function ndjsonCase(nulIn: 'name' | 'id'): Case {
  return {
    ...canonicalCase(nulIn),
    format: 'ndjson',
    write: async (_store, dir, nul) => {
      const lines = IDS.map((id) =>
        JSON.stringify(eventDocument(id, nul && id === 'ev-b' ? nulIn : null)),
      );
      writeFileSync(join(dir, 'events.ndjson'), `${lines.join('\n')}\n`);
      return { paths: [join(dir, 'events.ndjson')] };
    },
    rejected: { ...canonicalCase(nulIn).rejected, file: 'events.ndjson' },
  };
}

const CASES: Case[] = [
  canonicalCase('name'),
  canonicalCase('id'),
  ndjsonCase('name'),
  ndjsonCase('id'),
  {
    name: `a player's name (a NUL byte in a cell)`,
    format: 'csv',
    write: async (store, dir, nul) => {
      await importCanonical(store, REFERENCE);
      const rows = IDS.map(
        (id) =>
          `${id},Event ${id},2025-05-03,1,Ada ${id}${nul && id === 'ev-b' ? '\u0000' : ''},VS,12,Bo ${id},HE,8\n`,
      );
      const header =
        'event_id,event_name,event_start,round,p1_name,p1_faction,p1_score,p2_name,p2_faction,p2_score\n';
      writeFileSync(join(dir, 'sheet.csv'), `${header}${rows.join('')}`);
      return { paths: [join(dir, 'sheet.csv')] };
    },
    rejected: { file: 'sheet.csv', kind: 'game', field: 'p1_name' },
    stored: eventIds,
    without: withoutEvB,
  },
  {
    name: `a report's player id`,
    format: 't9a',
    write: async (_store, dir, nul) => {
      const data = join(FIXTURES, 't9a', 'data');
      const tournaments = readdirSync(data).sort().slice(0, 3);
      for (const t of tournaments) cpSync(join(data, t), join(dir, t), { recursive: true });
      const middle = join(dir, tournaments[1]);
      const report = readdirSync(middle).find((n) => n.startsWith('report_')) as string;
      const doc = JSON.parse(readFileSync(join(middle, report), 'utf8')) as Record<string, unknown>;
      if (nul) doc.playerOneId = `${String(doc.playerOneId)}\u0000`;
      writeFileSync(join(middle, report), JSON.stringify(doc));
      writeFileSync(join(dir, 'bad-report'), join(tournaments[1], report));
      return { paths: [dir] };
    },
    rejected: { file: '@bad-report', kind: 'game', field: '/sides/0/player' },
    stored: async (store) => ({ events: await eventIds(store), games: await countGames(store) }),
    without: (clean) => {
      const c = clean as { events: string[]; games: number };
      return { events: c.events, games: c.games - 1 };
    },
  },
  {
    name: `a player's first name`,
    format: 'bcp',
    write: async (store, dir, nul) => {
      await importCanonical(store, REFERENCE);
      for (const id of IDS) {
        const doc = eventDocument(id, null);
        const [event] = doc.events ?? [];
        const entries = [
          { player: `${id}-p1`, faction: 'VS' },
          { player: `${id}-p2`, faction: 'HE' },
        ];
        writeBcpExport(doc, { ...event, entries }, join(dir, id), { rosters: false });
      }
      const players = join(dir, 'ev-b', 'players.json');
      const text = readFileSync(players, 'utf8');
      if (nul) writeFileSync(players, text.replace('"firstName":"', `"firstName":"${JSON_NUL}`));
      return { paths: [dir] };
    },
    rejected: { file: join('ev-b', 'players.json'), kind: 'player', field: '/name' },
    stored: eventIds,
    without: allEvents,
  },
  {
    name: `an event id`,
    format: 'bcp',
    write: async (store, dir, nul) => {
      await importCanonical(store, REFERENCE);
      for (const id of IDS) {
        const doc = eventDocument(id, null);
        writeBcpExport(doc, (doc.events ?? [])[0], join(dir, id), { rosters: false });
      }
      const event = join(dir, 'ev-b', 'event.json');
      const text = readFileSync(event, 'utf8');
      if (nul)
        writeFileSync(event, text.replace('"objectId":"ev-b"', `"objectId":"ev-b${JSON_NUL}"`));
      return { paths: [dir] };
    },
    rejected: { file: join('ev-b', 'event.json'), kind: 'event', field: '/id' },
    stored: eventIds,
    without: withoutEvB,
  },
  rosterCase('a unit name (New Recruit JSON)', 'cy-list.json', 'u3', '/units/0/name', (text) =>
    text.replace('"name":"Warlord"', `"name":"War${JSON_NUL}lord"`),
  ),
  rosterCase(
    'a roster that starts with a NUL byte (.ros)',
    'Ada_Lovelace.ros',
    'u1',
    null,
    (text) => `\u0000${text}`,
  ),
];

function rosterCase(
  name: string,
  file: string,
  player: string,
  field: string | null,
  spoil: (text: string) => string,
): Case {
  return {
    name,
    format: 'roster',
    write: async (store, dir, nul) => {
      await importCanonical(store, REFERENCE);
      const spring = join(FIXTURES, 'bcp', 'spring-gt');
      const copy = join(dir, 'spring-gt');
      cpSync(spring, copy, { recursive: true });
      rmSync(join(copy, 'rosters'), { recursive: true });
      const first = await importSources(store, [copy], { format: 'bcp' });
      assert.equal(first.status, 'imported');
      const rosters = join(dir, 'rosters');
      mkdirSync(rosters);
      for (const f of ['Ada_Lovelace.ros', 'cy-list.json', 'rosters.csv', 'u2.rosz'])
        cpSync(join(spring, 'rosters', f), join(rosters, f));
      const text = readFileSync(join(rosters, file), 'utf8');
      if (nul) writeFileSync(join(rosters, file), spoil(text));
      return { paths: [rosters], options: { event: 'spring-gt' } };
    },
    rejected: { file: join('rosters', file), kind: 'file', field },
    stored: listedPlayers,
    without: (clean) => (clean as string[]).filter((p) => p !== player),
  };
}

/** The rejects the store holds for the newest import. */
async function storedRejects(store: TestStore, importId: number) {
  return store.db
    .selectFrom('rejects')
    .select(['source', 'record', 'field', 'reason'])
    .where('import_id', '=', importId)
    .execute();
}

describe(`a NUL character is a reject of its record alone (${TEST_BACKEND})`, () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'muster-nul-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const c of CASES) {
    let expected: unknown;
    let clean: ImportReport;
    before(async () => {
      const store = await openTestStore();
      const dir = mkdtempSync(join(root, `${c.format}-clean-`));
      try {
        const { paths, options } = await c.write(store, dir, false);
        clean = await importSources(store, paths, { format: c.format, ...options });
        expected = c.without(await c.stored(store));
      } finally {
        await store.close();
      }
    });

    it(`${c.format}: a NUL in ${c.name} rejects that record alone, and the rest of the batch imports`, async () => {
      const store = await openTestStore();
      const dir = mkdtempSync(join(root, `${c.format}-`));
      try {
        const { paths, options } = await c.write(store, dir, true);
        const report = await importSources(store, paths, { format: c.format, ...options });
        const fresh = report.rejects.filter(
          (r) => !clean.rejects.some((k) => k.record === r.record && k.reason === r.reason),
        );
        assert.equal(fresh.length, 1, JSON.stringify(report.rejects, null, 1));
        const [reject] = fresh;
        const file = c.rejected.file.startsWith('@')
          ? readFileSync(join(dir, c.rejected.file.slice(1)), 'utf8')
          : c.rejected.file;
        assert.equal(reject.source, join(dir, file));
        assert.equal(reject.kind, c.rejected.kind);
        assert.equal(reject.field, c.rejected.field);
        assert.equal(reject.reason, NUL_REASON);
        assert.equal(report.status, 'imported');
        assert.deepEqual(await c.stored(store), expected);
        const kept = await storedRejects(store, report.importId);
        assert.ok(
          kept.some((r) => r.reason === NUL_REASON && r.source === reject.source),
          'the reject is stored',
        );
        for (const r of kept)
          for (const text of [r.source, r.record, r.field, r.reason])
            assert.ok(!(text ?? '').includes('\u0000'), `no NUL stored in a reject: ${text}`);
      } finally {
        await store.close();
      }
    });
  }
});
