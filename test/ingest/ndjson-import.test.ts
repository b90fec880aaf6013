/**
 * The streamed formats' bad input (docs/import-formats.md#ndjson): malformed NDJSON lines by line
 * number, truncated, empty and binary files, CSV read in several batches, and a kill -9 in the
 * middle of a streamed import leaving the data imported before it intact.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { importSources } from '../../src/ingest/import-sources.ts';
import { openMigratedStore } from '../../src/store/store.ts';
import type { Store } from '../../src/store/store.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const REPO = resolve(import.meta.dirname, '../..');

/** One NDJSON line holding one event of `games` games between p1 and p2 in system tow. */
function eventLine(id: string, games: number): string {
  return JSON.stringify({
    format: 'muster/v1',
    events: [
      {
        id,
        system: 'tow',
        name: `Event ${id}`,
        start: '2025-05-03',
        games: Array.from({ length: games }, (_, i) => ({
          id: `${id}-g${i}`,
          round: i + 1,
          sides: [
            { player: 'p1', faction: 'VS', score: 12 },
            { player: 'p2', faction: 'HE', score: 8 },
          ],
        })),
      },
    ],
  });
}

const REFERENCE_LINE = JSON.stringify({
  format: 'muster/v1',
  systems: smallDocument().systems,
  factions: smallDocument().factions,
});

describe(`streamed imports (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let dir: string;
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  before(async () => {
    store = await openTestStore();
    dir = mkdtempSync(join(tmpdir(), 'muster-ndjson-'));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports each malformed NDJSON line by its line number and imports the others', async () => {
    const path = file(
      'mixed.ndjson',
      [
        REFERENCE_LINE,
        '{"format": "muster/v1", "events": [',
        eventLine('nd-1', 3),
        '',
        'not json at all',
        JSON.stringify({ format: 'muster/v2' }),
        eventLine('nd-2', 2),
      ].join('\n'),
    );
    const report = await importSources(store, [path], { format: 'ndjson', batchGames: 2 });
    assert.deepEqual(
      report.rejects.map((r) => [r.record, r.field, r.reason.replace(/:.*/, '')]),
      [
        ['line 2', null, 'malformed JSON'],
        ['line 5', null, 'malformed JSON'],
        ['line 6', '/format', 'must be equal to constant'],
      ],
    );
    assert.equal(report.counts.games.imported, 5);
    assert.equal(report.counts.events.imported, 2);
  });

  it('rejects a truncated last line, an empty file and a binary file, each once', async () => {
    const whole = [REFERENCE_LINE, eventLine('tr-1', 2), eventLine('tr-2', 2)].join('\n');
    const truncated = file('truncated.ndjson', whole.slice(0, whole.length - 40));
    const empty = file('empty.ndjson', '\n  \n');
    const binary = file('binary.ndjson', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x41]));
    const report = await importSources(store, [truncated, empty, binary], { format: 'ndjson' });
    const bySource = report.rejects.map((r) => [r.source.split('/').pop(), r.record, r.reason]);
    assert.equal(bySource.length, 3, JSON.stringify(bySource));
    assert.match(String(bySource[0][2]), /^malformed JSON/);
    assert.deepEqual(bySource[0].slice(0, 2), ['truncated.ndjson', 'line 3']);
    assert.deepEqual(bySource[1], ['empty.ndjson', null, 'the file is empty']);
    assert.deepEqual(bySource[2].slice(0, 2), ['binary.ndjson', null]);
    assert.match(String(bySource[2][2]), /binary content/);
    assert.equal(report.counts.games.imported, 2, 'the complete lines import');
  });

  it('with strict, stops at the first batch with a reject and keeps the batches before it', async () => {
    const bad = JSON.parse(eventLine('st-2', 2));
    bad.events[0].games[1].sides[0].faction = 'Nope';
    const path = file(
      'strict.ndjson',
      [REFERENCE_LINE, eventLine('st-1', 2), JSON.stringify(bad), eventLine('st-3', 2)].join('\n'),
    );
    const report = await importSources(store, [path], {
      format: 'ndjson',
      strict: true,
      batchGames: 2,
    });
    assert.equal(report.status, 'rejected');
    assert.deepEqual(
      report.rejects.map((r) => r.record),
      ['game st-2-g1'],
    );
    const ids = await store.db
      .selectFrom('games')
      .select('id')
      .where('id', 'like', 'st-%')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      ids.map((g) => g.id),
      ['st-1-g0', 'st-1-g1'],
    );
  });

  it('imports a system without score rules beside one with them, line by line', async () => {
    const path = file(
      'systems.ndjson',
      [
        JSON.stringify({
          format: 'muster/v1',
          systems: [{ id: 'free', name: 'Free Scores' }],
          factions: [
            { id: 'X', system: 'free', name: 'Ex' },
            { id: 'Y', system: 'free', name: 'Why' },
          ],
        }),
        JSON.stringify({
          format: 'muster/v1',
          events: [
            {
              id: 'free-1',
              system: 'free',
              name: 'Free',
              start: '2025-01-04',
              games: [
                {
                  id: 'free-g1',
                  sides: [
                    { faction: 'X', score: 4410 },
                    { faction: 'Y', score: 1200 },
                  ],
                },
              ],
            },
            {
              id: 'ruled-1',
              system: 'tow',
              name: 'Ruled',
              start: '2025-01-04',
              games: [
                {
                  id: 'ruled-g1',
                  sides: [
                    { faction: 'VS', score: 4410 },
                    { faction: 'HE', score: 0 },
                  ],
                },
              ],
            },
          ],
        }),
      ].join('\n'),
    );
    const report = await importSources(store, [path], { format: 'ndjson' });
    assert.deepEqual(
      report.rejects.map((r) => [r.record, r.field, r.reason]),
      [['game ruled-g1', '/sides/0/score', 'score 4410 is outside the tow scale 0..20']],
    );
    assert.equal(report.counts.games.imported, 1);
  });

  it('streams a CSV sheet in several batches, checking later rows against an event first seen in an earlier batch', async () => {
    const rows = [
      'event_id,event_name,event_start,round,p1_id,p1_faction,p1_score,p2_id,p2_faction,p2_score',
    ];
    for (let r = 1; r <= 7; r++)
      rows.push(`big-1,${r === 1 ? 'Big' : ''},2025-02-01,${r},a,VS,${r},b,HE,${20 - r}`);
    rows.push('big-1,Other Name,2025-02-01,8,a,VS,10,b,HE,10');
    const report = await importSources(store, [file('big.csv', rows.join('\n'))], {
      format: 'csv',
      system: 'tow',
      batchGames: 3,
    });
    assert.deepEqual(
      report.rejects.map((r) => [r.record, r.field]),
      [['line 9', 'event_name']],
    );
    assert.equal(report.counts.games.imported, 7);
    const binary = await importSources(store, [file('binary.csv', Buffer.from([0, 1, 2, 3]))], {
      format: 'csv',
      system: 'tow',
    });
    assert.match(binary.rejects[0].reason, /binary content/);
  });

  it('leaves the data imported before intact when a streamed import is killed with -9', async (t) => {
    // The child process needs a store it can open by URL: a file for SQLite, the schema for PostgreSQL.
    let victim: Store;
    let url: string;
    if (TEST_BACKEND === 'sqlite') {
      url = join(dir, 'kill.db');
      victim = await openMigratedStore(url);
    } else {
      victim = await openTestStore();
      url = (victim as TestStore).url;
    }
    try {
      await importCanonical(victim, smallDocument());
      const before = await victim.db
        .selectFrom('games')
        .select(['id', 'content_hash'])
        .orderBy('id')
        .execute();
      const lines = [REFERENCE_LINE];
      for (let e = 0; e < 400; e++) lines.push(eventLine(`kill-${e}`, 50));
      const path = file('kill.ndjson', lines.join('\n'));
      const child = spawn(
        process.execPath,
        [
          join(REPO, 'bin/muster.js'),
          'import',
          '--format',
          'ndjson',
          '--batch-games',
          '1000',
          path,
        ],
        { env: { ...process.env, MUSTER_DATABASE_URL: url }, stdio: 'ignore' },
      );
      const exited = new Promise((done) => child.once('exit', done));
      // Wait for a first batch to land, then kill the process in the middle of the rest.
      const deadline = Date.now() + 120_000;
      let games = before.length;
      while (games === before.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        games = Number(
          (
            await victim.db
              .selectFrom('games')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      }
      child.kill('SIGKILL');
      await exited;
      if (games === before.length)
        return t.skip('the child process wrote nothing within two minutes');
      const afterRows = await victim.db
        .selectFrom('games')
        .select(['id', 'content_hash'])
        .where('id', 'not like', 'kill-%')
        .orderBy('id')
        .execute();
      assert.deepEqual(afterRows, before, 'the games imported before are untouched');
      const killed = Number(
        (
          await victim.db
            .selectFrom('games')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('id', 'like', 'kill-%')
            .executeTakeFirstOrThrow()
        ).n,
      );
      assert.ok(killed < 20_000, 'the import was stopped before its end');
      assert.equal(killed % 1000, 0, `only whole batches landed (${killed} games)`);
      // The store still works: the same import run again completes it.
      const again = await importSources(victim, [path], { format: 'ndjson' });
      assert.equal(again.counts.games.imported + again.counts.games.unchanged, 20_000);
    } finally {
      await victim.close();
    }
  });
});
