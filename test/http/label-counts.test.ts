/**
 * Every "N lists" and "N games" the dashboard shows counts what its label says, checked
 * against the store itself (docs/statistics.md#item-use-stats): Meta's games are the store's
 * games, Lists' "N lists in scope" the store's distinct lists, its list-games the store's game
 * sides with a list, and an item's side-games never more than its list-games.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/**
 * Each game side with the list it played: its own, else its player's entry's at the event
 * (docs/data-model.md#lists).
 */
const SIDE_LISTS = sql`(select s.faction_id as faction_id, coalesce(s.list_id, e.list_id) as list_id
  from sides s join games g on g.id = s.game_id
  left join entries e on e.event_id = g.event_id and e.player_id = s.player_id) as sl`;

/** One number from the store. */
async function count(t: TestApp, query: ReturnType<typeof sql<{ n: number | string }>>) {
  const { rows } = await query.execute(t.store.db);
  return Number(rows[0].n);
}

describe(`labels count what they say, against the store (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice' });
  });
  after(async () => t.close());

  it("gives Meta's games as the store's games", async () => {
    const { json } = await post(t, '/api/faction-stats', {});
    const games = await count(t, sql<{ n: number }>`select count(*) as n from games`);
    assert.ok(games > 0);
    assert.equal(json.data.summary.games, games);
    assert.equal(json.meta.sample.games, games);
  });

  it('gives the lists in scope as the store holds them, and the list-games beside them', async () => {
    const { json } = await post(t, '/api/item-use-stats', { minLists: 1 });
    const lists = await count(
      t,
      sql<{
        n: number;
      }>`select count(distinct list_id) as n from ${SIDE_LISTS} where list_id is not null`,
    );
    const listGames = await count(
      t,
      sql<{ n: number }>`select count(*) as n from ${SIDE_LISTS} where list_id is not null`,
    );
    assert.ok(lists > 0 && listGames > lists, `${lists} lists in ${listGames} list-games`);
    assert.equal(json.data.distinctLists, lists);
    assert.equal(json.data.lists, listGames);
    for (const item of json.data.items) {
      assert.ok(item.games <= item.lists, `${item.item.name}: ${item.games} > ${item.lists}`);
    }
  });

  it("counts a faction's lists alone when one is selected", async () => {
    const { json: all } = await post(t, '/api/item-use-stats', { minLists: 1 });
    const { json: stats } = await post(t, '/api/faction-stats', {});
    const faction = stats.data.factions[0].faction.id;
    const { json } = await post(t, '/api/item-use-stats', { minLists: 1, factions: [faction] });
    const lists = await count(
      t,
      sql<{
        n: number;
      }>`select count(distinct list_id) as n from ${SIDE_LISTS} where list_id is not null and faction_id = ${faction}`,
    );
    assert.equal(json.data.distinctLists, lists);
    assert.ok(json.data.distinctLists < all.data.distinctLists);
  });
});
