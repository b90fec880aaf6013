/**
 * The snapshot loader's paged game reader (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * every game once, in key order, with exactly its sides, whatever the page size; and the next
 * page asked for while the caller works on the current one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Compilable } from 'kysely';
import { readGames } from '../../src/store/read-facts.ts';
import type { FactReader, GamePage } from '../../src/store/read-facts.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { sharedRandomStore } from '../snapshot/shared-random-store.ts';

/** A reader over `store` that records its games queries and can fail the nth of them. */
function recordingReader(store: FactReader, failGamesQuery = 0) {
  const games: string[] = [];
  const reader: FactReader = {
    db: store.db,
    async selectRows<R extends readonly unknown[]>(query: Compilable) {
      const { sql } = query.compile();
      if (/from "games"/.test(sql) && /limit/.test(sql)) {
        games.push(sql);
        if (games.length === failGamesQuery) throw new Error('the connection dropped');
      }
      return store.selectRows<R>(query);
    },
  };
  return { reader, gameQueries: () => games };
}

async function allPages(pages: AsyncIterable<GamePage>): Promise<GamePage[]> {
  const out: GamePage[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe(`the paged game reader (${TEST_BACKEND})`, () => {
  const fixture = sharedRandomStore({ seed: 20261127, gamesPerSystem: 150 });

  it('reads every game once in key order, each page with exactly its sides, at any page size', async () => {
    const ids = (
      await fixture.store.db.selectFrom('games').select('id').orderBy('id').execute()
    ).map((g) => g.id);
    assert.ok(ids.length > 200);
    for (const pageSize of [7, 100, ids.length, ids.length + 1]) {
      const pages = await allPages(readGames(fixture.store, pageSize));
      assert.deepEqual(
        pages.flatMap((p) => p.games.map((g) => g[0])),
        ids,
        `page size ${pageSize}`,
      );
      for (const page of pages) {
        const own = new Set(page.games.map((g) => g[0]));
        assert.ok(page.sides.length >= page.games.length);
        assert.ok(page.sides.every((s) => own.has(s[0])));
      }
    }
    const range = { after: ids[9], upTo: ids[30] };
    const ranged = await allPages(readGames(fixture.store, 4, range));
    assert.deepEqual(
      ranged.flatMap((p) => p.games.map((g) => g[0])),
      ids.slice(10, 31),
    );
  });

  it('carries the rare fields of each game and side as stored, null where unset', async () => {
    const { db } = fixture.store;
    const [game] = await db
      .selectFrom('games')
      .select('id')
      .orderBy('id')
      .offset(5)
      .limit(1)
      .execute();
    await db
      .updateTable('games')
      .set({ scenario: 'Breakthrough', secondaries: 'Hold;Raid' })
      .where('id', '=', game.id)
      .execute();
    await db
      .updateTable('sides')
      .set((eb) => ({ subfaction_id: eb.ref('faction_id'), secondary: 'Raid' }))
      .where('game_id', '=', game.id)
      .execute();
    const pages = await allPages(readGames(fixture.store, 9));
    const storedGames = await db
      .selectFrom('games')
      .select(['id', 'scenario', 'secondaries'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      pages.flatMap((p) => p.games.map((g) => [g[0], g[6], g[7]])),
      storedGames.map((g) => [g.id, g.scenario, g.secondaries]),
    );
    const storedSides = await db
      .selectFrom('sides')
      .select(['game_id', 'side', 'subfaction_id', 'secondary'])
      .orderBy('game_id')
      .orderBy('side')
      .execute();
    assert.deepEqual(
      pages.flatMap((p) => p.sides.map((s) => [s[0], Math.floor(s[4] / 81), s[6], s[7]])),
      storedSides.map((s) => [s.game_id, s.side, s.subfaction_id, s.secondary]),
    );
    assert.ok(storedSides.some((s) => s.subfaction_id !== null));
    assert.ok(storedSides.some((s) => s.secondary === null));
  });

  it('asks for the next page before the caller is done with this one', async () => {
    const { reader, gameQueries } = recordingReader(fixture.store);
    const pages = readGames(reader, 10);
    const first = await pages.next();
    assert.equal(first.done, false);
    // The caller holds the first page; the second is already on its way.
    assert.equal(gameQueries().length, 2);
    await pages.return(undefined);
  });

  it('hands a failed page read ahead to the caller on its next step, and never as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The caller stops after the first page while the second one fails.
      const stopped = recordingReader(fixture.store, 2);
      const early = readGames(stopped.reader, 10);
      assert.equal((await early.next()).done, false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await early.return(undefined);
      // The caller reads on: the failure is its next step's.
      const failing = recordingReader(fixture.store, 2);
      const pages = readGames(failing.reader, 10);
      assert.equal((await pages.next()).done, false);
      await assert.rejects(pages.next(), /the connection dropped/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
