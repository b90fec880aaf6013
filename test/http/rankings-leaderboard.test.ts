import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Row {
  rank: number | null;
  player: { id: string };
  rating: number;
  rd: number | null;
  conservativeRating: number | null;
  provisional: boolean;
  games: number;
  wins: number;
  draws: number;
  losses: number;
}
interface HistoryRow {
  date: string;
  event: { id: string };
  rating: number;
  rd: number | null;
  games: number;
  placement: number | null;
  participants: number | null;
}

function close(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= 1e-9, `${what}: expected ${expected}, got ${actual}`);
}

describe(`leaderboards on the whole demo data (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let top: Row[];
  before(async () => {
    t = await buildTestApp({
      seed: generateDemo({ today: new Date().toISOString().slice(0, 10) }),
      shared: true,
    });
    top = (await post(t, '/api/rankings', { pageSize: 10 })).json.data.players;
  });
  after(async () => t.close());

  it('puts no provisional player in the default Glicko-2 top 10, each with a dozen rated games', () => {
    assert.equal(top.length, 10);
    for (const row of top) {
      assert.equal(row.provisional, false, row.player.id);
      assert.ok(row.rd! <= 110, `${row.player.id}: RD ${row.rd}`);
      assert.ok(row.games >= 12, `${row.player.id}: ${row.games} games`);
    }
    for (let i = 1; i < top.length; i += 1) {
      assert.ok(top[i].conservativeRating! <= top[i - 1].conservativeRating!);
    }
  });

  it('brings provisional players back, flagged, with includeProvisional', async () => {
    const { json } = await post(t, '/api/rankings', { includeProvisional: true, sort: 'rating' });
    assert.ok(json.data.total > (await post(t, '/api/rankings', {})).json.data.total);
    assert.ok(json.data.players.some((r: Row) => r.provisional));
    assert.equal(json.meta.filter.sort, 'rating');
    assert.equal(json.meta.filter.includeProvisional, true);
  });

  it("answers a player's page: history, factions and placements", async () => {
    const id = top[0].player.id;
    const { status, json } = await post(t, '/api/rankings', { player: id });
    assert.equal(status, 200);
    const page = json.data.player;
    assert.equal(page.player.id, id);
    assert.equal(page.row.rank, 1);
    assert.ok(page.history.length > 0);
    const games = page.history.reduce((n: number, h: HistoryRow) => n + h.games, 0);
    assert.equal(games, page.row.games);
    const factionGames = page.factions.reduce((n: number, f: { games: number }) => n + f.games, 0);
    assert.equal(factionGames, page.row.games);
    const last = page.history.at(-1);
    close(last.rating, page.row.rating, 'the last history point is the current rating');
    assert.ok(page.bestPlacement.placement >= 1);
    assert.equal(page.latestPlacement.date, last.date);
  });

  it('places the player in each event of their history, as their best and latest placements say', async () => {
    const id = top[2].player.id;
    const page = (await post(t, '/api/rankings', { player: id })).json.data.player;
    const placed = page.history.filter((h: HistoryRow) => h.placement !== null);
    assert.ok(placed.length > 0);
    for (const h of placed) {
      assert.ok(h.placement! >= 1);
      if (h.participants !== null) assert.ok(h.placement! <= h.participants, h.event.id);
    }
    const best = Math.min(...placed.map((h: HistoryRow) => h.placement!));
    assert.equal(best, page.bestPlacement.placement);
    const latest = page.history.find(
      (h: HistoryRow) => h.event.id === page.latestPlacement.event.id,
    );
    assert.equal(latest.placement, page.latestPlacement.placement);
  });

  it("gives a provisional player's page no rank (null, not 0) when the leaderboard leaves them out", async () => {
    const all = (await post(t, '/api/rankings', { includeProvisional: true, pageSize: 200 })).json
      .data.players as Row[];
    const provisional = all.find((r) => r.provisional);
    assert.ok(provisional, 'the demo data has a provisional player');
    const page = (await post(t, '/api/rankings', { player: provisional.player.id })).json.data
      .player;
    assert.equal(page.row.provisional, true);
    assert.strictEqual(page.row.rank, null);
    const kept = (await post(t, '/api/rankings', { player: top[0].player.id })).json.data.player;
    assert.equal(kept.row.rank, 1);
  });

  for (const method of ['glicko2', 'elo'] as const) {
    it(`gives in a player's history the ratings of the leaderboard cut off at each event (${method})`, async () => {
      const id = top[1].player.id;
      const base = { method, player: id, includeProvisional: true };
      const history: HistoryRow[] = (await post(t, '/api/rankings', base)).json.data.player.history;
      assert.ok(history.length >= 3);
      for (const [i, h] of history.entries()) {
        const cut = i % 2 === 0 ? { to: h.date } : { asOf: h.date };
        const row = (await post(t, '/api/rankings', { ...base, ...cut })).json.data.player.row;
        close(row.rating, h.rating, `${h.date} rating`);
        if (method === 'glicko2') close(row.rd, h.rd!, `${h.date} RD`);
      }
    });
  }

  it('answers 404 naming an unknown player', async () => {
    for (const body of [
      { player: 'no-such-player' },
      { versus: [top[0].player.id, 'no-such-player'] },
    ]) {
      const { status, json } = await post(t, '/api/rankings', body);
      assert.equal(status, 404);
      assert.match(String(json.type), /not-found/);
      assert.match(String(json.detail), /no-such-player/);
    }
  });

  it('forecasts head to head from the current ratings, with past games', async () => {
    const snapshot = t.snapshots.current()!;
    // Two top players who met: the first game between any two of the top ten.
    const ids = new Set(top.map((r) => r.player.id));
    let pair: [string, string] | null = null;
    for (let g = 0; g < snapshot.games && pair === null; g += 1) {
      const a = snapshot.players[snapshot.player[2 * g]];
      const b = snapshot.players[snapshot.player[2 * g + 1]];
      if (ids.has(a) && ids.has(b) && a !== b) pair = [a, b];
    }
    assert.ok(pair !== null, 'no two top players met');
    for (const method of ['glicko2', 'elo'] as const) {
      const { json } = await post(t, '/api/rankings', { method, versus: pair });
      const versus = json.data.versus;
      assert.ok(versus.expectedScore > 0 && versus.expectedScore < 1);
      assert.ok(versus.games.length >= 1);
      assert.equal(versus.record.games, versus.games.length);
      assert.equal(
        versus.record.games,
        versus.record.wins + versus.record.draws + versus.record.losses,
      );
      const back: { record: { wins: number }; expectedScore: number } = (
        await post(t, '/api/rankings', { method, versus: [pair[1], pair[0]] })
      ).json.data.versus;
      assert.equal(back.record.wins, versus.record.losses);
      if (method === 'elo') close(versus.expectedScore + back.expectedScore, 1, 'Elo is symmetric');
    }
  });

  it('reports in meta how well each method predicted the games, beside a coin flip', async () => {
    for (const method of ['glicko2', 'elo'] as const) {
      const q = (await post(t, '/api/rankings', { method })).json.meta.predictionQuality;
      assert.ok(q.games > 1000);
      assert.ok(q.brier < q.coinFlip.brier, `${method} Brier ${q.brier}`);
      assert.ok(q.accuracy > q.coinFlip.accuracy, `${method} accuracy ${q.accuracy}`);
      assert.ok(Number.isFinite(q.logLoss));
    }
    assert.equal(
      (await post(t, '/api/rankings', { method: 'points' })).json.meta.predictionQuality,
      null,
    );
  });

  it('rates as of a date: with months, a later asOf only widens deviations', async () => {
    const month = { glicko2: { period: 'month' }, includeProvisional: true, sort: 'rating' };
    const to = '2025-06-30';
    const cut = (await post(t, '/api/rankings', { ...month, to, pageSize: 5 })).json.data.players;
    for (const row of cut) {
      const later = (
        await post(t, '/api/rankings', { ...month, to, asOf: '2025-12-31', player: row.player.id })
      ).json.data.player.row;
      close(later.rating, row.rating, 'rating');
      assert.ok(later.rd > row.rd, `${row.player.id}: RD ${later.rd} not above ${row.rd}`);
    }
    const bad = await post(t, '/api/rankings', { asOf: '2025-02-30' });
    assert.equal(bad.status, 400);
  });
});
