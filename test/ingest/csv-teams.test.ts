/**
 * A CSV sheet's `p1_team` and `p2_team` cells (docs/import-formats.md#csv): they become the
 * event's entries with their teams, so the event is a team event whose teams its page and the
 * Team pairing page's routes see, across the sheet's batches; a team cell that cannot be right
 * rejects its row alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importSources } from '../../src/ingest/import-sources.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const SYSTEM = 'tow';
const HEADER =
  'event_id,event_name,event_start,round,p1_id,p1_name,p1_faction,p1_result,p1_team,p2_id,p2_name,p2_faction,p2_result,p2_team';

interface TeamMember {
  player: { id: string };
  faction: { id: string } | null;
}

describe(`CSV team columns (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let dir: string;
  const sheet = (name: string, rows: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, [HEADER, ...rows].join('\n'));
    return path;
  };
  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN }, payload });
  before(async () => {
    t = await buildTestApp({ seed: smallDocument() });
    dir = mkdtempSync(join(tmpdir(), 'muster-csv-teams-'));
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a team event whose teams the event page and the team matrix see, across batches', async () => {
    const path = sheet('league.csv', [
      'csv-tm,Team League,2026-03-07,1,a1,Ann,VS,win,Red Lions,b1,Bob,HE,loss,Blue Owls',
      'csv-tm,,,1,a2,Amy,HE,draw,Red Lions,b2,Ben,DH,draw,Blue Owls',
      'csv-tm,,,1,a3,Abe,DH,loss,Red Lions,b3,Bea,VS,win,Blue Owls',
      // Later rows may leave a team out: the player's team is still the one given before.
      'csv-tm,,,2,b1,,HE,win,,a1,,VS,loss,',
    ]);
    // Two games a batch: the event is written three times, its entries whole each time.
    const report = await importSources(t.store, [path], {
      format: 'csv',
      system: SYSTEM,
      batchGames: 2,
    });
    assert.deepEqual(report.rejects, []);
    assert.equal(report.counts.games.imported, 4);
    await t.snapshots.refresh();

    const list = await post('/api/events', { system: SYSTEM, format: 'teams', pageSize: 200 });
    assert.equal(list.statusCode, 200, list.body.slice(0, 300));
    const ids = (list.json().data.events as Array<{ id: string }>).map((e) => e.id);
    assert.ok(ids.includes('csv-tm'), 'the sheet event is listed among the team events');

    const page = await post('/api/events', { system: SYSTEM, event: 'csv-tm' });
    assert.equal(page.statusCode, 200, page.body.slice(0, 300));
    const teams = page.json().data.event.teams.teams as Array<{
      name: string;
      members: TeamMember[];
    }>;
    const byName = new Map(teams.map((team) => [team.name, team.members]));
    assert.deepEqual([...byName.keys()].sort(), ['Blue Owls', 'Red Lions']);
    const members = (name: string) =>
      byName.get(name)!.map((m) => `${m.player.id}:${m.faction?.id ?? '-'}`);
    assert.deepEqual(members('Red Lions'), ['a1:VS', 'a2:HE', 'a3:DH']);
    assert.deepEqual(members('Blue Owls'), ['b1:HE', 'b2:DH', 'b3:VS']);

    // What the Team pairing page sends for the two teams of the event.
    const side = (name: string) =>
      byName.get(name)!.map((m) => ({ player: m.player.id, faction: m.faction!.id }));
    const matrix = await post('/api/team-matrix', {
      system: SYSTEM,
      teamA: side('Red Lions'),
      teamB: side('Blue Owls'),
    });
    assert.equal(matrix.statusCode, 200, matrix.body.slice(0, 300));
    const data = matrix.json().data;
    assert.deepEqual(
      data.rows.map((r: { known: boolean }) => r.known),
      [true, true, true],
    );
    assert.equal(data.cells.length, 3);
  });

  it('rejects a row whose team cell cannot be right, alone, and keeps the rest', async () => {
    const path = sheet('bad-teams.csv', [
      'csv-bad,Bad Teams,2026-03-14,1,c1,Cid,VS,win,Greens,d1,Dee,HE,loss,Yellows',
      // c1 plays for Greens already.
      'csv-bad,,,2,c1,,VS,win,Yellows,d2,Dot,DH,loss,Yellows',
      // A team with nobody to belong to.
      'csv-bad,,,2,,,HE,win,Greens,d3,Dan,DH,loss,Yellows',
      // Two players of one team do not meet at a team event.
      'csv-bad,,,3,c2,Cal,DH,win,Greens,c3,Cam,VS,loss,Greens',
      'csv-bad,,,2,c2,Cal,DH,draw,Greens,d2,Dot,DH,draw,Yellows',
    ]);
    const report = await importSources(t.store, [path], { format: 'csv', system: SYSTEM });
    assert.deepEqual(
      report.rejects.map((r) => `${r.record}: ${r.field}`),
      ['line 3: p1_team', 'line 4: p1_team', 'line 5: p2_team'],
    );
    assert.match(report.rejects[0].reason, /disagrees with line 2 \("Greens"\)/);
    assert.equal(report.counts.games.imported, 2);
    await t.snapshots.refresh();
    const page = await post('/api/events', { system: SYSTEM, event: 'csv-bad' });
    const teams = page.json().data.event.teams.teams as Array<{
      name: string;
      members: TeamMember[];
    }>;
    assert.deepEqual(
      teams.map((team) => `${team.name}: ${team.members.map((m) => m.player.id).join(' ')}`).sort(),
      ['Greens: c1 c2', 'Yellows: d1 d2'],
    );
  });

  it('keeps a sheet without team cells a singles event with no entries', async () => {
    const path = sheet('plain.csv', [
      'csv-plain,Plain Cup,2026-03-21,1,e1,Eve,VS,win,,f1,Fay,HE,loss,',
    ]);
    const report = await importSources(t.store, [path], { format: 'csv', system: SYSTEM });
    assert.deepEqual(report.rejects, []);
    await t.snapshots.refresh();
    const page = await post('/api/events', { system: SYSTEM, event: 'csv-plain' });
    assert.equal(page.json().data.event.teams, null);
    const list = await post('/api/events', { system: SYSTEM, format: 'teams', pageSize: 200 });
    const ids = (list.json().data.events as Array<{ id: string }>).map((e) => e.id);
    assert.ok(!ids.includes('csv-plain'));
  });
});
