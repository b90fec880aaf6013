/**
 * Rejects say what a person can fix and keep what they fix (docs/import-formats.md#rejects-and-replay):
 * a stray quote in a CSV cell is one reject for its line, naming the column and how to quote it,
 * with the line's cells as its payload; a name over the length bound says so, not what another
 * form of the field would have been; and a rejected event's games count in the games tally.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';

const HEADER =
  'event_id,event_name,event_start,p1_id,p1_name,p1_faction,p1_score,p2_id,p2_name,p2_faction,p2_score';

describe(`reject reasons and tallies (${TEST_BACKEND})`, () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'muster-reasons-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const importSheet = async (name: string, rows: string[]) => {
    const file = join(dir, name);
    writeFileSync(file, `${[HEADER, ...rows].join('\n')}\n`);
    const store = await openTestStore();
    try {
      return await importSources(store, [file], { format: 'csv', system: 'kow' });
    } finally {
      await store.close();
    }
  };

  it('rejects a line with stray quotes once, naming the column and how to quote it, with its cells as the payload', async () => {
    const report = await importSheet('quotes.csv', [
      'e1,Autumn,2026-10-01,p1,Alice "The Great" Smith,Elves,15,p2,Bob,Orcs,5',
      'e1,Autumn,2026-10-01,p3,Carl,Elves,10,p4,Dan,Orcs,10',
      'e1,Autumn,2026-10-01,p5,Ed a"b"c"d,Elves,10,p6,Fi,Orcs,10',
    ]);
    assert.deepEqual(
      report.rejects.map((r) => r.record),
      ['line 2', 'line 4'],
    );
    const [first] = report.rejects;
    assert.equal(first.field, 'p1_name');
    assert.match(first.reason, /in column p1_name: a quote \("\) inside a cell/);
    assert.match(first.reason, /double each quote/);
    assert.doesNotMatch(first.reason, /Buffer|"data":\[/);
    assert.deepEqual(first.payload, {
      event_id: 'e1',
      event_name: 'Autumn',
      event_start: '2026-10-01',
      p1_id: 'p1',
      p1_name: 'Alice "The Great" Smith',
      p1_faction: 'Elves',
      p1_score: '15',
      p2_id: 'p2',
      p2_name: 'Bob',
      p2_faction: 'Orcs',
      p2_score: '5',
    });
    assert.equal(report.counts.games.imported, 1);
    assert.equal(report.counts.games.rejected, 2);
  });

  it('says a name is over the length bound, not that it must be null', async () => {
    const report = await importSheet('long.csv', [
      `e1,Autumn,2026-10-01,p1,${'x'.repeat(310)},Elves,15,p2,Bob,Orcs,5`,
    ]);
    const player = report.rejects.find((r) => r.kind === 'player');
    assert.ok(player !== undefined, JSON.stringify(report.rejects));
    assert.equal(player.field, '/name');
    assert.match(player.reason, /more than 300 characters/);
  });

  it("counts a rejected event's games in the games tally", async () => {
    const report = await importSheet('dates.csv', [
      'e1,Autumn,2026-10-01,p1,Ann,Elves,15,p2,Bob,Orcs,5',
      'e2,Winter,not-a-date,p3,Cat,Elves,15,p4,Dan,Orcs,5',
      'e2,Winter,not-a-date,p5,Eve,Elves,15,p6,Fay,Orcs,5',
    ]);
    assert.equal(report.counts.events.rejected, 1);
    assert.equal(report.counts.games.imported, 1);
    assert.equal(report.counts.games.rejected, 2);
  });
});
