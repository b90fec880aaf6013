import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { post } from '../support/post-json.ts';
import type { Json } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Game {
  date: string;
  event: { id: string };
  round: number | null;
  opponent: { id: string; shortId: string };
  result: 'win' | 'draw' | 'loss';
  score: number | null;
  opponentScore: number | null;
  faction: { id: string } | null;
  ratingChange: number | null;
}

interface Ranked {
  player: { id: string };
  games: number;
}

/** Every page of a player's game list under `body`. */
async function allGames(t: TestApp, body: object): Promise<{ games: Game[]; json: Json }> {
  const games: Game[] = [];
  let json: Json | undefined;
  for (let page = 1; ; page += 1) {
    json = (await post(t, '/api/rankings', { ...body, pageSize: 1, gamesPage: page })).json;
    const list = json.data.player.games;
    games.push(...list.rows);
    if (page * list.pageSize >= list.total) break;
  }
  return { games, json: json! };
}

describe(`a player's games one by one (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let id: string;
  before(async () => {
    t = await buildTestApp({
      seed: generateDemo({ today: new Date().toISOString().slice(0, 10) }),
      shared: true,
    });
    // The busiest of the top hundred: more games than one page holds.
    const rows = (await post(t, '/api/rankings', { pageSize: 100 })).json.data.players;
    id = rows.reduce((a: Ranked, b: Ranked) => (b.games > a.games ? b : a)).player.id;
  });
  after(async () => t.close());

  it('lists every rated game of the player, latest first, with the record the row counts', async () => {
    const { games, json } = await allGames(t, { player: id });
    const row = json.data.player.row;
    assert.equal(json.data.player.games.total, row.games);
    assert.equal(games.length, row.games);
    assert.ok(json.data.player.games.total > json.data.player.games.pageSize, 'more than a page');
    for (let i = 1; i < games.length; i += 1) assert.ok(games[i].date <= games[i - 1].date);
    assert.equal(games.filter((g) => g.result === 'win').length, row.wins);
    assert.equal(games.filter((g) => g.result === 'draw').length, row.draws);
    assert.equal(games.filter((g) => g.result === 'loss').length, row.losses);
    for (const g of games) {
      assert.notEqual(g.opponent.id, id);
      assert.ok(g.opponent.shortId.length >= 6);
      if (g.score !== null && g.opponentScore !== null && g.result === 'win') {
        assert.ok(
          g.score >= g.opponentScore,
          `${g.event.id}: a win at ${g.score}-${g.opponentScore}`,
        );
      }
    }
    assert.equal(json.meta.filter.gamesPage, json.data.player.games.page);
  });

  it("adds the Glicko-2 games' shares up to the rating's change from its start", async () => {
    const { games, json } = await allGames(t, { player: id });
    const total = games.reduce((s, g) => s + g.ratingChange!, 0);
    const initial = json.meta.filter.glicko2.initialRating;
    assert.ok(Math.abs(total - (json.data.player.row.rating - initial)) < 1e-6, String(total));
    assert.ok(games.some((g) => g.result === 'win' && g.ratingChange! > 0));
    assert.ok(games.every((g) => g.result !== 'loss' || g.ratingChange! < 0));
  });

  it("adds Elo's game changes up to the rating's change from its start", async () => {
    const { games, json } = await allGames(t, { player: id, method: 'elo' });
    const total = games.reduce((s, g) => s + g.ratingChange!, 0);
    const initial = json.meta.filter.elo.initial;
    assert.ok(Math.abs(total - (json.data.player.row.rating - initial)) < 1e-6, String(total));
  });

  it('gives no change per game for points, scored per event', async () => {
    const { json } = await post(t, '/api/rankings', { player: id, method: 'points', pageSize: 1 });
    const rows: Game[] = json.data.player.games.rows;
    assert.ok(rows.length > 0);
    assert.ok(rows.every((g) => g.ratingChange === null));
  });

  it('answers a page past the end empty, and refuses a page 0 with 400', async () => {
    const far = await post(t, '/api/rankings', { player: id, gamesPage: 100000, pageSize: 1 });
    assert.equal(far.status, 200);
    assert.deepEqual(far.json.data.player.games.rows, []);
    const zero = await post(t, '/api/rankings', { player: id, gamesPage: 0 });
    assert.equal(zero.status, 400);
  });
});
