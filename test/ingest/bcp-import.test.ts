/**
 * Pairing-app exports and list-builder rosters (docs/import-formats.md#pairing-app-exports): the
 * committed Spring GT export (byes, a dropped player, a parent army, a misspelled army and a
 * folder of rosters) imports as the docs say, a bad pairing is rejected alone with its file and
 * place, an import of nothing changes nothing, and importing again changes nothing.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import {
  parseNewRecruitJson,
  parseRosterXml,
  parseRosz,
  readRoster,
} from '../../src/ingest/formats/roster/roster-parse.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const SPRING = join(FIXTURES, 'bcp', 'spring-gt');

/** The game system and factions the organiser declared before the event. */
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

async function freshStore(): Promise<TestStore> {
  const store = await openTestStore();
  const report = await importCanonical(store, REFERENCE);
  assert.deepEqual(report.rejects, []);
  return store;
}

describe(`pairing-app exports (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await freshStore();
    dir = mkdtempSync(join(tmpdir(), 'muster-bcp-'));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the whole export under --strict for the misspelled army and the roster of nobody', async () => {
    const version = await store.dataVersion();
    const report = await importSources(store, [SPRING], { format: 'bcp', strict: true });
    assert.equal(report.status, 'rejected');
    assert.deepEqual(
      report.rejects
        .map(
          (r) =>
            `${r.source.split('/').slice(-2).join('/')} · ${r.record} · ${r.field}: ${r.reason}`,
        )
        .sort(),
      [
        'rosters/nobody.ros · null · null: matches no player of event "spring-gt": name the player (id or name) in the file name or in rosters.csv',
        'spring-gt/pairings.json · pairings[1] (pair-2) · /sides/1/faction: unknown faction "Ember Orc" in system "tow": did you mean "Ember Orcs"? --strict refuses a new faction one edit away from a known one',
        'spring-gt/players.json · players["3"] (u4) · /faction: unknown faction "Ember Orc" in system "tow": did you mean "Ember Orcs"? --strict refuses a new faction one edit away from a known one',
      ].sort(),
    );
    assert.equal(await store.dataVersion(), version, 'nothing written');
  });

  it("imports the event: byes and the dropped player's missing round are no games, the parent army is the faction", async () => {
    const report = await importSources(store, [SPRING], { format: 'bcp' });
    assert.equal(report.status, 'imported');
    assert.deepEqual(
      report.rejects.map((r) => `${r.source.split('/').pop()}: ${r.reason}`),
      [
        'nobody.ros: matches no player of event "spring-gt": name the player (id or name) in the file name or in rosters.csv',
      ],
    );
    assert.deepEqual(report.counts.games, { imported: 6, updated: 0, unchanged: 0, rejected: 0 });
    assert.deepEqual(report.counts.events, { imported: 1, updated: 0, unchanged: 0, rejected: 0 });
    assert.equal(report.counts.lists.imported, 3);
    assert.deepEqual(report.newFactions, ['tow/Ember Orc', 'tow/Fire Clan']);
    assert.deepEqual(report.notes, [
      'event "spring-gt": 2 player(s) without a list: Di Dale (u4), Ed Eve (u5)',
      'event "spring-gt": 2 bye(s): no game',
      'event "spring-gt": 1 dropped player(s), kept with the rounds they played',
      'event "spring-gt": 1 game(s) whose game points the system\'s score rules do not take: results kept, points left out',
      'new faction "Ember Orc" in system "tow" is one edit away from "Ember Orcs": did you mean it? Fix the name and import again, or declare the faction; --strict refuses such a name',
    ]);
    const event = await store.db.selectFrom('events').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(
      [
        event.id,
        event.name,
        event.start_date,
        event.end_date,
        event.city,
        event.country,
        Number(event.rounds),
        Number(event.participants),
      ],
      ['spring-gt', 'Spring GT', '2025-04-05', '2025-04-06', 'Lyon', 'FR', 3, 5],
    );
    const fire = await store.db
      .selectFrom('factions')
      .selectAll()
      .where('id', '=', 'Fire Clan')
      .executeTakeFirstOrThrow();
    assert.equal(fire.parent_id, 'EO', 'the army is a subfaction of its parent army');
    const sides = await store.db
      .selectFrom('sides')
      .innerJoin('games', 'games.id', 'sides.game_id')
      .select([
        'games.id',
        'games.round',
        'sides.player_id',
        'sides.faction_id',
        'sides.subfaction_id',
        'sides.score',
        'sides.result',
      ])
      .orderBy('games.round')
      .orderBy('games.id')
      .orderBy('sides.side')
      .execute();
    const line = (s: (typeof sides)[number]) =>
      `r${s.round} ${s.id} ${s.player_id} ${s.faction_id}${s.subfaction_id ? `/${s.subfaction_id}` : ''} ${s.score === null ? '-' : Number(s.score)} ${s.result}`;
    assert.deepEqual(sides.map(line), [
      'r1 pair-1 u1 VS 15 win',
      'r1 pair-1 u2 HE 5 loss',
      'r1 pair-2 u3 EO/Fire Clan 10 draw',
      'r1 pair-2 u4 Ember Orc 10 draw',
      // The result stands over the points; off-scale points are left out, the result kept.
      'r2 pair-4 u1 VS 12 loss',
      'r2 pair-4 u3 EO/Fire Clan 8 win',
      'r2 pair-5 u2 HE - win',
      'r2 pair-5 u5 DH - loss',
      'r3 pair-7 u1 VS 11 win',
      'r3 pair-7 u5 DH 9 loss',
      'r3 pair-8 u2 HE 20 win',
      'r3 pair-8 u3 EO/Fire Clan 0 loss',
    ]);
    const entries = await store.db.selectFrom('entries').selectAll().orderBy('player_id').execute();
    assert.deepEqual(
      entries.map(
        (e) =>
          `${e.player_id} ${e.faction_id}/${e.subfaction_id ?? ''} ${e.team ?? ''} ${e.list_id ?? ''}`,
      ),
      [
        'u1 VS/  e:spring-gt:u1',
        'u2 HE/ Lyon Lions e:spring-gt:u2',
        'u3 EO/Fire Clan  e:spring-gt:u3',
        'u4 Ember Orc/  ',
        'u5 DH/  ',
      ],
    );
    const names = await store.db
      .selectFrom('players')
      .select(['id', 'name'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      names.map((p) => `${p.id} ${p.name}`),
      ['u1 Ada Lovelace', 'u2 Bo Bright', 'u3 Cy Cole', 'u4 Di Dale', 'u5 Ed Eve'],
    );
  });

  it('changes nothing when the same export is imported again', async () => {
    const version = await store.dataVersion();
    const again = await importSources(store, [SPRING], { format: 'bcp' });
    assert.deepEqual(again.counts.games, { imported: 0, updated: 0, unchanged: 6, rejected: 0 });
    assert.equal(again.counts.events.unchanged, 1);
    assert.equal(again.counts.lists.imported + again.counts.lists.updated, 0);
    assert.equal(await store.dataVersion(), version);
  });

  it('reads one combined file, and a folder of event folders, as the same event', async () => {
    const combined = join(dir, 'spring.json');
    const read = (f: string) => JSON.parse(readFileSync(join(SPRING, f), 'utf8')) as unknown;
    writeFileSync(
      combined,
      JSON.stringify({
        event: read('event.json'),
        players: read('players.json'),
        pairings: read('pairings.json'),
      }),
    );
    const one = await importSources(store, [combined], { format: 'bcp' });
    assert.deepEqual(one.rejects, []);
    // Without the rosters the entries lose their lists: the event changes, the games do not.
    assert.deepEqual(one.counts.games, { imported: 0, updated: 0, unchanged: 6, rejected: 0 });
    const folders = join(dir, 'season');
    cpSync(SPRING, join(folders, 'spring-gt'), { recursive: true });
    const all = await importSources(store, [folders], { format: 'bcp' });
    assert.deepEqual(all.counts.games, { imported: 0, updated: 0, unchanged: 6, rejected: 0 });
    assert.equal(all.counts.events.updated, 1, 'the lists are back');
  });

  it('rejects a bad pairing alone, naming its file and place and keeping it raw; the rest imports', async () => {
    const copy = join(dir, 'bad');
    cpSync(SPRING, copy, { recursive: true });
    rmSync(join(copy, 'rosters'), { recursive: true });
    const event = JSON.parse(readFileSync(join(copy, 'event.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(join(copy, 'event.json'), JSON.stringify({ ...event, objectId: 'bad-gt' }));
    type Side = { game: Record<string, unknown> };
    const pairings = JSON.parse(readFileSync(join(copy, 'pairings.json'), 'utf8')) as Array<{
      objectId: string;
      player1: Side;
      player2: Side;
    }>;
    const renamed = pairings.map((p) => ({ ...p, objectId: `bad-${p.objectId}` }));
    renamed[0].player1.game.gameResult = 3;
    renamed[3].player2.game.gamePoints = 'eight';
    renamed[6].player2.game.gameResult = 2; // both sides win
    writeFileSync(join(copy, 'pairings.json'), JSON.stringify(renamed));
    const report = await importSources(store, [copy], { format: 'bcp' });
    assert.deepEqual(
      report.rejects.map(
        (r) => `${r.source.split('/').pop()} · ${r.record} · ${r.field}: ${r.reason}`,
      ),
      [
        'pairings.json · pairings[0] (bad-pair-1) · /player1/game/gameResult: gameResult 3 is not 2 (win), 1 (draw) or 0 (loss)',
        'pairings.json · pairings[3] (bad-pair-4) · /player2/game/gamePoints: gamePoints "eight" is not a number',
        'pairings.json · pairings[6] (bad-pair-7) · /sides/1/result: results win/win do not pair (win/loss, draw/draw or loss/loss)',
      ],
    );
    assert.deepEqual(
      report.rejects.map((r) => (r.payload as { objectId: string }).objectId),
      ['bad-pair-1', 'bad-pair-4', 'bad-pair-7'],
    );
    assert.equal(report.counts.games.imported, 3);
    assert.equal(report.counts.games.rejected, 3);
  });

  it('changes nothing when an import imports nothing: an empty folder, a malformed file', async () => {
    const empty = join(dir, 'empty');
    cpSync(SPRING, empty, { recursive: true });
    writeFileSync(join(empty, 'pairings.json'), '[{"round": 1,');
    const version = await store.dataVersion();
    const report = await importSources(store, [empty, join(dir, 'nothing-here')], {
      format: 'bcp',
    });
    assert.deepEqual(
      report.rejects.map((r) => `${r.source.split('/').pop()}: ${r.reason.replace(/:.*/, '')}`),
      ['pairings.json: cannot read', 'nothing-here: cannot read'],
    );
    assert.equal(report.status, 'failed');
    assert.equal(await store.dataVersion(), version);
  });

  it('creates the system the export names on a fresh store, and --system names one when it does not', async () => {
    const fresh = await openTestStore();
    try {
      const named = await importSources(fresh, [SPRING], { format: 'bcp' });
      assert.ok(
        named.notes.includes(
          'new system test-of-war ("Test of War") without score rules: game points taken as scores',
        ),
        named.notes.join('\n'),
      );
      const system = await fresh.db.selectFrom('systems').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual(
        [system.id, system.name, system.score_min],
        ['test-of-war', 'Test of War', null],
      );
      const points = await fresh.db
        .selectFrom('sides')
        .select('score')
        .where('game_id', '=', 'pair-5')
        .orderBy('side')
        .execute();
      assert.deepEqual(
        points.map((p) => Number(p.score)),
        [25, -5],
        'without score rules the points are the scores',
      );
      const nameless = join(dir, 'nameless');
      cpSync(SPRING, nameless, { recursive: true });
      writeFileSync(
        join(nameless, 'event.json'),
        JSON.stringify({ objectId: 'nameless', name: 'No System Cup', eventDate: '2025-06-01' }),
      );
      const pairings = (
        JSON.parse(readFileSync(join(nameless, 'pairings.json'), 'utf8')) as Array<
          Record<string, unknown>
        >
      ).map((p) => ({ ...p, objectId: `n-${String(p.objectId)}` }));
      writeFileSync(join(nameless, 'pairings.json'), JSON.stringify(pairings));
      const given = await importSources(fresh, [nameless], { format: 'bcp', system: 'kow' });
      assert.equal(given.counts.games.imported, 6);
      const event = await fresh.db
        .selectFrom('events')
        .select('system_id')
        .where('id', '=', 'nameless')
        .executeTakeFirstOrThrow();
      assert.equal(event.system_id, 'kow');
    } finally {
      await fresh.close();
    }
  });
});

describe(`list-builder rosters (${TEST_BACKEND})`, () => {
  it('reads a .rosz, a .ros and a New Recruit JSON of the same list as the same items', async () => {
    const [ros, rosz, json] = await Promise.all(
      ['same-list.ros', 'same-list.rosz', 'same-list.json'].map((f) =>
        readRoster(join(FIXTURES, 'rosters', f)),
      ),
    );
    assert.deepEqual(rosz, ros);
    assert.deepEqual(json, ros);
    assert.deepEqual(ros.catalogues, ['Highborn Elves']);
    assert.deepEqual(ros.list, {
      points: 2000,
      units: [
        {
          name: 'Prince',
          category: 'Characters',
          cost: 400,
          models: null,
          options: [
            { name: 'Sword of Embers', type: 'Magic Items' },
            { name: 'Shield', type: 'Equipment' },
          ],
        },
        {
          name: 'Spearmen',
          category: 'Core',
          cost: 300,
          models: 20,
          options: [{ name: 'Standard Bearer', type: 'Command' }],
        },
      ],
    });
  });

  it('says what is wrong with a file that is not a roster', () => {
    assert.throws(() => parseRosterXml('<roster><forces>'), /^RosterError: not well-formed XML/);
    assert.throws(() => parseRosterXml('<roster name="x"/>'), /the roster has no force/);
    assert.throws(() => parseRosz(new TextEncoder().encode('not a zip')), /not a zip file/);
    assert.throws(() => parseNewRecruitJson('{"list": []}'), /no roster in the file/);
  });

  it("attaches a folder of rosters to a stored event's players, reporting who matched nobody", async () => {
    const store = await freshStore();
    const dir = mkdtempSync(join(tmpdir(), 'muster-rosters-'));
    try {
      const copy = join(dir, 'spring-gt');
      cpSync(SPRING, copy, { recursive: true });
      rmSync(join(copy, 'rosters'), { recursive: true });
      const first = await importSources(store, [copy], { format: 'bcp' });
      assert.equal(first.counts.lists.imported, 0);
      const version = await store.dataVersion();
      const rosters = join(SPRING, 'rosters');
      const report = await importSources(store, [rosters], {
        format: 'roster',
        event: 'spring-gt',
      });
      assert.deepEqual(
        report.rejects.map((r) => `${r.source.split('/').pop()}: ${r.reason}`),
        [
          'nobody.ros: matches no player of event "spring-gt": name the player (id or name) in the file name or in rosters.csv',
        ],
      );
      assert.deepEqual(report.notes, [
        'event "spring-gt": 2 player(s) without a list: Di Dale (u4), Ed Eve (u5)',
      ]);
      assert.equal(report.counts.lists.updated + report.counts.lists.imported, 3);
      assert.equal(report.counts.events.updated, 1);
      assert.ok((await store.dataVersion()) > version);
      const lists = await store.db
        .selectFrom('entries')
        .select(['player_id', 'list_id'])
        .where('list_id', 'is not', null)
        .orderBy('player_id')
        .execute();
      assert.deepEqual(
        lists.map((l) => l.player_id),
        ['u1', 'u2', 'u3'],
      );
      const again = await importSources(store, [rosters], { format: 'roster', event: 'spring-gt' });
      assert.equal(again.counts.events.unchanged, 1);
      assert.equal(
        again.counts.events.updated + again.counts.lists.imported + again.counts.lists.updated,
        0,
      );
      await assert.rejects(
        importSources(store, [rosters], { format: 'roster', event: 'autumn' }),
        /no event "autumn" in the store: import the event first/,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
