/**
 * `muster export` then `muster import --format ndjson` into another store: every statistics
 * route answers the same (data version and generation time aside), and exporting the copy back
 * into the original changes nothing. Beside the demo and the T9A slice, the source holds the
 * roster shapes of issue 38 (a list's configuration, custom names, category links, multiplied
 * models) and a team event scored by a declared team rule with a cap. The source is always SQLite (where a user starts); the
 * target is the backend under test, so the PostgreSQL pass is the SQLite -> PostgreSQL move.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportStore } from '../../src/cli/export-store.ts';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { DEMO_SYSTEM_ID, generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import type { ImportReport } from '../../src/ingest/import-types.ts';
import { openMigratedStore } from '../../src/store/store.ts';
import type { Store } from '../../src/store/store.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { join } from 'node:path';
import { TEAM_EVENT_DOCUMENT } from '../support/team-event-document.ts';
import { importRosterEvent } from '../support/roster-event.ts';

const T9A_SLICE = join(import.meta.dirname, '..', 'fixtures', 't9a', 'data');
/**
 * The demo data cut to its last 20 completed events (about 1,700 games, several import batches)
 * and every other one (scheduled satellites, majors): each kind of row the export writes, at a
 * seventh of the whole demo's import, export and snapshot cost.
 */
function demoPart(): CanonicalDocument {
  const doc = generateDemo({ today: '2026-05-01' });
  const events = doc.events ?? [];
  const completed = events.filter((e) => e.status === 'completed');
  const kept = new Set([
    ...completed.slice(-20),
    ...events.filter((e) => e.status !== 'completed'),
  ]);
  return { ...doc, events: events.filter((e) => kept.has(e)) };
}

async function exportText(store: Store): Promise<string> {
  const lines: string[] = [];
  await exportStore(store.db, (line) => void lines.push(line));
  return lines.join('\n') + '\n';
}

async function importText(store: Store, text: string): Promise<ImportReport> {
  return importSources(store, ['-'], {
    format: 'ndjson',
    stdin: async () => text,
    batchGames: 500,
  });
}

const ROUTES: Array<[string, Record<string, unknown>]> = [];
for (const system of [DEMO_SYSTEM_ID, 't9a']) {
  ROUTES.push(
    ['/api/faction-stats', { system }],
    ['/api/faction-stats', { system, from: '2025-01-01', minGames: 5 }],
    ['/api/army-matchup', { system }],
    ['/api/rankings', { system }],
    ['/api/rankings', { system, method: 'elo' }],
    ['/api/rankings', { system, method: 'points' }],
    ['/api/item-use-stats', { system }],
    ['/api/scenario', { system }],
    ['/api/scenario-stats', { system }],
    ['/api/upcoming-satellites', { system }],
  );
}
ROUTES.push(
  ['/api/item-use-stats', { system: 'rl' }],
  ['/api/item-use-stats', { system: 'rl', kinds: ['configuration'] }],
  ['/api/events', { system: 'rl', event: 'rl-ev' }],
  ['/api/events', { system: 'tr', event: 'tr-T' }],
  ['/api/rankings', { system: 'tr', method: 'points', minGames: 0, includeProvisional: true }],
);

/** A route's answer without what may differ between two stores holding the same data. */
function comparable(json: Record<string, unknown>): unknown {
  const meta = { ...(json.meta as Record<string, unknown>) };
  delete meta.dataVersion;
  delete meta.generatedAt;
  return { ...json, meta };
}

describe(`SQLite -> ${TEST_BACKEND} round trip through muster export`, () => {
  let source: Store;
  let target: TestStore;
  let first: ImportReport;
  before(async () => {
    source = await openMigratedStore('sqlite::memory:');
    target = await openTestStore();
    const demo = await importCanonical(source, demoPart());
    assert.equal(demo.rejects.length, 0);
    await importSources(source, [T9A_SLICE], { format: 't9a' });
    assert.deepEqual((await importCanonical(source, TEAM_EVENT_DOCUMENT)).rejects, []);
    await importRosterEvent(source);
    first = await importText(target, await exportText(source));
  });
  after(async () => {
    await source.close();
    await target.close();
  });

  const TABLES = [
    'games',
    'events',
    'players',
    'list_options',
    'list_units',
    'list_configuration',
  ] as const;

  it('imports everything the export wrote, in several batches, without a reject', async () => {
    assert.deepEqual(first.rejects, []);
    const count = async (store: Store, table: (typeof TABLES)[number]) =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const table of TABLES)
      assert.equal(await count(target, table), await count(source, table), table);
    assert.ok(first.counts.games.imported > 500, 'more than one batch');
  });

  it("keeps the rosters' configuration, unit names, categories and models, and the team rule", async () => {
    const units = async (store: Store) =>
      store.db
        .selectFrom('list_units')
        .select(['list_id', 'name', 'category', 'models'])
        .where('list_id', 'like', 'e:rl-ev:%')
        .orderBy('list_id')
        .orderBy('unit_index')
        .execute();
    const unitsThere = await units(target);
    assert.deepEqual(unitsThere, await units(source));
    const names = unitsThere.map((u) => u.name);
    assert.ok(names.includes('Neophyte Leader') && !names.includes('Yorl Krauss'), names.join());
    assert.ok(!unitsThere.some((u) => u.list_id === 'e:rl-ev:cl' && u.category === 'Unit'));
    const configuration = async (store: Store) =>
      store.db
        .selectFrom('list_configuration')
        .select(['list_id', 'name', 'type'])
        .orderBy('list_id')
        .orderBy('choice_index')
        .execute();
    assert.deepEqual(await configuration(target), await configuration(source));
    assert.equal((await configuration(target)).length, 6);
    const system = await target.db
      .selectFrom('systems')
      .select('team_rule')
      .where('id', '=', 'tr')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(system.team_rule ?? 'null'), {
      name: 'total team battle points',
      rank: ['score'],
    });
    const event = await target.db
      .selectFrom('events')
      .select('team_score_cap')
      .where('id', '=', 'tr-T')
      .executeTakeFirstOrThrow();
    assert.equal(Number(event.team_score_cap), 50);
  });

  it('answers every statistics route identically on both stores, data version aside', async () => {
    const a = await startStatsApp(source);
    const b = await startStatsApp(target);
    try {
      for (const [path, body] of ROUTES) {
        const [ra, rb] = [await a.post(path, body), await b.post(path, body)];
        assert.equal(ra.status, 200, `${path} ${JSON.stringify(body)}: ${JSON.stringify(ra.json)}`);
        assert.deepEqual(
          comparable(rb.json),
          comparable(ra.json),
          `${path} ${JSON.stringify(body)}`,
        );
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('changes nothing when the copy is exported and imported back into the original', async () => {
    const version = await source.dataVersion();
    const back = await importText(source, await exportText(target));
    assert.deepEqual(back.rejects, []);
    assert.equal(back.counts.games.imported + back.counts.games.updated, 0);
    assert.equal(back.counts.events.imported + back.counts.events.updated, 0);
    assert.equal(back.counts.players.imported + back.counts.players.updated, 0);
    assert.equal(await source.dataVersion(), version);
    assert.equal(await exportText(source), await exportText(target), 'the two exports are equal');
  });
});
