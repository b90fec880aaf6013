/**
 * What the benchmark times (`npm run bench`): three realistic filters, and per route the engine
 * call beside the same aggregation written in SQL (run on SQLite and on PostgreSQL).
 */
import { armyMatchup } from '../src/engine/army-matchup.ts';
import { factionStats } from '../src/engine/faction-stats.ts';
import { normaliseCommonFilter } from '../src/engine/filter.ts';
import type { CommonFilterInput } from '../src/engine/filter.ts';
import { itemUseStats } from '../src/engine/item-use-stats.ts';
import { scenarioCatalogue } from '../src/engine/scenario.ts';
import { normaliseKinds } from '../src/engine/scenario-parts.ts';
import { scenarioStats } from '../src/engine/scenario-stats.ts';
import type { Snapshot } from '../src/snapshot/snapshot.ts';

/** The p-th percentile of ascending values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Median and p99 of `runs` timed calls after one warm-up call. */
export function time(fn: () => unknown, runs: number): { median: number; p99: number } {
  fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p99: percentile(times, 99) };
}

export interface Case {
  name: string;
  filter: CommonFilterInput;
  sqlWhere: string;
}

export const CASES: Case[] = [
  { name: 'all time', filter: {}, sqlWhere: "e.status = 'completed' and e.system_id = 't9a'" },
  {
    name: 'last 12 months, 16+ players',
    filter: { from: '2025-01-01', to: '2025-12-31', minParticipants: 16 },
    sqlWhere:
      "e.status = 'completed' and e.system_id = 't9a' and e.start_date >= '2025-01-01' and e.start_date <= '2025-12-31' and e.participants >= 16",
  },
  {
    name: 'one quarter, singles, DE/FR',
    filter: { from: '2025-10-01', to: '2025-12-31', format: 'singles', countries: ['DE', 'FR'] },
    sqlWhere:
      "e.status = 'completed' and e.system_id = 't9a' and e.start_date >= '2025-10-01' and e.start_date <= '2025-12-31' and e.format = 'singles' and e.country in ('DE', 'FR')",
  },
];

const SCOPE = (
  where: string,
) => `from sides s join sides o on o.game_id = s.game_id and o.side <> s.side
  join games g on g.id = s.game_id join events e on e.id = g.event_id where ${where}`;

export const ROUTES: Array<{
  route: string;
  engine: (snapshot: Snapshot, filter: CommonFilterInput) => unknown;
  /** The statements that together compute what the engine call answers, run one after another. */
  sql: (where: string) => string[];
}> = [
  {
    route: 'faction-stats',
    engine: (s, f) =>
      factionStats(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        excludeMirrors: true,
        minGames: 0,
        groupBy: 'none',
      }),
    sql: (w) => [
      `select s.faction_id, count(*), avg(s.score),
      sum(case when o.faction_id <> s.faction_id then 1 else 0 end),
      sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end),
      sum(case when o.faction_id <> s.faction_id and s.result = 'draw' then 1 else 0 end),
      count(distinct s.player_id),
      avg(case when s.first_turn = 1 then s.score end)
      ${SCOPE(w)} group by s.faction_id`,
    ],
  },
  {
    route: 'army-matchup',
    engine: (s, f) =>
      armyMatchup(s, { ...normaliseCommonFilter(s, f), factions: [], opponents: [], minGames: 0 }),
    sql: (w) => [
      `select s.faction_id, o.faction_id, count(*), sum(case when s.result = 'win' then 1 else 0 end),
      sum(case when s.result = 'draw' then 1 else 0 end), avg(s.score) ${SCOPE(w)} group by s.faction_id, o.faction_id`,
    ],
  },
  {
    route: 'item-use-stats',
    engine: (s, f) =>
      itemUseStats(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        categories: [],
        search: null,
        minLists: 0,
        sort: 'lists',
        page: 1,
        pageSize: 50,
      }),
    sql: (w) => [
      `select i.category, i.name, count(*), count(distinct s.game_id || ':' || s.side),
      sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end), avg(s.score)
      from sides s join sides o on o.game_id = s.game_id and o.side <> s.side
      join games g on g.id = s.game_id join events e on e.id = g.event_id
      join (select list_id, 'unit' as category, lower(name) as name from list_units
            union all select list_id, lower(type), lower(name) from list_options) i on i.list_id = s.list_id
      where ${w} group by i.category, i.name`,
    ],
  },
  {
    route: 'scenario',
    engine: (s, f) =>
      scenarioCatalogue(s, {
        ...normaliseCommonFilter(s, f),
        kinds: normaliseKinds(undefined),
        search: null,
      }),
    sql: (w) => [
      `select 'map', g.map, count(*), min(e.start_date), max(e.start_date) from games g join events e on e.id = g.event_id where ${w} group by g.map
      union all select 'deployment', g.deployment, count(*), min(e.start_date), max(e.start_date) from games g join events e on e.id = g.event_id where ${w} group by g.deployment
      union all select 'primary', g.primary_objective, count(*), min(e.start_date), max(e.start_date) from games g join events e on e.id = g.event_id where ${w} group by g.primary_objective`,
    ],
  },
  {
    route: 'scenario-stats',
    engine: (s, f) =>
      scenarioStats(s, {
        ...normaliseCommonFilter(s, f),
        kinds: normaliseKinds(undefined),
        names: [],
        factions: [],
        minGames: 0,
      }),
    sql: (w) => [scenarioStatsSql(w)],
  },
];

/** A side's worth in points: a draw counts half. */
const POINTS = "case s.result when 'win' then 1 when 'draw' then 0.5 else 0 end";

/**
 * What scenario-stats answers, in SQL: for every game-level kind, per part the games, margin
 * bands (T9A's, on the winner's score), first-turn games, points, score and primaries; per
 * (part, faction) sides, non-mirror games, wins, draws and score; per secondary its picks and
 * achievements.
 */
function scenarioStatsSql(w: string): string {
  const kinds = [
    ['scenario', 'g.scenario'],
    ['map', 'g.map'],
    ['deployment', 'g.deployment'],
    ['primary', 'g.primary_objective'],
  ];
  const parts = kinds.flatMap(([kind, column]) => [
    `select '${kind}' as kind, ${column} as name, null as faction,
      sum(case when s.side = 0 then 1 else 0 end) as a,
      sum(case when s.result = 'win' and s.score >= 18 then 1 else 0 end) as b,
      sum(case when s.result = 'win' and s.score >= 14 and s.score < 18 then 1 else 0 end) as c,
      sum(case when s.result = 'win' and s.score >= 10 and s.score < 14 then 1 else 0 end) as d,
      sum(case when s.first_turn = 1 then 1 else 0 end) as e,
      sum(case when s.first_turn = 1 then ${POINTS} else 0 end) as f,
      avg(case when s.first_turn = 1 then s.score end) as g,
      sum(case when s.first_turn = 1 and s.primary_achieved = 1 and o.primary_achieved = 0 then 1 else 0 end) as h,
      sum(case when s.first_turn = 1 and s.primary_achieved = 0 and o.primary_achieved = 1 then 1 else 0 end) as i,
      sum(case when s.first_turn = 1 and s.primary_achieved = 0 and o.primary_achieved = 0 then 1 else 0 end) as j
      ${SCOPE(w)} and ${column} is not null group by ${column}`,
    `select '${kind}', ${column}, s.faction_id, count(*),
      sum(case when o.faction_id <> s.faction_id then 1 else 0 end),
      sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end),
      sum(case when o.faction_id <> s.faction_id and s.result = 'draw' then 1 else 0 end),
      count(s.score), sum(s.score), null, null, null, null
      ${SCOPE(w)} and ${column} is not null group by ${column}, s.faction_id`,
  ]);
  parts.push(`select 'secondary', s.secondary, null, count(*),
      sum(case when s.secondary_achieved = 1 then 1 else 0 end),
      sum(case when s.secondary_achieved is not null then 1 else 0 end),
      sum(case when s.first_turn = 1 and s.secondary_achieved = 1 then 1 else 0 end),
      sum(case when s.first_turn = 1 and s.secondary_achieved is not null then 1 else 0 end),
      sum(case when s.first_turn = 0 and s.secondary_achieved = 1 then 1 else 0 end),
      sum(case when s.first_turn = 0 and s.secondary_achieved is not null then 1 else 0 end),
      null, null, null
      ${SCOPE(w)} and s.secondary is not null group by s.secondary`);
  return parts.join('\nunion all\n');
}

/** The window compareTo cases compare with (docs/statistics.md#compareto), and its SQL. */
const COMPARE_TO = { to: '2024-12-31' };
const COMPARE_WHERE =
  "e.status = 'completed' and e.system_id = 't9a' and e.start_date <= '2024-12-31'";

/** Per-(key, event) successes and games, then their squares: what the clustered interval needs. */
const clusterSql = (
  w: string,
  key: string,
) => `select k, sum(y * y), sum(y * n), sum(n * n), count(*)
  from (select ${key} as k, g.event_id, count(*) as n,
      sum(case when s.result = 'win' then 1 when s.result = 'draw' then 0.5 else 0 end) as y
    ${SCOPE(w)} and o.faction_id <> s.faction_id group by ${key}, g.event_id) per_event group by k`;

/** The clustered interval's sums per (faction, item), as the engine keys item rows. */
const itemClusterSql = (
  w: string,
) => `select f || '/' || cat || '/' || name, sum(y * y), sum(y * n),
    sum(n * n), count(*)
  from (select s.faction_id as f, i.category as cat, i.name as name, g.event_id, count(*) as n,
      sum(case when s.result = 'win' then 1 when s.result = 'draw' then 0.5 else 0 end) as y
    from sides s join sides o on o.game_id = s.game_id and o.side <> s.side
    join games g on g.id = s.game_id join events e on e.id = g.event_id
    join (select list_id, 'unit' as category, lower(name) as name from list_units
          union all select list_id, lower(type), lower(name) from list_options) i on i.list_id = s.list_id
    where ${w} and o.faction_id <> s.faction_id
    group by s.faction_id, i.category, i.name, g.event_id) per_event group by f, cat, name`;

const base = (route: string) => ROUTES.find((r) => r.route === route)!;

/**
 * compareTo (a second window of the same cube) and interval "event-clustered" (the cluster
 * cubes), each beside SQL doing the same extra work: the route's query over the other window
 * too, or the per-event sums of squares.
 */
ROUTES.push(
  {
    route: 'faction-stats + compareTo',
    engine: (s, f) =>
      factionStats(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        excludeMirrors: true,
        minGames: 0,
        groupBy: 'none',
        compareTo: normaliseCommonFilter(s, { ...COMPARE_TO, system: 't9a' }),
      }),
    sql: (w) => [...base('faction-stats').sql(w), ...base('faction-stats').sql(COMPARE_WHERE)],
  },
  {
    route: 'faction-stats, event-clustered',
    engine: (s, f) =>
      factionStats(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        excludeMirrors: true,
        minGames: 0,
        groupBy: 'none',
        interval: 'event-clustered',
      }),
    sql: (w) => [...base('faction-stats').sql(w), clusterSql(w, 's.faction_id')],
  },
  {
    route: 'army-matchup + compareTo',
    engine: (s, f) =>
      armyMatchup(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        opponents: [],
        minGames: 0,
        compareTo: normaliseCommonFilter(s, { ...COMPARE_TO, system: 't9a' }),
      }),
    sql: (w) => [...base('army-matchup').sql(w), ...base('army-matchup').sql(COMPARE_WHERE)],
  },
  {
    route: 'army-matchup, event-clustered',
    engine: (s, f) =>
      armyMatchup(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        opponents: [],
        minGames: 0,
        interval: 'event-clustered',
      }),
    sql: (w) => [
      ...base('army-matchup').sql(w),
      clusterSql(w, "s.faction_id || '/' || o.faction_id"),
    ],
  },
  {
    route: 'item-use-stats, event-clustered',
    engine: (s, f) =>
      itemUseStats(s, {
        ...normaliseCommonFilter(s, f),
        factions: [],
        categories: [],
        search: null,
        minLists: 0,
        sort: 'lists',
        page: 1,
        pageSize: 50,
        interval: 'event-clustered',
      }),
    sql: (w) => [...base('item-use-stats').sql(w), itemClusterSql(w)],
  },
);

/** Median and p99 of `runs` timed calls, no warm-up (SQL at a million games takes seconds). */
export async function timeAsync(
  fn: () => unknown,
  runs: number,
): Promise<{ median: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p99: percentile(times, 99) };
}
