import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { printReport } from '../../src/cli/print-report.ts';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Old World-like victory points (no fixed scale) beside a 0..20 system with score rules. */
function twoSystems(): CanonicalDocument & { events: NonNullable<CanonicalDocument['events']> } {
  const game = (id: string, a: [string, string, number], b: [string, string, number]) => ({
    id,
    sides: [
      { player: a[0], faction: a[1], score: a[2] },
      { player: b[0], faction: b[1], score: b[2] },
    ] as [
      { player: string; faction: string; score: number },
      { player: string; faction: string; score: number },
    ],
  });
  return {
    format: 'muster/v1',
    systems: [
      { id: 'tow', name: 'Warhammer: The Old World' },
      { id: 'ruled', name: 'Ruled', score: { min: 0, max: 20, total: 20 } },
    ],
    factions: [
      { id: 'EoS', system: 'tow', name: 'Empire of Man' },
      { id: 'OnG', system: 'tow', name: 'Orc and Goblin Tribes' },
      { id: 'A', system: 'ruled', name: 'Alpha' },
      { id: 'B', system: 'ruled', name: 'Beta' },
    ],
    events: [
      {
        id: 'tow-1',
        system: 'tow',
        name: 'Old World Open',
        start: '2024-05-04',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        games: [
          game('tow-g1', ['p1', 'EoS', 2081], ['p2', 'OnG', 1450]),
          game('tow-g2', ['p3', 'EoS', 900], ['p4', 'OnG', 3120.5]),
          game('tow-g3', ['p1', 'EoS', -50], ['p4', 'OnG', 12_000]),
        ],
      },
      {
        id: 'ruled-1',
        system: 'ruled',
        name: 'Ruled Cup',
        start: '2024-05-04',
        status: 'completed',
        format: 'singles',
        tier: 'standard',
        games: [
          game('r-g1', ['p5', 'A', 12], ['p6', 'B', 8]),
          game('r-off-scale', ['p5', 'A', 2081], ['p6', 'B', 8]),
        ],
      },
    ],
  };
}

describe(`systems with and without score rules (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await openTestStore();
    dir = mkdtempSync(join(tmpdir(), 'muster-score-rules-'));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports every game of a system without score rules, and still rejects an off-scale score beside it', async () => {
    const report = await importCanonical(store, twoSystems());
    assert.deepEqual(
      report.rejects.map((r) => [r.record, r.field, r.reason]),
      [['game r-off-scale', '/sides/0/score', 'score 2081 is outside the ruled scale 0..20']],
    );
    assert.equal(report.counts.games.imported, 4);
    const scores = await store.db
      .selectFrom('sides')
      .select(['game_id', 'score', 'result'])
      .where('game_id', 'like', 'tow-%')
      .orderBy('game_id')
      .orderBy('side')
      .execute();
    assert.deepEqual(
      scores.map((s) => [s.game_id, Number(s.score), s.result]),
      [
        ['tow-g1', 2081, 'win'],
        ['tow-g1', 1450, 'loss'],
        ['tow-g2', 900, 'loss'],
        ['tow-g2', 3120.5, 'win'],
        ['tow-g3', -50, 'loss'],
        ['tow-g3', 12_000, 'win'],
      ],
    );
    const again = await importCanonical(store, twoSystems());
    assert.equal(again.counts.games.unchanged, 4);
    assert.equal(again.dataVersion, report.dataVersion, 're-import changes nothing');
  });

  it('answers faction-stats win rates for the system without score rules, with margin bands null', async () => {
    const stats = await startStatsApp(store);
    try {
      const { status, json } = await stats.post('/api/faction-stats', { system: 'tow' });
      assert.equal(status, 200, JSON.stringify(json));
      const data = json.data as Row;
      const byId = new Map<string, Row>(data.factions.map((f: Row) => [f.faction.id, f]));
      assert.equal(byId.get('EoS')!.games, 3);
      assert.equal(byId.get('EoS')!.winRate, 1 / 3);
      assert.equal(byId.get('OnG')!.winRate, 2 / 3);
      assert.equal(data.marginBands ?? null, null);
      const ruled = await stats.post('/api/faction-stats', { system: 'ruled' });
      assert.equal(ruled.status, 200);
      assert.equal((ruled.json.data as Row).factions.length, 2);
    } finally {
      await stats.close();
    }
  });

  it('reports an unresolvable reference once, with how many records it sank', async () => {
    const doc = twoSystems();
    doc.systems = [];
    doc.factions = [];
    doc.events = [
      {
        ...doc.events[0],
        id: 'tow-2',
        games: doc.events[0].games!.map((g) => ({
          ...g,
          id: `${g.id}-lizards`,
          sides: [{ ...g.sides[0], faction: 'Lizardmen' }, g.sides[1]],
        })),
      },
    ];
    const report = await importCanonical(store, doc, { source: 'lizards.json' });
    assert.equal(report.rejects.length, 3, 'every record is still kept for replay');
    const lines: string[] = [];
    printReport(report, (line) => lines.push(line));
    const rejectLines = lines.filter((l) => l.startsWith('rejected'));
    assert.deepEqual(rejectLines, [
      'rejected 3 games: /sides/0/faction: unknown faction "Lizardmen" in system "tow": declare it in factions[] or add an alias (first: lizards.json · game tow-g1-lizards)',
    ]);
  });

  it('names the place of a schema error once in the printed line', async () => {
    const report = await importCanonical(store, {
      format: 'muster/v1',
      systems: [{ id: 'bad', name: 'Bad', score: { min: 0 } }],
    });
    const lines: string[] = [];
    printReport(report, (line) => lines.push(line));
    const line = lines.find((l) => l.startsWith('rejected system'))!;
    assert.equal(
      line,
      'rejected system: document · systems[0] (bad) · /score/max: required field "max" is missing',
    );
  });

  it('creates the unknown system a CSV names on an empty store, says so, and lets a canonical document complete it', async () => {
    const fresh = await openTestStore();
    try {
      const path = join(dir, 'results.csv');
      writeFileSync(
        path,
        [
          'event_id,event_name,event_start,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score',
          'gt-1,Grand Tournament,2025-06-07,a,Space Marines,72,b,Orks,55',
          'gt-1,,,c,Orks,60,d,Aeldari,60',
          'gt-1,,,a,Space Marines,,b,Orks,',
        ].join('\n'),
      );
      const report = await importSources(fresh, [path], { format: 'csv', system: 'w40k' });
      assert.deepEqual(report.newSystems, ['w40k']);
      // The last line has neither scores nor results: paired, not played yet, no reject.
      assert.equal(report.counts.games.imported, 3);
      assert.equal(report.counts.events.imported, 1);
      assert.deepEqual(report.rejects, []);
      const lines: string[] = [];
      printReport(report, (line) => lines.push(line));
      assert.ok(
        lines.includes('  new systems: w40k (no score rules: scores taken as given)'),
        lines.join('\n'),
      );
      const system = await fresh.db
        .selectFrom('systems')
        .selectAll()
        .where('id', '=', 'w40k')
        .executeTakeFirstOrThrow();
      assert.deepEqual([system.name, system.score_min, system.score_max], ['w40k', null, null]);

      const again = await importSources(fresh, [path], { format: 'csv', system: 'w40k' });
      assert.deepEqual(again.newSystems, []);
      assert.equal(again.counts.games.unchanged, 3);

      const completed = await importCanonical(fresh, {
        format: 'muster/v1',
        systems: [
          { id: 'w40k', name: 'Warhammer 40,000', score: { min: 0, max: 100, total: null } },
        ],
      });
      assert.deepEqual(completed.rejects, []);
      const updated = await fresh.db
        .selectFrom('systems')
        .selectAll()
        .where('id', '=', 'w40k')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [updated.name, Number(updated.score_min), Number(updated.score_max)],
        ['Warhammer 40,000', 0, 100],
      );
    } finally {
      await fresh.close();
    }
  });
});
