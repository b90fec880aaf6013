/**
 * Names that almost match (docs/import-formats.md#names-that-almost-match): an unknown faction
 * one edit away from a known one is reported with "did you mean" in every format that names
 * factions, and --strict refuses it.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { nearKeys, withinOneEdit } from '../../src/ingest/near-names.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const T9A_SLICE = join(import.meta.dirname, '..', 'fixtures', 't9a', 'data');
const HEADER =
  'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score';

describe('one edit away', () => {
  it('counts one insertion, deletion, replacement or swap of neighbours, and nothing more', () => {
    assert.equal(withinOneEdit('ember orc', 'ember orcs'), true);
    assert.equal(withinOneEdit('ember orcs', 'ember orc'), true);
    assert.equal(withinOneEdit('vermin swarm', 'vermin swarn'), true);
    assert.equal(withinOneEdit('vermin swarm', 'vremin swarm'), true);
    assert.equal(withinOneEdit('vermin swarm', 'vermin swarm'), false);
    assert.equal(withinOneEdit('ember orcs', 'ember orcses'), false);
    assert.equal(withinOneEdit('vermin swarm', 'vremin swarn'), false);
  });

  it('suggests nothing for names shorter than four characters (army codes are one edit apart)', () => {
    assert.deepEqual(nearKeys('dh', ['bh', 'de']), []);
    assert.deepEqual(nearKeys('rats', ['rat', 'bats', 'rats2']), ['bats', 'rats2']);
  });
});

describe(`did you mean, in every format (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await openTestStore();
    dir = mkdtempSync(join(tmpdir(), 'muster-near-'));
    const doc = smallDocument();
    doc.factions!.push({ id: 'EO', system: 'tow', name: 'Ember Orcs' });
    const report = await importCanonical(store, { ...doc, events: [] });
    assert.deepEqual(report.rejects, []);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const factions = async () =>
    (await store.db.selectFrom('factions').select('id').where('system_id', '=', 'tow').execute())
      .map((f) => f.id)
      .sort();

  it('canonical: rejects the game with "did you mean" and the other games import', async () => {
    const doc = smallDocument();
    doc.events[0].id = 'near-canonical';
    doc.events[0].games = [
      {
        id: 'near-1',
        sides: [
          { player: 'p1', faction: 'Ember Orc', score: 12 },
          { player: 'p2', faction: 'HE', score: 8 },
        ],
      },
      {
        id: 'near-2',
        sides: [
          { player: 'p1', faction: 'Ratz', score: 12 },
          { player: 'p2', faction: 'HE', score: 8 },
        ],
      },
      {
        id: 'near-3',
        sides: [
          { player: 'p1', faction: 'EO', score: 12 },
          { player: 'p2', faction: 'HE', score: 8 },
        ],
      },
    ];
    const report = await importCanonical(store, doc);
    assert.deepEqual(
      report.rejects.map((r) => `${r.record} · ${r.field}: ${r.reason}`),
      [
        'game near-1 · /sides/0/faction: unknown faction "Ember Orc" in system "tow": did you mean "Ember Orcs"? declare it in factions[] or add an alias',
        'game near-2 · /sides/0/faction: unknown faction "Ratz" in system "tow": did you mean "Vermin Swarm" (as "rats")? declare it in factions[] or add an alias',
      ],
    );
    assert.equal(report.counts.games.imported, 1);
  });

  it('ndjson: the same reason, the line named', async () => {
    const doc = smallDocument();
    const line = JSON.stringify({
      format: 'muster/v1',
      events: [
        {
          ...doc.events[0],
          id: 'near-ndjson',
          games: [
            {
              id: 'near-nd-1',
              sides: [
                { player: 'p1', faction: 'Highborn Elvse', score: 12 },
                { player: 'p2', faction: 'DH', score: 8 },
              ],
            },
          ],
        },
      ],
    });
    const report = await importSources(store, ['-'], {
      format: 'ndjson',
      stdin: async () => `${line}\n`,
    });
    assert.deepEqual(
      report.rejects.map((r) => `${r.record}: ${r.reason}`),
      [
        'game near-nd-1: unknown faction "Highborn Elvse" in system "tow": did you mean "Highborn Elves"? declare it in factions[] or add an alias',
      ],
    );
  });

  it('csv: creates the faction as before but says "did you mean"; --strict refuses the sheet', async () => {
    const path = join(dir, 'near.csv');
    writeFileSync(
      path,
      [
        HEADER,
        'near-csv,Near Cup,2025-05-01,1,a,Ember Orc,13,b,HE,7',
        'near-csv,,2025-05-01,2,a,VS,10,b,DH,10',
      ].join('\n'),
    );
    const before = await factions();
    const version = await store.dataVersion();
    const strict = await importSources(store, [path], {
      format: 'csv',
      system: 'tow',
      strict: true,
    });
    assert.equal(strict.status, 'rejected');
    assert.deepEqual(
      strict.rejects.map((r) => `${r.record} · ${r.field}: ${r.reason}`),
      [
        'game csv:near-csv:r1:a|b · /sides/0/faction: unknown faction "Ember Orc" in system "tow": did you mean "Ember Orcs"? --strict refuses a new faction one edit away from a known one',
      ],
    );
    assert.deepEqual(await factions(), before, 'strict created nothing');
    assert.equal(await store.dataVersion(), version);

    const loose = await importSources(store, [path], { format: 'csv', system: 'tow' });
    assert.deepEqual(loose.rejects, []);
    assert.deepEqual(loose.newFactions, ['tow/Ember Orc']);
    assert.deepEqual(loose.notes, [
      'new faction "Ember Orc" in system "tow" is one edit away from "Ember Orcs": did you mean it? Fix the name and import again, or declare the faction; --strict refuses such a name',
    ]);
    assert.equal(loose.counts.games.imported, 2);
  });

  it('t9a: an army name one edit from a known one is rejected with "did you mean"', async () => {
    const fresh = await openTestStore();
    const copy = join(dir, 't9a');
    cpSync(T9A_SLICE, copy, { recursive: true });
    const tournament = join(copy, '674f70db608d175cc4aaf294');
    const file = join(tournament, 'report_67785f92c4ed6eaac0bca0e0.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...report, armyOne: 'Vermin Swarn' }));
    try {
      const result = await importSources(fresh, [tournament], { format: 't9a' });
      const near = result.rejects.filter((r) => /did you mean/.test(r.reason));
      assert.deepEqual(
        near.map((r) => `${r.source.split('/').pop()}: ${r.reason}`),
        [
          'report_67785f92c4ed6eaac0bca0e0.json: unknown faction "Vermin Swarn" in system "t9a": did you mean "Vermin Swarm"? declare it in factions[] or add an alias',
        ],
      );
    } finally {
      await fresh.close();
    }
  });
});
