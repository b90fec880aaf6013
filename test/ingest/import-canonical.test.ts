import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

async function tableCounts(store: TestStore): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    'events',
    'games',
    'sides',
    'players',
    'lists',
    'list_units',
    'list_options',
    'entries',
    'factions',
    'scenarios',
  ] as const) {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

describe(`canonical import (${TEST_BACKEND})`, () => {
  let store: TestStore;
  before(async () => {
    store = await openTestStore();
  });
  after(async () => {
    await store.close();
  });

  it('imports a valid document, resolving aliases case-insensitively and deriving results from scores', async () => {
    const report = await importCanonical(store, smallDocument());
    assert.equal(report.status, 'imported');
    assert.deepEqual(report.rejects, []);
    assert.deepEqual(report.counts.games, { imported: 3, updated: 0, unchanged: 0, rejected: 0 });
    assert.deepEqual(report.counts.events, { imported: 1, updated: 0, unchanged: 0, rejected: 0 });
    assert.equal(report.counts.lists.imported, 1);
    const sides = await store.db
      .selectFrom('sides')
      .selectAll()
      .orderBy('game_id')
      .orderBy('side')
      .execute();
    assert.deepEqual(
      sides.map((s) => [s.game_id, s.faction_id, s.result, s.player_id]),
      [
        ['g1', 'VS', 'win', 'p1'],
        ['g1', 'HE', 'loss', 'p2'],
        ['g2', 'HE', 'draw', 'p2'],
        ['g2', 'VS', 'draw', 'p3'],
        ['g3', 'DH', 'loss', null],
        ['g3', 'VS', 'win', 'p1'],
      ],
    );
    assert.equal(await store.dataVersion(), 1);
  });

  it('changes nothing when the same document is imported again', async () => {
    const before = await tableCounts(store);
    const version = await store.dataVersion();
    const report = await importCanonical(store, smallDocument());
    assert.deepEqual(report.counts.games, { imported: 0, updated: 0, unchanged: 3, rejected: 0 });
    assert.deepEqual(report.counts.events, { imported: 0, updated: 0, unchanged: 1, rejected: 0 });
    assert.deepEqual(report.counts.players, { imported: 0, updated: 0, unchanged: 3, rejected: 0 });
    assert.deepEqual(await tableCounts(store), before);
    assert.equal(await store.dataVersion(), version);
  });

  it('replaces a game whose content changed instead of duplicating it', async () => {
    const doc = smallDocument();
    doc.events[0].games![0].sides[0].score = 12;
    doc.events[0].games![0].sides[1].score = 8;
    const report = await importCanonical(store, doc);
    assert.deepEqual(report.counts.games, { imported: 0, updated: 1, unchanged: 2, rejected: 0 });
    const rows = await store.db
      .selectFrom('sides')
      .select(['score'])
      .where('game_id', '=', 'g1')
      .orderBy('side')
      .execute();
    assert.deepEqual(
      rows.map((r) => Number(r.score)),
      [12, 8],
    );
    assert.equal((await tableCounts(store)).games, 3);
  });
});

describe(`canonical import rejects bad records precisely (${TEST_BACKEND})`, () => {
  let store: TestStore;
  before(async () => {
    store = await openTestStore();
  });
  after(async () => {
    await store.close();
  });

  it('rejects only the bad games and keeps the rest, with field and reason', async () => {
    const doc = smallDocument();
    const games = doc.events[0].games!;
    games.push(
      {
        id: 'bad-same-player',
        sides: [
          { player: 'p1', faction: 'VS', score: 12 },
          { player: 'p1', faction: 'HE', score: 8 },
        ],
      },
      {
        id: 'bad-faction',
        sides: [
          { player: 'p1', faction: 'Lizards', score: 12 },
          { player: 'p2', faction: 'HE', score: 8 },
        ],
      },
      {
        id: 'bad-scale',
        sides: [
          { player: 'p1', faction: 'VS', score: 2081 },
          { player: 'p2', faction: 'HE', score: 3150 },
        ],
      },
      {
        id: 'bad-sum',
        sides: [
          { player: 'p1', faction: 'VS', score: 0 },
          { player: 'p2', faction: 'HE', score: 0 },
        ],
      },
      {
        id: 'bad-results',
        sides: [
          { player: 'p1', faction: 'VS', result: 'win' },
          { player: 'p2', faction: 'HE', result: 'draw' },
        ],
      },
      // Wrong type and an unknown field: structure errors carry their JSON pointers.
      {
        id: 'bad-type',
        round: 'two',
        sides: [
          { player: 'p1', faction: 'VS', score: 12, colour: 'red' },
          { player: 'p2', faction: 'HE', score: 8 },
        ],
      } as never,
      {
        id: 'bad-missing',
        sides: [
          { player: 'p1', score: 12 },
          { player: 'p2', faction: 'HE', score: 8 },
        ],
      } as never,
      {
        id: 'g1',
        sides: [
          { player: 'p2', faction: 'VS', score: 12 },
          { player: 'p3', faction: 'HE', score: 8 },
        ],
      },
    );
    const report = await importCanonical(store, doc, { source: 'bad.json' });
    const byRecord = new Map(report.rejects.map((r) => [r.record, r]));
    assert.match(
      byRecord.get('game bad-same-player')!.reason,
      /both sides are the same player "p1"/,
    );
    assert.equal(byRecord.get('game bad-same-player')!.field, '/sides/1/player');
    assert.match(
      byRecord.get('game bad-faction')!.reason,
      /unknown faction "Lizards" in system "tow"/,
    );
    assert.match(
      byRecord.get('game bad-scale')!.reason,
      /score 2081 is outside the tow scale 0\.\.20/,
    );
    assert.match(byRecord.get('game bad-sum')!.reason, /do not sum to 20/);
    assert.match(byRecord.get('game bad-results')!.reason, /win\/draw do not pair/);
    // Each rejection reads once: the field is the first error's place, the reason says what is
    // wrong there (without repeating the place), then any other errors with their own places.
    const typeReject = byRecord.get('game bad-type')!;
    assert.equal(typeReject.field, '/round');
    assert.equal(
      `${typeReject.field}: ${typeReject.reason}`,
      '/round: must be an integer or a null; /sides/0/colour: unknown field "colour"',
    );
    const missing = byRecord.get('game bad-missing')!;
    assert.equal(missing.field, '/sides/0/faction');
    assert.equal(missing.reason, 'required field "faction" is missing');
    // g1 twice in one batch: every copy is rejected, none guessed at.
    assert.equal(
      report.rejects.filter((r) => r.reason.includes('"g1" appears more than once')).length,
      2,
    );
    assert.equal(report.counts.games.imported, 2);
    assert.equal(report.counts.games.rejected, 9);
    assert.ok(report.rejects.every((r) => r.source === 'bad.json'));
    const stored = await store.db
      .selectFrom('rejects')
      .selectAll()
      .where('import_id', '=', report.importId)
      .execute();
    assert.equal(stored.length, report.rejects.length);
    const replay = JSON.parse(stored.find((r) => r.record === 'game bad-scale')!.payload!);
    assert.equal(replay.sides[0].score, 2081, 'the raw payload is kept for replay');
  });

  it('imports a side without a player id, which counts for everything but rankings', async () => {
    const rows = await store.db
      .selectFrom('sides')
      .select(['player_id'])
      .where('game_id', '=', 'g3')
      .orderBy('side')
      .execute();
    assert.deepEqual(
      rows.map((r) => r.player_id),
      [null, 'p1'],
    );
  });

  it('rejects an event with an impossible date and an unknown system, taking its games with it', async () => {
    const doc = smallDocument();
    doc.events.push({ ...doc.events[0], id: 'ev-bad-date', start: '2025-02-30', games: [] });
    doc.events.push({ ...doc.events[0], id: 'ev-bad-system', system: 'nope', games: [] });
    doc.events[0] = { ...doc.events[0], games: [] };
    const report = await importCanonical(store, doc);
    const reasons = report.rejects.map((r) => `${r.record}: ${r.field}: ${r.reason}`);
    assert.ok(
      reasons.some((r) => /ev-bad-date.*\/start: "2025-02-30" is not a calendar date/.test(r)),
      reasons.join('\n'),
    );
    assert.ok(
      reasons.some((r) => /ev-bad-system.*\/system: unknown system "nope"/.test(r)),
      reasons.join('\n'),
    );
    assert.equal(report.counts.events.rejected, 2);
  });

  it('rejects a document with unknown top-level fields or the wrong format as one file reject', async () => {
    const report = await importCanonical(store, { format: 'muster/v2', events: [], extra: 1 });
    assert.equal(report.rejects.length, 1);
    assert.equal(report.rejects[0].kind, 'file');
    const [only] = report.rejects;
    assert.match(`${only.field}: ${only.reason}`, /unknown field "extra"/);
    assert.match(`${only.field}: ${only.reason}`, /\/format/);
    assert.ok(!only.reason.startsWith(`${only.field}:`), 'the place is named once');
  });

  it('with strict, refuses the whole batch when one record is bad and writes nothing but the rejects', async () => {
    const fresh = await openTestStore();
    try {
      const doc = smallDocument();
      doc.events[0].games!.push({
        id: 'bad',
        sides: [
          { player: 'p1', faction: 'Nope', score: 10 },
          { player: 'p2', faction: 'HE', score: 10 },
        ],
      });
      const report = await importCanonical(fresh, doc, { strict: true });
      assert.equal(report.status, 'rejected');
      assert.equal(report.rejects.length, 1);
      assert.equal((await tableCounts(fresh)).games, 0);
      assert.equal((await tableCounts(fresh)).events, 0);
      assert.equal(await fresh.dataVersion(), 0);
      const kept = await fresh.db.selectFrom('rejects').selectAll().execute();
      assert.equal(kept.length, 1);
    } finally {
      await fresh.close();
    }
  });

  it('leaves the store as it was when the write fails mid-batch', async () => {
    const fresh = await openTestStore();
    try {
      await importCanonical(fresh, smallDocument());
      const before = await tableCounts(fresh);
      const version = await fresh.dataVersion();
      const doc = smallDocument();
      doc.events[0].games!.push({
        id: 'g-new',
        sides: [
          { player: 'p1', faction: 'VS', score: 11 },
          { player: 'p2', faction: 'HE', score: 9 },
        ],
      });
      doc.events[0].games![0].sides[0].score = 11;
      doc.events[0].games![0].sides[1].score = 9;
      // Inject the failure inside the store: a trigger aborts the insert of the new game's sides,
      // after the replaced game's old rows were deleted and the new game rows were written.
      if (fresh.dialect === 'sqlite') {
        await sql`create trigger inject_failure before insert on sides when new.game_id = 'g-new'
          begin select raise(abort, 'injected failure'); end`.execute(fresh.db);
      } else {
        await sql`create function inject_failure() returns trigger language plpgsql as $$
          begin if new.game_id = 'g-new' then raise exception 'injected failure'; end if; return new; end $$`.execute(
          fresh.db,
        );
        await sql`create trigger inject_failure before insert on sides for each row execute function inject_failure()`.execute(
          fresh.db,
        );
      }
      await assert.rejects(importCanonical(fresh, doc), /injected failure/);
      assert.deepEqual(await tableCounts(fresh), before);
      assert.equal(await fresh.dataVersion(), version);
      const scores = await fresh.db
        .selectFrom('sides')
        .select('score')
        .where('game_id', '=', 'g1')
        .orderBy('side')
        .execute();
      assert.deepEqual(
        scores.map((s) => Number(s.score)),
        [15, 5],
      );
      const last = await fresh.db
        .selectFrom('imports')
        .selectAll()
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal(last.status, 'failed');
    } finally {
      await fresh.close();
    }
  });
});
