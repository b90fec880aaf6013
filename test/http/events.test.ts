/**
 * POST /api/events (docs/statistics.md#events): the event list and one event's page, on the
 * demo slice and the committed T9A slice, on every store backend.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { post } from '../support/post-json.ts';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

interface Ref {
  player: { id: string };
  faction: { id: string } | null;
}
interface Row {
  id: string;
  date: string;
  format: 'singles' | 'teams';
  placements: 'published' | 'derived' | 'none';
  placementRule: string | null;
  entries: number;
  players: number;
  games: number;
  winners: Ref[];
  undefeated: Ref[];
  playerPlacement?: number | null;
}
interface Standing extends Ref {
  placement: number | null;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  undefeated: boolean;
}
interface Side {
  player: { id: string } | null;
  faction: { id: string };
  result: 'win' | 'draw' | 'loss';
  list: { name: string; picks: number }[] | null;
}
interface Round {
  round: number | null;
  games: { sides: Side[] }[];
}

const SEEDS = [
  { seed: 'demo-slice' as const, skip: false },
  { seed: 't9a' as const, skip: t9aSeedPaths() === null },
];

for (const { seed, skip } of SEEDS) {
  describe(`the events route on ${seed} (${TEST_BACKEND})`, { skip }, () => {
    let t: TestApp;
    let all: Row[];
    before(async () => {
      t = await buildTestApp({ seed, shared: true });
      const { status, json } = await post(t, '/api/events', { pageSize: 200 });
      assert.equal(status, 200);
      all = json.data.events;
      assert.ok(json.data.total > 0 && json.data.total <= 200, `${json.data.total} events`);
      assert.equal(all.length, json.data.total);
    });
    after(async () => t.close());

    it('lists events newest first, each with its entries, games and winners', () => {
      for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].date >= all[i].date);
      for (const row of all) {
        assert.ok(row.entries > 0, row.id);
        if (row.placements === 'none') assert.deepEqual(row.winners, [], `${row.id} unplaced`);
        else assert.ok(row.winners.length >= 1, `${row.id} has a winner`);
      }
    });

    it('places no player of a team event, and says a derived placing comes with its rule', async () => {
      const teams = all.filter((r) => r.format === 'teams');
      if (seed === 't9a') assert.ok(teams.length > 0, 'the T9A slice has a team event');
      for (const row of all) {
        if (row.format === 'teams') assert.equal(row.placements, 'none', row.id);
        assert.equal(row.placementRule !== null, row.placements === 'derived', row.id);
      }
      if (teams.length === 0) return;
      const page = (await post(t, '/api/events', { event: teams[0].id, pageSize: 1 })).json.data
        .event;
      assert.equal(page.event.placements, 'none');
      assert.ok(page.standings.length > 0);
      for (const s of page.standings as Standing[]) assert.equal(s.placement, null);
      // T9A's team events name no teams: the page has none to show.
      if (seed === 't9a') assert.equal(page.teams, null);
    });

    it("answers an event's page whose standings and rounds agree with its row", async () => {
      const row = all.find((r) => r.games > 0)!;
      const { status, json } = await post(t, '/api/events', { event: row.id, pageSize: 1 });
      assert.equal(status, 200);
      const page = json.data.event as {
        event: { id: string };
        standings: Standing[];
        rounds: Round[];
      };
      assert.equal(page.event.id, row.id);
      assert.equal(page.standings.length, row.entries);
      const first = page.standings.filter((s) => s.placement === 1).map((s) => s.player.id);
      assert.deepEqual(
        first,
        row.winners.map((w) => w.player.id),
      );
      const games = page.rounds.reduce((n, r) => n + r.games.length, 0);
      assert.equal(games, row.games);
      const played = page.standings.reduce((n, s) => n + s.wins + s.draws + s.losses, 0);
      const knownSides = page.rounds
        .flatMap((r) => r.games.flatMap((g) => g.sides))
        .filter((s) => s.player !== null).length;
      assert.equal(played, knownSides, 'every known side is one result of one standings entry');
      for (const s of page.standings) assert.equal(s.games, s.wins + s.draws + s.losses);
      const players = new Set(
        page.rounds.flatMap((r) => r.games.flatMap((g) => g.sides.map((s) => s.player?.id))),
      );
      players.delete(undefined);
      assert.equal(row.players, players.size, 'players: those with a side in its games');
      const rounds = page.rounds.map((r) => r.round ?? Infinity);
      assert.deepEqual(
        rounds,
        [...rounds].sort((a, b) => a - b),
      );
    });

    it('pages by page and pageSize, a page past the end empty', async () => {
      const one = await post(t, '/api/events', { page: 2, pageSize: 1 });
      assert.equal(one.json.data.events[0].id, all[1]?.id);
      const past = await post(t, '/api/events', { page: 1_000_000, pageSize: 200 });
      assert.equal(past.status, 200);
      assert.deepEqual(past.json.data.events, []);
      assert.equal(past.json.data.total, all.length);
    });

    it("keeps a faction's event wins and undefeated runs", async () => {
      const won = all.find((r) => r.winners.some((w) => w.faction !== null))!;
      const faction = won.winners.find((w) => w.faction !== null)!.faction!.id;
      const { json } = await post(t, '/api/events', { faction, pageSize: 200 });
      assert.ok(json.data.events.some((r: Row) => r.id === won.id));
      for (const row of json.data.events as Row[]) {
        const refs = [...row.winners, ...row.undefeated];
        assert.ok(
          refs.some((r) => r.faction?.id === faction),
          `${row.id} has a ${faction} 1st or X-0`,
        );
      }
      assert.equal(json.meta.filter.faction, faction);
    });

    it("keeps a player's events with their placement", async () => {
      const won = all.find((r) => r.winners.length > 0)!;
      const player = won.winners[0].player.id;
      const { json } = await post(t, '/api/events', { player, pageSize: 200 });
      const rows = json.data.events as Row[];
      assert.equal(rows.find((r) => r.id === won.id)?.playerPlacement, 1);
      for (const row of rows.slice(0, 5)) {
        const page = (await post(t, '/api/events', { event: row.id, pageSize: 1 })).json.data.event;
        const mine = (page.standings as Standing[]).find((s) => s.player.id === player);
        assert.ok(mine !== undefined, `${player} stands in ${row.id}`);
        assert.equal(row.playerPlacement, mine.placement);
      }
    });

    it('answers an unknown event id or player id with a 404 problem naming it', async () => {
      for (const [field, pointer] of [
        ['event', '/event'],
        ['player', '/player'],
      ] as const) {
        const { status, json } = await post(t, '/api/events', { [field]: 'no-such-id' });
        assert.equal(status, 404);
        assert.equal(json.type, '/problems/not-found');
        assert.equal(json.errors?.[0].pointer, pointer);
        assert.match(String(json.detail), /no-such-id/);
      }
    });

    it('refuses an unknown faction and numbers out of bounds with a 400', async () => {
      const bad = [
        { faction: 'no-such-faction' },
        { page: 0 },
        { page: 1_000_001 },
        { pageSize: 0 },
        { pageSize: 201 },
        { minRounds: 1001 },
        { sort: 'rating' },
      ];
      for (const body of bad) {
        const { status, json } = await post(t, '/api/events', body);
        assert.equal(status, 400, JSON.stringify(body));
        assert.equal(json.type, '/problems/validation');
      }
      const unknown = await post(t, '/api/events', { faction: 'no-such-faction' });
      assert.equal(unknown.json.errors?.[0].pointer, '/faction');
    });
  });
}

describe(`the events route's lists (${TEST_BACKEND})`, { skip: t9aSeedPaths() === null }, () => {
  it("shows each side's list where the data has one", async () => {
    const t = await buildTestApp({ seed: 't9a', shared: true });
    try {
      const rows = (await post(t, '/api/events', { pageSize: 20 })).json.data.events as Row[];
      let listed = 0;
      for (const row of rows) {
        const page = (await post(t, '/api/events', { event: row.id, pageSize: 1 })).json.data.event;
        for (const side of (page.rounds as Round[]).flatMap((r) =>
          r.games.flatMap((g) => g.sides),
        )) {
          if (side.list === null) continue;
          listed++;
          assert.ok(side.list.length > 0 && side.list.every((i) => i.picks >= 1));
        }
      }
      assert.ok(listed > 0, 'the T9A slice carries lists');
    } finally {
      await t.close();
    }
  });
});
