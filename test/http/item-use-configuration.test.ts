/**
 * item-use-stats answers a list's configuration (battle formation, lores: list-level choices that
 * are not units) as its own kind, beside units and options (docs/statistics.md#item-use-stats),
 * and the choices survive an export and import unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { readExportEvents } from '../../src/store/read-export.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const list = (formation: string) => ({
  units: [{ name: 'Liberators', category: 'Infantry', models: 5 }],
  configuration: [
    { name: formation, type: 'Battle Formation' },
    { name: 'Lore of the Storm', type: 'Spell Lore' },
  ],
});

const side = (player: string, faction: string, result: string, withList: string | null) => ({
  player,
  faction,
  result,
  ...(withList === null ? {} : { list: list(withList) }),
});

const DOCUMENT = {
  format: 'muster/v1',
  systems: [{ id: 'tr', name: 'Test of Realms' }],
  factions: [
    { id: 'S', system: 'tr', name: 'Storm Hosts' },
    { id: 'R', system: 'tr', name: 'Rot Hosts' },
  ],
  players: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }, { id: 'p4' }],
  events: [
    {
      id: 'E1',
      system: 'tr',
      name: 'Realm Open',
      start: '2025-03-01',
      games: [
        {
          id: 'g1',
          round: 1,
          sides: [side('p1', 'S', 'win', 'Vanguard Wing'), side('p2', 'R', 'loss', null)],
        },
        {
          id: 'g2',
          round: 1,
          sides: [side('p3', 'S', 'loss', 'Thunderhead Host'), side('p4', 'R', 'win', null)],
        },
      ],
    },
  ],
};

describe(`list configuration in item-use-stats (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let stats: StatsApp;
  before(async () => {
    store = await openTestStore();
    const report = await importCanonical(store, DOCUMENT);
    assert.equal(report.rejects.length, 0, JSON.stringify(report.rejects));
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats.close();
    await store.close();
  });

  it('answers configuration choices as their own kind with picks and win rates', async () => {
    const { status, json } = await stats.post('/api/item-use-stats', {
      kinds: ['configuration'],
      sort: 'name',
    });
    assert.equal(status, 200, JSON.stringify(json));
    const items = (json.data as Row).items as Row[];
    assert.deepEqual(
      items.map((r) => [r.item.kind, r.item.category, r.item.name, r.picks, r.lists, r.winRate]),
      [
        ['configuration', 'Spell Lore', 'Lore of the Storm', 2, 2, 0.5],
        ['configuration', 'Battle Formation', 'Thunderhead Host', 1, 1, 0],
        ['configuration', 'Battle Formation', 'Vanguard Wing', 1, 1, 1],
      ],
    );
    assert.ok(items.every((r) => 'skillAdjustedDelta' in r));
    assert.deepEqual((json.meta as Row).filter.kinds, ['configuration']);
  });

  it('keeps configuration choices out of units and options', async () => {
    const { json } = await stats.post('/api/item-use-stats', { kinds: ['unit', 'option'] });
    const items = (json.data as Row).items as Row[];
    assert.deepEqual(
      items.map((r) => [r.item.kind, r.item.category, r.item.name]),
      [['unit', 'unit', 'Liberators']],
    );
    const all = await stats.post('/api/item-use-stats', {});
    assert.equal(((all.json.data as Row).items as Row[]).length, 4);
  });

  it('exports the configuration with its list', async () => {
    const [event] = (await readExportEvents(store.db, null, 10)) as Row[];
    const g1 = event.games.find((g: Row) => g.id === 'g1');
    assert.deepEqual(g1.sides[0].list.configuration, list('Vanguard Wing').configuration);
  });
});
