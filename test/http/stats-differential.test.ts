/**
 * Differential test: seeded random data (two systems, thousands of games) imported into the
 * backend under test; every route's numbers are compared with plain SQL written here, apart from
 * the engine, on SQLite and PostgreSQL alike.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { randomDocument } from '../snapshot/random-document.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const near = (actual: number | null, expected: number | null, what: string) => {
  if (expected === null || actual === null) return assert.equal(actual, expected, what);
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: engine ${actual} != sql ${expected}`);
};
/** Newcombe (1998) method 10 for x1/n1 − x2/n2, written out from the published formula. */
function newcombe10(x1: number, n1: number, x2: number, n2: number): [number, number] {
  const z = 1.959963984540054;
  const limits = (x: number, n: number) => {
    const p = x / n;
    const a = 2 * n * p + z * z;
    const b = z * Math.sqrt(z * z + 4 * n * p * (1 - p));
    return [(a - b) / (2 * (n + z * z)), (a + b) / (2 * (n + z * z))];
  };
  const [l1, u1] = limits(x1, n1);
  const [l2, u2] = limits(x2, n2);
  const [p1, p2] = [x1 / n1, x2 / n2];
  return [p1 - p2 - Math.hypot(p1 - l1, u2 - p2), p1 - p2 + Math.hypot(u1 - p1, p2 - l2)];
}
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

interface Filter {
  body: Record<string, unknown>;
  /** The same filter as a SQL condition on `e` (events). */
  where: string;
}

/**
 * The distinct players with a game at event `e`: a declared participant count below it is one
 * the source left out (docs/statistics.md#events), and the participants filter leaves it out.
 */
const PLAYED = `(select count(distinct ps.player_id) from sides ps join games pg on pg.id = ps.game_id where pg.event_id = e.id and ps.player_id is not null)`;

const FILTERS: Filter[] = [
  { body: { system: 'alpha' }, where: "e.system_id = 'alpha'" },
  {
    body: {
      system: 'alpha',
      from: '2024-06-01',
      to: '2025-05-31',
      minParticipants: 10,
      format: 'singles',
    },
    where: `e.system_id = 'alpha' and e.start_date >= '2024-06-01' and e.start_date <= '2025-05-31' and e.participants >= 10 and e.participants >= ${PLAYED} and e.format = 'singles'`,
  },
  {
    body: { system: 'beta', countries: ['de', 'FR'], tiers: ['standard', 'major'], online: false },
    where:
      "e.system_id = 'beta' and e.country in ('DE', 'FR') and e.tier in ('standard', 'major') and e.online = 0",
  },
];

describe(`statistics routes against plain SQL (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let stats: StatsApp;
  const query = async (text: string): Promise<Row[]> =>
    (await sql.raw<Row>(text).execute(store.db)).rows;
  const scoped = (where: string) => `
    sides s
    join sides o on o.game_id = s.game_id and o.side <> s.side
    join games g on g.id = s.game_id
    join events e on e.id = g.event_id
    where e.status = 'completed' and ${where}`;

  before(async () => {
    store = await openTestStore();
    const report = await importCanonical(
      store,
      randomDocument({ seed: 20251001, gamesPerSystem: 2500 }),
    );
    assert.equal(report.rejects.length, 0);
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats.close();
    await store.close();
  });

  it('rejects a request without system when the store holds several, listing them', async () => {
    const { status, json } = await stats.post('/api/faction-stats', {});
    assert.equal(status, 400);
    assert.match(String(json.detail), /alpha, beta/);
    assert.equal((json.errors as Row[])[0].pointer, '/system');
  });

  for (const filter of FILTERS) {
    it(`matches SQL for faction-stats and the sample with ${JSON.stringify(filter.body)}`, async () => {
      const { status, json } = await stats.post('/api/faction-stats', filter.body);
      assert.equal(status, 200);
      const expected = await query(`
        select s.faction_id as faction, count(*) as sides, avg(s.score) as avg_score,
          sum(case when o.faction_id <> s.faction_id then 1 else 0 end) as games,
          sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end) as wins,
          sum(case when o.faction_id <> s.faction_id and s.result = 'draw' then 1 else 0 end) as draws,
          sum(case when o.faction_id <> s.faction_id and s.result = 'loss' then 1 else 0 end) as losses,
          sum(case when o.faction_id = s.faction_id and s.side < o.side then 1 else 0 end) as mirrors,
          count(distinct s.player_id) as players,
          sum(case when s.first_turn = 1 and o.faction_id <> s.faction_id then 1 else 0 end) as ft_games,
          sum(case when s.first_turn = 1 and o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end) as ft_wins,
          sum(case when s.first_turn = 1 and o.faction_id <> s.faction_id and s.result = 'draw' then 1 else 0 end) as ft_draws,
          avg(case when s.first_turn = 0 then s.score end) as st_avg
        from ${scoped(filter.where)}
        group by s.faction_id order by s.faction_id`);
      const rows = new Map<string, Row>(
        (json.data as Row).factions.map((f: Row) => [f.faction.id, f]),
      );
      assert.deepEqual(
        [...rows.keys()].sort(),
        expected.map((e) => e.faction),
      );
      const totalSides = expected.reduce((sum, e) => sum + Number(e.sides), 0);
      let hhi = 0;
      for (const e of expected) {
        const f = rows.get(e.faction)!;
        const what = `${e.faction} ${JSON.stringify(filter.body)}`;
        assert.deepEqual(
          [f.sides, f.games, f.wins, f.draws, f.losses, f.mirrorGames, f.players],
          [e.sides, e.games, e.wins, e.draws, e.losses, e.mirrors, e.players].map(Number),
          what,
        );
        near(f.avgScore, num(e.avg_score), `${what} avgScore`);
        near(
          f.winRate,
          (Number(e.wins) + Number(e.draws) / 2) / Number(e.games),
          `${what} winRate`,
        );
        near(f.metaShare, Number(e.sides) / totalSides, `${what} metaShare`);
        assert.equal(f.firstTurn.games, Number(e.ft_games), `${what} first-turn games`);
        near(
          f.firstTurn.winRate,
          Number(e.ft_games) > 0
            ? (Number(e.ft_wins) + Number(e.ft_draws) / 2) / Number(e.ft_games)
            : null,
          `${what} first-turn winRate`,
        );
        near(f.secondTurn.avgScore, num(e.st_avg), `${what} second-turn avgScore`);
        hhi += (Number(e.sides) / totalSides) ** 2;
      }
      const [sample] = await query(`
        select count(distinct g.id) as games, count(distinct e.id) as events
        from games g join events e on e.id = g.event_id
        where e.status = 'completed' and ${filter.where}`);
      assert.deepEqual((json.meta as Row).sample, {
        events: Number(sample.events),
        games: Number(sample.games),
      });
      const summary = (json.data as Row).summary;
      assert.equal(summary.games, Number(sample.games));
      near(summary.diversity.hhi, hhi, 'hhi');
      const [turns] = await query(`
        select avg(case when s.first_turn = 1 then s.score end) as ft, avg(case when s.first_turn = 0 then s.score end) as st
        from ${scoped(filter.where)}`);
      near(summary.avgScoreFirstTurn, num(turns.ft), 'summary first turn');
      near(summary.avgScoreSecondTurn, num(turns.st), 'summary second turn');
      if (summary.marginBands !== null) {
        const [bands] = await query(`
          select sum(case when s.score >= 18 then 1 else 0 end) as decisive,
            sum(case when s.score >= 14 and s.score <= 17 then 1 else 0 end) as normal,
            sum(case when s.score >= 11 and s.score <= 13 then 1 else 0 end) as close
          from ${scoped(filter.where)} and s.result = 'win'`);
        assert.deepEqual(
          [
            summary.marginBands.decisive.games,
            summary.marginBands.normal.games,
            summary.marginBands.close.games,
          ],
          [bands.decisive, bands.normal, bands.close].map(Number),
        );
      }
    });

    it(`matches SQL for army-matchup with ${JSON.stringify(filter.body)}`, async () => {
      const { json } = await stats.post('/api/army-matchup', filter.body);
      const expected = await query(`
        select s.faction_id as faction, o.faction_id as opponent, count(*) as sides,
          sum(case when s.result = 'win' then 1 else 0 end) as wins,
          sum(case when s.result = 'draw' then 1 else 0 end) as draws,
          sum(case when s.result = 'loss' then 1 else 0 end) as losses,
          avg(s.score) as avg_score
        from ${scoped(filter.where)}
        group by s.faction_id, o.faction_id order by s.faction_id, o.faction_id`);
      const cells = new Map<string, Row>(
        (json.data as Row).cells.map((c: Row) => [`${c.faction}/${c.opponent}`, c]),
      );
      assert.equal(cells.size, expected.length);
      for (const e of expected) {
        const c = cells.get(`${e.faction}/${e.opponent}`)!;
        const mirror = e.faction === e.opponent;
        const games = mirror ? Number(e.sides) / 2 : Number(e.sides);
        const draws = mirror ? Number(e.draws) / 2 : Number(e.draws);
        assert.deepEqual(
          [c.games, c.wins, c.draws, c.losses],
          [games, Number(e.wins), draws, Number(e.losses)],
        );
        near(
          c.winRate,
          mirror ? 0.5 : (Number(e.wins) + draws / 2) / games,
          `${e.faction}/${e.opponent} winRate`,
        );
        near(c.avgScore, num(e.avg_score), `${e.faction}/${e.opponent} avgScore`);
      }
    });

    it(`matches SQL for item-use-stats with ${JSON.stringify(filter.body)}`, async () => {
      const { json } = await stats.post('/api/item-use-stats', { ...filter.body, pageSize: 200 });
      const items = `(select list_id, 'unit' as category, lower(name) as name from list_units
          union all select list_id, lower(type) as category, lower(name) as name from list_options)`;
      const perSide = await query(`
        select s.faction_id as faction, i.category, i.name, count(*) as picks, s.result, s.score,
          case when o.faction_id = s.faction_id then 1 else 0 end as mirror
        from sides s
        join sides o on o.game_id = s.game_id and o.side <> s.side
        join games g on g.id = s.game_id
        join events e on e.id = g.event_id
        join ${items} i on i.list_id = s.list_id
        where e.status = 'completed' and ${filter.where}
        group by s.game_id, s.side, s.faction_id, s.result, s.score, o.faction_id, i.category, i.name`);
      const totals = await query(`
        select s.faction_id as faction, count(*) as lists,
          sum(case when o.faction_id <> s.faction_id then 1 else 0 end) as games,
          sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1
                   when o.faction_id <> s.faction_id and s.result = 'draw' then 0.5 else 0 end) as points
        from ${scoped(filter.where)} and s.list_id is not null
        group by s.faction_id`);
      const lists = totals.reduce((sum, t) => sum + Number(t.lists), 0);
      const data = json.data as Row;
      assert.equal(data.lists, lists);
      const factionTotals = new Map(totals.map((t) => [t.faction, t]));
      const expected = new Map<
        string,
        {
          picks: number;
          lists: number;
          games: number;
          points: number;
          factions: Map<string, [number, number]>;
        }
      >();
      for (const row of perSide) {
        const key = `${row.category}/${row.name}`;
        let e = expected.get(key);
        if (e === undefined) {
          e = { picks: 0, lists: 0, games: 0, points: 0, factions: new Map() };
          expected.set(key, e);
        }
        e.picks += Number(row.picks);
        e.lists++;
        const f = e.factions.get(row.faction) ?? [0, 0];
        if (Number(row.mirror) === 0) {
          const p = row.result === 'win' ? 1 : row.result === 'draw' ? 0.5 : 0;
          e.games++;
          e.points += p;
          f[0]++;
          f[1] += p;
        }
        e.factions.set(row.faction, f);
      }
      assert.equal(data.total, expected.size);
      for (const item of data.items as Row[]) {
        const e = expected.get(
          `${item.item.category.toLowerCase()}/${item.item.name.toLowerCase()}`,
        )!;
        const what = `${item.item.category}/${item.item.name}`;
        assert.deepEqual([item.picks, item.lists, item.games], [e.picks, e.lists, e.games], what);
        assert.deepEqual(item.factions, [...e.factions.keys()].sort(), what);
        near(item.share, e.lists / lists, `${what} share`);
        near(item.winRate, e.games > 0 ? e.points / e.games : null, `${what} winRate`);
        let wg = 0;
        let wp = 0;
        for (const [f, [g, p]] of e.factions) {
          wg += Number(factionTotals.get(f)!.games) - g;
          wp += Number(factionTotals.get(f)!.points) - p;
        }
        near(item.winRateWithout, wg > 0 ? wp / wg : null, `${what} winRateWithout`);
        if (e.games > 0 && wg > 0) {
          const [low, high] = newcombe10(e.points, e.games, wp, wg);
          near(item.deltaInterval.low, low, `${what} deltaInterval low`);
          near(item.deltaInterval.high, high, `${what} deltaInterval high`);
        } else assert.equal(item.deltaInterval, null, what);
        const m = (json.meta as Row).shrinkage.priorStrength as number;
        if (e.games > 0) {
          const mu = (e.points + wp) / (e.games + wg);
          near(item.shrunkWinRate, (e.points + m * mu) / (e.games + m), `${what} shrunkWinRate`);
        }
      }
    });

    it(`matches SQL for scenario and scenario-stats with ${JSON.stringify(filter.body)}`, async () => {
      const catalogue = await stats.post('/api/scenario', {
        ...filter.body,
        kinds: ['map', 'deployment', 'primary'],
      });
      const scenarioStats = await stats.post('/api/scenario-stats', filter.body);
      const byKey = new Map<string, Row>(
        (catalogue.json.data as Row).scenarios.map((s: Row) => [`${s.kind}/${s.name}`, s]),
      );
      const statsByKey = new Map<string, Row>(
        (scenarioStats.json.data as Row).scenarios.map((s: Row) => [`${s.kind}/${s.name}`, s]),
      );
      for (const [kind, column] of [
        ['map', 'map'],
        ['deployment', 'deployment'],
        ['primary', 'primary_objective'],
      ]) {
        const expected = await query(`
          select g.${column} as name, count(*) as games, min(e.start_date) as first, max(e.start_date) as last
          from games g join events e on e.id = g.event_id
          where e.status = 'completed' and ${filter.where} and g.${column} is not null
          group by g.${column}`);
        assert.equal(
          [...byKey.keys()].filter((k) => k.startsWith(`${kind}/`)).length,
          expected.length,
        );
        for (const e of expected) {
          const row = byKey.get(`${kind}/${e.name}`)!;
          assert.deepEqual(
            [row.games, row.firstPlayed, row.lastPlayed],
            [Number(e.games), e.first, e.last],
          );
          assert.equal(statsByKey.get(`${kind}/${e.name}`)!.games, Number(e.games));
        }
        const turns = await query(`
          select g.${column} as name, count(*) as games,
            sum(case when f.result = 'win' then 1 when f.result = 'draw' then 0.5 else 0 end) as points,
            avg(f.score) as avg_score,
            sum(case when f.primary_achieved = 1 and o.primary_achieved = 0 then 1 else 0 end) as attacker,
            sum(case when f.primary_achieved = 0 and o.primary_achieved = 1 then 1 else 0 end) as defender,
            sum(case when f.primary_achieved = 0 and o.primary_achieved = 0 then 1 else 0 end) as none
          from sides f
          join sides o on o.game_id = f.game_id and o.side <> f.side
          join games g on g.id = f.game_id
          join events e on e.id = g.event_id
          where e.status = 'completed' and ${filter.where} and g.${column} is not null and f.first_turn = 1
          group by g.${column}`);
        for (const e of turns) {
          const row = statsByKey.get(`${kind}/${e.name}`)!;
          assert.equal(row.firstTurn.games, Number(e.games));
          near(
            row.firstTurn.winRate,
            Number(e.points) / Number(e.games),
            `${kind}/${e.name} first-turn winRate`,
          );
          near(row.firstTurn.avgScore, num(e.avg_score), `${kind}/${e.name} first-turn avgScore`);
          const known = Number(e.attacker) + Number(e.defender) + Number(e.none);
          assert.deepEqual(
            row.primary,
            known === 0
              ? null
              : {
                  attacker: Number(e.attacker),
                  defender: Number(e.defender),
                  none: Number(e.none),
                },
            `${kind}/${e.name} primary`,
          );
        }
        const perFaction = await query(`
          select g.${column} as name, s.faction_id as faction, count(*) as games,
            sum(case when s.result = 'win' then 1 when s.result = 'draw' then 0.5 else 0 end) as points
          from ${scoped(filter.where)} and g.${column} is not null and o.faction_id <> s.faction_id
          group by g.${column}, s.faction_id`);
        for (const e of perFaction) {
          const f = statsByKey
            .get(`${kind}/${e.name}`)!
            .factions.find((x: Row) => x.faction.id === e.faction);
          assert.equal(f.games, Number(e.games));
          near(f.winRate, Number(e.points) / Number(e.games), `${kind}/${e.name}/${e.faction}`);
        }
      }
      const secondaries = await query(`
        select s.secondary as name, count(*) as picked,
          sum(case when s.secondary_achieved = 1 then 1 else 0 end) as achieved,
          sum(case when s.secondary_achieved is not null then 1 else 0 end) as known,
          sum(case when s.first_turn = 1 and s.secondary_achieved = 1 then 1 else 0 end) as att_ach,
          sum(case when s.first_turn = 1 and s.secondary_achieved is not null then 1 else 0 end) as att_known
        from ${scoped(filter.where)} and s.secondary is not null
        group by s.secondary`);
      for (const e of secondaries) {
        const row = statsByKey.get(`secondary/${e.name}`)!;
        assert.equal(row.secondary.picked, Number(e.picked));
        assert.equal(row.secondary.achieved, Number(e.achieved));
        near(
          row.secondary.achievedRate,
          Number(e.achieved) / Number(e.known),
          `${e.name} achievedRate`,
        );
        near(
          row.secondary.attackerRate,
          Number(e.att_ach) / Number(e.att_known),
          `${e.name} attackerRate`,
        );
      }
    });
  }
  it('matches SQL for compareTo on faction-stats and army-matchup: the other window, difference and Newcombe interval', async () => {
    const [main] = FILTERS.slice(1);
    const other = {
      body: { from: '2025-06-01', minParticipants: 10, format: 'singles' },
      where: `e.system_id = 'alpha' and e.start_date >= '2025-06-01' and e.participants >= 10 and e.participants >= ${PLAYED} and e.format = 'singles'`,
    };
    const { status, json } = await stats.post('/api/faction-stats', {
      ...main.body,
      compareTo: other.body,
    });
    assert.equal(status, 200);
    const tally = (where: string) =>
      query(`
        select s.faction_id as faction, count(*) as games,
          sum(case when s.result = 'win' then 1 else 0 end) as wins,
          sum(case when s.result = 'draw' then 1 else 0 end) as draws
        from ${scoped(where)} and o.faction_id <> s.faction_id
        group by s.faction_id`);
    const theirs = new Map((await tally(other.where)).map((r) => [r.faction, r]));
    const rows = (json.data as Row).factions as Row[];
    assert.ok(rows.length > 0);
    let excluding = 0;
    for (const row of rows) {
      const t = theirs.get(row.faction.id);
      const n2 = t === undefined ? 0 : Number(t.games);
      const x2 = t === undefined ? 0 : Number(t.wins) + Number(t.draws) / 2;
      assert.equal(row.compare.games, n2, row.faction.id);
      if (n2 === 0 || row.games === 0) {
        assert.equal(row.compare.differenceInterval, null);
        continue;
      }
      const x1 = row.wins + row.draws / 2;
      near(row.compare.difference, x1 / row.games - x2 / n2, `${row.faction.id} difference`);
      const [low, high] = newcombe10(x1, row.games, x2, n2);
      near(row.compare.differenceInterval.low, low, 'low');
      near(row.compare.differenceInterval.high, high, 'high');
      if (row.compare.excludesZero) excluding++;
    }
    assert.ok(excluding < rows.length, 'random data: most differences are noise');
    const matchup = await stats.post('/api/army-matchup', { ...main.body, compareTo: other.body });
    const pairs = await query(`
      select s.faction_id as faction, o.faction_id as opponent, count(*) as games,
        sum(case when s.result = 'win' then 1 else 0 end) as wins
      from ${scoped(other.where)} and o.faction_id <> s.faction_id
      group by s.faction_id, o.faction_id`);
    const byPair = new Map(pairs.map((r) => [`${r.faction}/${r.opponent}`, r]));
    for (const cell of (matchup.json.data as Row).cells as Row[]) {
      if (cell.faction === cell.opponent) continue;
      const e = byPair.get(`${cell.faction}/${cell.opponent}`);
      assert.equal(cell.compare.games, e === undefined ? 0 : Number(e.games));
      assert.equal(cell.compare.wins, e === undefined ? 0 : Number(e.wins));
    }
  });
  it('matches SQL for shrunkWinRate on matchup cells: row means and a moment fit written out here', async () => {
    const { json } = await stats.post('/api/army-matchup', FILTERS[0].body);
    const cells = await query(`
      select s.faction_id as faction, o.faction_id as opponent, count(*) as games,
        sum(case when s.result = 'win' then 1 when s.result = 'draw' then 0.5 else 0 end) as points
      from ${scoped(FILTERS[0].where)} and o.faction_id <> s.faction_id
      group by s.faction_id, o.faction_id`);
    const rowSums = new Map<string, [number, number]>();
    for (const c of cells) {
      const [p, n] = rowSums.get(c.faction) ?? [0, 0];
      rowSums.set(c.faction, [p + Number(c.points), n + Number(c.games)]);
    }
    const mu = (f: string) => rowSums.get(f)![0] / rowSums.get(f)![1];
    // Beta-binomial moments: E[n (p − μ)²] = μ(1 − μ)(1 + (n − 1)ρ), m = 1/ρ − 1.
    let spread = 0;
    let chance = 0;
    let excess = 0;
    for (const c of cells) {
      const [n, m] = [Number(c.games), mu(c.faction)];
      spread += n * (Number(c.points) / n - m) ** 2;
      chance += m * (1 - m);
      excess += m * (1 - m) * (n - 1);
    }
    const rho = (spread - chance) / excess;
    const strength = rho <= 1e-6 ? 1_000_000 : 1 / rho - 1;
    const meta = json.meta as Row;
    assert.equal(meta.shrinkage.cells, cells.length);
    near(meta.shrinkage.priorStrength, strength, 'priorStrength');
    const byPair = new Map(cells.map((c) => [`${c.faction}/${c.opponent}`, c]));
    for (const cell of (json.data as Row).cells as Row[]) {
      if (cell.faction === cell.opponent) {
        assert.equal(cell.shrunkWinRate, 0.5);
        continue;
      }
      const c = byPair.get(`${cell.faction}/${cell.opponent}`)!;
      const expected = (Number(c.points) + strength * mu(c.faction)) / (Number(c.games) + strength);
      near(cell.shrunkWinRate, expected, `${cell.faction}/${cell.opponent} shrunkWinRate`);
    }
  });
  it('matches SQL for event-clustered intervals on faction-stats and army-matchup, never narrower than Wilson', async () => {
    const filter = FILTERS[1];
    const z = 1.959963984540054;
    const { tQuantile975, wilson } = await import('../../src/engine/intervals.ts');
    /** Korn & Graubard: Wilson on n / deff · (z/t)², deff from the CR1 variance over events. */
    const clustered = (perEvent: [number, number][]) => {
      const y = perEvent.reduce((a, [s]) => a + s, 0);
      const n = perEvent.reduce((a, [, g]) => a + g, 0);
      const c = perEvent.length;
      if (c < 2) return { low: 0, high: 1 };
      const p = y / n;
      let ss = 0;
      for (const [s, g] of perEvent) ss += (s - p * g) ** 2;
      const robust = ((c / (c - 1)) * ss) / (n * n);
      const binomial = (p * (1 - p)) / n;
      const deff = binomial > 0 ? Math.max(1, robust / binomial) : 1;
      const eff = (n / deff) * (z / tQuantile975(c - 1)) ** 2;
      return wilson(p * eff, eff)!;
    };
    const perEvent = async (group: string) => {
      const rows = await query(`
        select ${group} as k, g.event_id as event, count(*) as games,
          sum(case when s.result = 'win' then 1 when s.result = 'draw' then 0.5 else 0 end) as points
        from ${scoped(filter.where)} and o.faction_id <> s.faction_id
        group by ${group}, g.event_id`);
      const out = new Map<string, [number, number][]>();
      for (const r of rows) {
        const list = out.get(r.k) ?? [];
        list.push([Number(r.points), Number(r.games)]);
        out.set(r.k, list);
      }
      return out;
    };
    const factions = await perEvent('s.faction_id');
    const { json } = await stats.post('/api/faction-stats', {
      ...filter.body,
      interval: 'event-clustered',
    });
    assert.equal((json.meta as Row).filter.interval, 'event-clustered');
    let wider = 0;
    for (const row of (json.data as Row).factions as Row[]) {
      const expected = clustered(factions.get(row.faction.id)!);
      near(row.winRateInterval.low, expected.low, `${row.faction.id} clustered low`);
      near(row.winRateInterval.high, expected.high, `${row.faction.id} clustered high`);
      const w = wilson(row.wins + row.draws / 2, row.games)!;
      assert.ok(row.winRateInterval.high - row.winRateInterval.low >= w.high - w.low - 1e-12);
      if (row.winRateInterval.high - row.winRateInterval.low > w.high - w.low + 1e-9) wider++;
    }
    assert.ok(wider > 0, 'the t quantile alone widens some rows');
    const cells = await perEvent("s.faction_id || '/' || o.faction_id");
    const matchup = await stats.post('/api/army-matchup', {
      ...filter.body,
      interval: 'event-clustered',
    });
    for (const cell of (matchup.json.data as Row).cells as Row[]) {
      if (cell.faction === cell.opponent) continue;
      const expected = clustered(cells.get(`${cell.faction}/${cell.opponent}`)!);
      near(cell.winRateInterval.low, expected.low, `${cell.faction}/${cell.opponent} low`);
      near(cell.winRateInterval.high, expected.high, `${cell.faction}/${cell.opponent} high`);
    }
  });

  it('gives a faction whose games all come from one event a clustered interval wider than Wilson', async () => {
    const [biggest] = await query(`
      select e.id as id, count(*) as games from games g join events e on e.id = g.event_id
      where e.status = 'completed' and e.system_id = 'alpha'
      group by e.id order by count(*) desc, e.id limit 1`);
    const body = { system: 'alpha', eventIds: [biggest.id] };
    const wilsonRows = await stats.post('/api/faction-stats', body);
    const clusteredRows = await stats.post('/api/faction-stats', {
      ...body,
      interval: 'event-clustered',
    });
    const wilsonById = new Map<string, Row>(
      ((wilsonRows.json.data as Row).factions as Row[]).map((f) => [f.faction.id, f]),
    );
    let compared = 0;
    for (const row of (clusteredRows.json.data as Row).factions as Row[]) {
      if (row.games === 0) continue;
      const w = wilsonById.get(row.faction.id)!.winRateInterval;
      assert.deepEqual(row.winRateInterval, { low: 0, high: 1 });
      assert.ok(w.high - w.low < 1, `${row.faction.id}: Wilson ${JSON.stringify(w)}`);
      compared++;
    }
    assert.ok(compared > 0);
  });
  it('matches SQL for run the table: entries per games played, undefeated and with at most one loss', async () => {
    for (const filter of FILTERS) {
      const { json } = await stats.post('/api/faction-stats', filter.body);
      const expected = await query(`
        select games, count(*) as entries,
          sum(case when losses = 0 then 1 else 0 end) as undefeated,
          sum(case when losses <= 1 then 1 else 0 end) as one_loss
        from (
          select g.event_id, s.player_id, count(*) as games,
            sum(case when s.result = 'loss' then 1 else 0 end) as losses
          from ${scoped(filter.where)} and s.player_id is not null
          group by g.event_id, s.player_id) entries
        where games <= 15
        group by games order by games`);
      const got = new Map<number, number[]>();
      for (const row of (json.data as Row).factions as Row[]) {
        for (const line of row.runTheTable as Row[]) {
          const sums = got.get(line.games) ?? [0, 0, 0];
          sums[0] += line.entries;
          sums[1] += line.undefeated;
          sums[2] += line.atMostOneLoss;
          got.set(line.games, sums);
          near(line.coinFlipAtMostOneLoss, (line.games + 1) / 2 ** line.games, 'coin flip');
        }
      }
      assert.deepEqual(
        [...got.entries()].sort((a, b) => a[0] - b[0]),
        expected.map((e) => [
          Number(e.games),
          [Number(e.entries), Number(e.undefeated), Number(e.one_loss)],
        ]),
        JSON.stringify(filter.body),
      );
    }
  });
});
