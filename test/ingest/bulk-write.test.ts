/**
 * The import's fast write path (docs/operations.md#import-throughput): a batch's rows are kept
 * as flat values and written by multi-row statements of up to 16,000 parameters, prepared once
 * and reused. A batch larger than one statement, and a second import whose last statement is
 * shorter, must store every game, side, list, unit and option exactly as given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { exportStore } from '../../src/cli/export-store.ts';
import { cleanName } from '../../src/domain/normalize-name.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const REFERENCE_LINE = JSON.stringify({
  format: 'muster/v1',
  systems: smallDocument().systems,
  factions: smallDocument().factions,
});

/** A game whose every column tells its game and side apart, with a list on each side. */
function game(eventId: string, g: number) {
  const side = (s: number) => ({
    player: `p${(g * 2 + s) % 97}`,
    faction: s === 0 ? 'VS' : 'HE',
    score: s === 0 ? g % 21 : 20 - (g % 21),
    firstTurn: s === 0,
    list: {
      points: 1000 + g,
      units: Array.from({ length: 1 + (g % 3) }, (_, u) => ({
        name: `Unit ${g}.${s}.${u}`,
        category: u === 0 ? 'Characters' : 'Core',
        cost: 100 + u,
        options: Array.from({ length: u }, (_, o) => ({ name: `Opt ${o}`, type: 'equipment' })),
      })),
    },
  });
  return { id: `${eventId}-g${g}`, round: 1 + (g % 5), table: 1 + g, sides: [side(0), side(1)] };
}

function eventLine(id: string, games: number): string {
  return JSON.stringify({
    format: 'muster/v1',
    events: [
      {
        id,
        system: 'tow',
        name: `Event ${id}`,
        start: '2025-05-03',
        games: Array.from({ length: games }, (_, g) => game(id, g)),
      },
    ],
  });
}

/** The games of the store's export, by id, as the canonical document gives them. */
async function exportedGames(store: TestStore): Promise<Map<string, unknown>> {
  const games = new Map<string, unknown>();
  await exportStore(store.db, (line) => {
    for (const e of JSON.parse(line).events ?? [])
      for (const g of e.games ?? []) games.set(g.id, g);
  });
  return games;
}

describe(`bulk writes of a batch (${TEST_BACKEND})`, () => {
  let store: TestStore;
  before(async () => {
    store = await openTestStore();
  });
  after(async () => {
    await store.close();
  });

  it('stores every side, list, unit and option of a batch larger than one insert statement as given', async () => {
    // 1,500 games: 3,000 sides (over two statements of 1,333), 3,000 lists, 6,000 units.
    const text = [REFERENCE_LINE, eventLine('big-1', 1500), eventLine('big-2', 7)].join('\n');
    const report = await importSources(store, ['-'], {
      format: 'ndjson',
      stdin: async () => text,
    });
    assert.equal(report.counts.games.imported, 1507);
    assert.equal(report.counts.lists.imported, 3014);
    // A second import with another batch size: statements of other lengths, same rows.
    const again = await importSources(store, ['-'], {
      format: 'ndjson',
      stdin: async () => [REFERENCE_LINE, eventLine('big-3', 400)].join('\n'),
      batchGames: 150,
    });
    assert.equal(again.counts.games.imported, 400);

    const games = await exportedGames(store);
    assert.equal(games.size, 1907);
    for (const [eventId, count] of [
      ['big-1', 1500],
      ['big-2', 7],
      ['big-3', 400],
    ] as const) {
      for (const g of [0, 1, 2, 777 % count, count - 1]) {
        const given = game(eventId, g);
        const stored = games.get(given.id) as ReturnType<typeof game>;
        assert.equal(stored.round, given.round, given.id);
        assert.equal(stored.table, given.table, given.id);
        stored.sides.forEach((side, s) => {
          const want = given.sides[s];
          assert.equal(side.player, want.player);
          assert.equal(side.faction, want.faction);
          assert.equal(side.score, want.score);
          assert.equal(side.firstTurn, want.firstTurn);
          assert.equal(side.list.points, want.list.points);
          assert.deepEqual(
            side.list.units.map((u) => [u.name, u.category, u.cost, u.options.map((o) => o.name)]),
            want.list.units.map((u) => [u.name, u.category, u.cost, u.options.map((o) => o.name)]),
          );
        });
      }
    }
  });

  it('imports the same batch a second time as unchanged, writing nothing', async () => {
    const text = [REFERENCE_LINE, eventLine('big-1', 1500), eventLine('big-2', 7)].join('\n');
    const version = await store.dataVersion();
    const report = await importSources(store, ['-'], { format: 'ndjson', stdin: async () => text });
    assert.equal(report.counts.games.unchanged, 1507);
    assert.equal(report.counts.games.imported + report.counts.games.updated, 0);
    assert.equal(await store.dataVersion(), version);
  });
});

describe('clean names', () => {
  const reference = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ');

  it('cleans every name as NFKC with white space trimmed and folded, ASCII fast path or not', () => {
    for (const name of ['Vermin Swarm', ' vermin  swarm', 'ﬁre', 'A\tB', 'a\u00a0b', 'x ', '', ' '])
      assert.equal(cleanName(name), reference(name), JSON.stringify(name));
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'B', ' ', '\t', '\n', '~', 'é', 'ﬁ', '\u00a0', '1'),
        }),
        (name) => cleanName(name) === reference(name),
      ),
      { numRuns: 2000 },
    );
  });
});
