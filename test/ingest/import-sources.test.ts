import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const T9A_SLICE = join(import.meta.dirname, '..', 'fixtures', 't9a', 'data');
const HEADER =
  'event_id,event_name,event_start,event_country,round,map,p1_id,p1_name,p1_faction,p1_score,p1_first_turn,p2_id,p2_name,p2_faction,p2_score,p2_first_turn';

describe(`file imports (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  before(async () => {
    store = await openTestStore();
    dir = mkdtempSync(join(tmpdir(), 'muster-import-'));
    await importCanonical(store, smallDocument());
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports malformed, truncated and empty JSON files and unreadable paths, and still imports the good file', async () => {
    const good = smallDocument();
    good.events[0] = {
      ...good.events[0],
      id: 'ev-good',
      games: [
        {
          id: 'good-1',
          sides: [
            { player: 'p1', faction: 'VS', score: 12 },
            { player: 'p2', faction: 'HE', score: 8 },
          ],
        },
      ],
    };
    const text = JSON.stringify(good);
    const report = await importSources(
      store,
      [
        file('good.json', text),
        file('malformed.json', '{"format": "muster/v1", "events": [,]}'),
        file('truncated.json', text.slice(0, text.length / 2)),
        file('empty.json', '  \n'),
        join(dir, 'does-not-exist.json'),
      ],
      { format: 'canonical' },
    );
    const reasons = new Map(report.rejects.map((r) => [r.source.split('/').pop(), r.reason]));
    assert.match(reasons.get('malformed.json')!, /^malformed JSON: /);
    assert.match(
      reasons.get('truncated.json')!,
      /^malformed JSON: .*(end of JSON|Unterminated|Expected)/i,
    );
    assert.equal(reasons.get('empty.json'), 'the file is empty');
    assert.match(reasons.get('does-not-exist.json')!, /^cannot read: ENOENT/);
    assert.equal(report.counts.games.imported, 1);
    assert.equal(report.counts.events.imported, 1);
  });

  it('imports a CSV sheet, introducing a new faction and saying so, and is idempotent', async () => {
    const csv = [
      HEADER,
      'csv-1,Autumn Cup,2025-10-04,PL,1,Vetia 2,a,Ann,Vermin Swarm,13,true,b,Ben,Lizard Kin,7,false',
      'csv-1,,,,1,Vetia 2,c,Cat,rats,10,false,d,Dan,HE,10,true',
      'csv-1,,,,2,,a,,VS,20,,c,,lizard kin,0,',
    ].join('\n');
    const path = file('cup.csv', csv);
    const first = await importSources(store, [path], { format: 'csv', system: 'tow' });
    assert.deepEqual(first.rejects, []);
    assert.deepEqual(first.newFactions, ['tow/Lizard Kin']);
    assert.equal(first.counts.games.imported, 3);
    const sides = await store.db
      .selectFrom('sides')
      .select(['faction_id', 'result'])
      .where('game_id', 'like', 'csv:csv-1:%')
      .orderBy('game_id')
      .orderBy('side')
      .execute();
    assert.deepEqual(
      sides.map((s) => `${s.faction_id}:${s.result}`).sort(),
      ['HE:draw', 'Lizard Kin:loss', 'Lizard Kin:loss', 'VS:draw', 'VS:win', 'VS:win'].sort(),
    );
    const player = await store.db
      .selectFrom('players')
      .selectAll()
      .where('id', '=', 'a')
      .executeTakeFirstOrThrow();
    assert.equal(player.name, 'Ann');
    const again = await importSources(store, [path], { format: 'csv', system: 'tow' });
    assert.deepEqual(again.counts.games, { imported: 0, updated: 0, unchanged: 3, rejected: 0 });
    assert.deepEqual(again.newFactions, []);
  });

  it('rejects a CSV with an unknown column and one missing a required column, naming them', async () => {
    const report = await importSources(
      store,
      [
        file('unknown.csv', `${HEADER},colour\ncsv-2,X,2025-01-01,,1,,a,,VS,10,,b,,HE,10,,red`),
        file('missing.csv', 'event_id,event_start,p1_faction\ncsv-3,2025-01-01,VS'),
      ],
      { format: 'csv', system: 'tow' },
    );
    const reasons = report.rejects.map(
      (r) => `${r.source.split('/').pop()}: ${r.field}: ${r.reason}`,
    );
    assert.ok(
      reasons.some((r) => /^unknown\.csv: colour: unknown column\(s\): colour/.test(r)),
      reasons.join('\n'),
    );
    assert.ok(
      reasons.some((r) =>
        /^missing\.csv: p2_faction: missing required column\(s\): p2_faction/.test(r),
      ),
      reasons.join('\n'),
    );
  });

  it('rejects bad CSV rows by line and column while the good rows land', async () => {
    const report = await importSources(
      store,
      [
        file(
          'rows.csv',
          [
            HEADER,
            'csv-4,Row Cup,2025-03-01,,1,,a,,VS,12,maybe,b,,HE,8,',
            'csv-4,,,,2,,a,,VS,11,,b,,HE,9,',
            'csv-4,,,,x,,a,,VS,11,,b,,HE,9,',
          ].join('\n'),
        ),
      ],
      { format: 'csv', system: 'tow' },
    );
    const reasons = report.rejects.map((r) => `${r.record}: ${r.field}: ${r.reason}`);
    assert.deepEqual(reasons, [
      'line 2: p1_first_turn: "maybe" is not true or false',
      'line 4: round: "x" is not a whole number',
    ]);
    assert.equal(report.counts.games.imported, 1);
  });

  it('imports the committed T9A slice, rejecting off-scale scores and deriving the id of the report without one', async () => {
    const fresh = await openTestStore();
    try {
      const report = await importSources(fresh, [T9A_SLICE], { format: 't9a' });
      const reasons = report.rejects.map((r) => r.reason);
      assert.equal(reasons.filter((r) => /is outside the t9a scale 0\.\.20/.test(r)).length, 4);
      assert.equal(reasons.filter((r) => /do not sum to 20/.test(r)).length, 1);
      assert.equal(report.rejects.length, 5);
      assert.equal(report.derivedIds, 1);
      assert.equal(report.counts.events.imported, 6);
      assert.equal(report.counts.games.imported, 73 - 5);
      const derived = await fresh.db
        .selectFrom('games')
        .select(['id', 'event_id'])
        .where('id', 'like', 't9a:%')
        .execute();
      assert.deepEqual(
        derived.map((g) => g.id),
        [`t9a:${derived[0]?.event_id}:report_undefined`],
      );
      const names = await fresh.db
        .selectFrom('factions')
        .select(['id', 'name'])
        .where('id', '=', 'VS')
        .execute();
      assert.deepEqual(names, [{ id: 'VS', name: 'Vermin Swarm' }]);
      const unknown = await fresh.db
        .selectFrom('sides')
        .select('game_id')
        .where('player_id', 'is', null)
        .execute();
      assert.equal(unknown.length, 10, 'sides without a player id import, with the player unknown');
      const again = await importSources(fresh, [T9A_SLICE], { format: 't9a' });
      assert.equal(again.counts.games.unchanged, 68);
      assert.equal(again.counts.games.imported + again.counts.games.updated, 0);
      assert.equal(again.derivedIds, 1);
      assert.equal(again.dataVersion, report.dataVersion);
      // The raw report is kept with the reject so it can be fixed and replayed.
      const kept = await fresh.db
        .selectFrom('rejects')
        .select(['payload', 'source'])
        .where('reason', 'like', '%outside the t9a scale%')
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(kept.payload!), JSON.parse(readFileSync(kept.source, 'utf8')));
    } finally {
      await fresh.close();
    }
  });
});
