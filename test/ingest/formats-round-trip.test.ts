/**
 * The new formats carry what canonical JSON carries (docs/import-formats.md#pairing-app-exports):
 * an event built as a canonical document, written out as a pairing app's export with its lists as
 * `.ros`, `.rosz` and New Recruit rosters, imports into the same games, factions, lists and items
 * as the document itself, and every statistics route answers the same, whether the rosters come
 * in the export's folder or afterwards with `--format roster`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ArmyList, CanonicalDocument, Entry, Event, Game } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { Store } from '../../src/store/store.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import { writeBcpExport } from '../support/bcp-writer.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const REFERENCE: CanonicalDocument = {
  format: 'muster/v1',
  systems: [
    {
      id: 'tow',
      name: 'Test of War',
      score: { min: 0, max: 20, total: 20 },
      marginBands: {
        decisive: { min: 18, max: 20 },
        normal: { min: 14, max: 17 },
        close: { min: 10, max: 13 },
      },
    },
  ],
  factions: [
    { id: 'VS', system: 'tow', name: 'Vermin Swarm', aliases: ['Rats'] },
    { id: 'HE', system: 'tow', name: 'Highborn Elves' },
    { id: 'DH', system: 'tow', name: 'Dwarven Holds' },
    { id: 'EO', system: 'tow', name: 'Ember Orcs' },
    { id: 'FC', system: 'tow', name: 'Fire Clan', parent: 'EO' },
  ],
};

const ARMIES: Array<[string, string | null]> = [
  ['VS', null],
  ['HE', null],
  ['DH', null],
  ['EO', 'FC'],
  ['EO', null],
  ['VS', null],
  ['HE', null],
  ['DH', null],
];
const UNITS = ['General', 'Spearmen', 'Archers', 'Knights', 'Catapult', 'Wizard'];
const ITEMS: Array<[string, string]> = [
  ['Sword of Embers', 'Magic Items'],
  ['Shield', 'Equipment'],
  ['Standard Bearer', 'Command'],
  ['Fire Path', 'Path'],
];

function list(p: number): ArmyList {
  return {
    points: 2000 + p * 5,
    units: [0, 1, 2].map((u) => ({
      name: UNITS[(p + u) % UNITS.length],
      category: u === 0 ? 'Characters' : 'Core',
      cost: 300 + 10 * p + u,
      models: u === 0 ? null : 10 + p,
      options: [ITEMS[(p + u) % ITEMS.length], ITEMS[(p + 2 * u + 1) % ITEMS.length]].map(
        ([name, type]) => ({ name, type }),
      ),
    })),
  };
}

/** Eight players, three rounds of four games, scores summing to 20, lists on every entry. */
function documentOf(): CanonicalDocument & { events: Event[] } {
  const players = ARMIES.map((_, i) => ({
    id: `rt${i}`,
    name: `Player ${String.fromCharCode(65 + i)} Smith`,
  }));
  const entries: Entry[] = ARMIES.map(([faction, subfaction], i) => ({
    player: `rt${i}`,
    faction,
    subfaction,
    team: i % 2 === 0 ? 'Even Team' : null,
    list: list(i),
  }));
  const games: Game[] = [];
  for (let round = 1; round <= 3; round++) {
    for (let t = 0; t < 4; t++) {
      const a = (t * 2 + round - 1) % 8;
      const b = (t * 2 + round + 2) % 8;
      const score = (a * 7 + b * 3 + round) % 21;
      const side = (p: number, s: number) => ({
        player: `rt${p}`,
        faction: ARMIES[p][0],
        subfaction: ARMIES[p][1],
        score: s,
      });
      games.push({
        id: `rt-r${round}-t${t + 1}`,
        round,
        table: t + 1,
        sides: [side(a, score), side(b, 20 - score)],
      });
    }
  }
  return {
    ...REFERENCE,
    players,
    events: [
      {
        id: 'round-trip-open',
        system: 'tow',
        name: 'Round Trip Open',
        start: '2025-09-06',
        end: '2025-09-07',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        rounds: 3,
        participants: 8,
        city: 'Lyon',
        country: 'FR',
        entries,
        games,
      },
    ],
  };
}

const ROUTES: Array<[string, Record<string, unknown>]> = [
  ['/api/faction-stats', { system: 'tow' }],
  ['/api/faction-stats', { system: 'tow', from: '2025-09-01', minGames: 1 }],
  ['/api/army-matchup', { system: 'tow' }],
  ['/api/rankings', { system: 'tow' }],
  ['/api/rankings', { system: 'tow', method: 'elo' }],
  ['/api/rankings', { system: 'tow', method: 'points' }],
  ['/api/item-use-stats', { system: 'tow' }],
  ['/api/scenario', { system: 'tow' }],
  ['/api/scenario-stats', { system: 'tow' }],
  ['/api/upcoming-satellites', { system: 'tow' }],
];

function comparable(json: Record<string, unknown>): unknown {
  const meta = { ...(json.meta as Record<string, unknown>) };
  delete meta.dataVersion;
  delete meta.generatedAt;
  return { ...json, meta };
}

/** What a store holds, written so that two stores can be compared: games, factions, lists. */
async function contents(store: Store): Promise<Record<string, unknown>> {
  const db = store.db;
  const sides = await db
    .selectFrom('sides')
    .select(['game_id', 'side', 'player_id', 'faction_id', 'subfaction_id', 'score', 'result'])
    .orderBy('game_id')
    .orderBy('side')
    .execute();
  const games = await db
    .selectFrom('games')
    .select(['id', 'event_id', 'round', 'table_no'])
    .orderBy('id')
    .execute();
  const factions = await db
    .selectFrom('factions')
    .select(['id', 'name', 'parent_id'])
    .orderBy('id')
    .execute();
  const entries = await db
    .selectFrom('entries')
    .select(['player_id', 'faction_id', 'subfaction_id', 'team', 'list_id'])
    .orderBy('player_id')
    .execute();
  const units = await db
    .selectFrom('list_units')
    .selectAll()
    .orderBy('list_id')
    .orderBy('unit_index')
    .execute();
  const options = await db
    .selectFrom('list_options')
    .selectAll()
    .orderBy('list_id')
    .orderBy('unit_index')
    .orderBy('option_index')
    .execute();
  const lists = await db.selectFrom('lists').selectAll().orderBy('id').execute();
  const norm = (rows: object[]) =>
    JSON.parse(
      JSON.stringify(rows, (_k, v: unknown) =>
        typeof v === 'bigint' || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) ? Number(v) : v,
      ),
    );
  return norm([sides, games, factions, entries, units, options, lists]) as Record<string, unknown>;
}

describe(`canonical -> pairing-app export and rosters -> the same store (${TEST_BACKEND})`, () => {
  let dir: string;
  const stores: Record<'canonical' | 'bcp' | 'roster', TestStore> = {} as never;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'muster-formats-rt-'));
    const doc = documentOf();
    stores.canonical = await openTestStore();
    const direct = await importCanonical(stores.canonical, doc);
    assert.deepEqual(direct.rejects, []);
    writeBcpExport(doc, doc.events[0], join(dir, 'with-rosters'), { systemName: 'Test of War' });
    writeBcpExport(doc, doc.events[0], join(dir, 'bare'), {
      systemName: 'Test of War',
      rosters: false,
    });
    for (const kind of ['bcp', 'roster'] as const) {
      stores[kind] = await openTestStore();
      const reference = await importCanonical(stores[kind], { ...REFERENCE, players: doc.players });
      assert.deepEqual(reference.rejects, []);
    }
  });
  after(async () => {
    for (const store of Object.values(stores)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports the export with its rosters, and the bare export then its rosters, without a reject', async () => {
    const bcp = await importSources(stores.bcp, [join(dir, 'with-rosters')], { format: 'bcp' });
    assert.deepEqual(bcp.rejects, []);
    assert.deepEqual(bcp.notes, []);
    assert.equal(bcp.counts.games.imported, 12);
    assert.equal(bcp.counts.lists.imported, 8);
    const bare = await importSources(stores.roster, [join(dir, 'bare')], { format: 'bcp' });
    assert.deepEqual(bare.rejects, []);
    const rosters = await importSources(stores.roster, [join(dir, 'with-rosters', 'rosters')], {
      format: 'roster',
      event: 'round-trip-open',
    });
    assert.deepEqual(rosters.rejects, []);
    assert.equal(rosters.counts.lists.imported + rosters.counts.lists.updated, 8);
  });

  it('holds the same games, factions, entries, lists and items as the canonical import', async () => {
    const expected = await contents(stores.canonical);
    assert.deepEqual(await contents(stores.bcp), expected);
    assert.deepEqual(await contents(stores.roster), expected);
  });

  it('answers every statistics route the same', async () => {
    const apps = await Promise.all(Object.values(stores).map((s) => startStatsApp(s)));
    try {
      for (const [path, body] of ROUTES) {
        const [a, ...others] = await Promise.all(apps.map((app) => app.post(path, body)));
        assert.equal(a.status, 200, `${path} ${JSON.stringify(a.json)}`);
        for (const o of others)
          assert.deepEqual(
            comparable(o.json),
            comparable(a.json),
            `${path} ${JSON.stringify(body)}`,
          );
      }
      const answer = await apps[1].post('/api/item-use-stats', { system: 'tow' });
      const items = (answer.json.data as { items: Array<{ item: { name: string } }> }).items;
      assert.ok(
        items.some((i) => i.item.name.toLowerCase() === 'sword of embers'),
        JSON.stringify(items.slice(0, 2)),
      );
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
