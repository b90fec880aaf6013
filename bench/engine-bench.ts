/**
 * Engine benchmark (`npm run bench:engine`; not a timed test): generates N games (default
 * 1,000,000; BENCH_GAMES to change) of seeded synthetic data into a temp SQLite file with bulk
 * inserts, loads the snapshot from it the way the service does, then times each route's engine
 * call for a few realistic filters beside the same aggregation in SQL on the same SQLite file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { armyMatchup } from '../src/engine/army-matchup.ts';
import { factionStats } from '../src/engine/faction-stats.ts';
import { normaliseCommonFilter, resolveScope, sampleOf } from '../src/engine/filter.ts';
import type { CommonFilterInput } from '../src/engine/filter.ts';
import { itemUseStats } from '../src/engine/item-use-stats.ts';
import { scenarioCatalogue } from '../src/engine/scenario.ts';
import { normaliseKinds } from '../src/engine/scenario-parts.ts';
import { scenarioStats } from '../src/engine/scenario-stats.ts';
import { loadSnapshot } from '../src/snapshot/load-snapshot.ts';
import type { Snapshot } from '../src/snapshot/snapshot.ts';
import { benchHttp } from './http-bench.ts';
import { openMigratedStore } from '../src/store/store.ts';

const GAMES = Number(process.env.BENCH_GAMES ?? 1_000_000);
const LIST_SHARE = 0.2;
const FACTIONS = [
  'BH',
  'DE',
  'DH',
  'DL',
  'EoS',
  'HE',
  'ID',
  'KoE',
  'OK',
  'OnG',
  'SA',
  'SE',
  'UD',
  'VC',
  'VS',
  'WDG',
];
const MAPS = ['Map A', 'Map B', 'Map C', 'Map D', 'Map E', 'Map F'];
const DEPLOYMENTS = [
  'Frontline',
  'Counterthrust',
  'Encircle',
  'Refused Flank',
  'Dawn Assault',
  'Marching Columns',
];
const PRIMARIES = [
  'Hold the Ground',
  'Breakthrough',
  'Spoils of War',
  'King of the Hill',
  'Capture the Flags',
  'Secure Target',
];
const COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'PL', 'SE', 'GB', 'US'];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dateOf(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

const PLAYERS = 20_000;
const ROUNDS = 5;

/**
 * Tournament-shaped data: each event has 8..68 entrants from a pool of players (who mostly keep
 * one faction), paired at random over five rounds; deployment and primary are set per round,
 * the map per table; a share of entries bring a list they keep all event. Rows are written with
 * prepared statements in one transaction, secondary indexes are built after the load (as a DBA
 * would bulk-load), so a million games take tens of seconds, not minutes.
 */
async function generate(file: string): Promise<void> {
  const store = await openMigratedStore(`sqlite:${file}`);
  await store.close();
  const db = new SQLite(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');
  const indexes = db
    .prepare(
      `select sql from sqlite_master where type = 'index' and sql is not null and tbl_name in ('sides', 'games', 'entries')`,
    )
    .all() as { sql: string }[];
  for (const { sql } of indexes) db.exec(`drop index ${/index\s+(\S+)/i.exec(sql)![1]}`);
  const r = rng(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const insertAll = db.transaction(() => {
    db.prepare(
      `insert into systems (id, name, score_min, score_max, score_total, margin_bands) values (?, ?, 0, 20, 20, ?)`,
    ).run(
      't9a',
      'The 9th Age',
      JSON.stringify({
        decisive: { min: 18, max: 20 },
        normal: { min: 14, max: 17 },
        close: { min: 10, max: 13 },
      }),
    );
    const faction = db.prepare(
      `insert into factions (system_id, id, name, parent_id) values ('t9a', ?, ?, null)`,
    );
    for (const f of FACTIONS) faction.run(f, f);
    const player = db.prepare(`insert into players (id, name, country) values (?, ?, ?)`);
    const mainFaction: string[] = [];
    for (let p = 0; p < PLAYERS; p++) {
      player.run(`P${p}`, `Player ${p}`, pick(COUNTRIES));
      mainFaction.push(pick(FACTIONS));
    }
    const event = db.prepare(
      `insert into events (id, system_id, name, start_date, status, format, tier, participants, rounds, country, online, content_hash)
       values (?, 't9a', ?, ?, 'completed', ?, ?, ?, ?, ?, 0, 'x')`,
    );
    const entry = db.prepare(
      `insert into entries (event_id, player_id, faction_id, list_id) values (?, ?, ?, ?)`,
    );
    const game = db.prepare(
      `insert into games (id, event_id, round, map, deployment, primary_objective, content_hash) values (?, ?, ?, ?, ?, ?, 'x')`,
    );
    const side = db.prepare(
      `insert into sides (game_id, side, player_id, faction_id, score, result, first_turn, primary_achieved, list_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const list = db.prepare(`insert into lists (id, points) values (?, 4500)`);
    const unit = db.prepare(
      `insert into list_units (list_id, unit_index, name, category) values (?, ?, ?, 'Core')`,
    );
    const option = db.prepare(
      `insert into list_options (list_id, unit_index, option_index, name, type) values (?, ?, 0, ?, 'Magic Items')`,
    );
    const firstDay = Math.floor(Date.UTC(2020, 0, 1) / 86_400_000);
    const expectedEvents = GAMES / ((38 / 2) * ROUNDS);
    let listNo = 0;
    const makeList = (f: string): string | null => {
      if (r() >= LIST_SHARE) return null;
      const id = `L${String(listNo++).padStart(8, '0')}`;
      list.run(id);
      for (let u = 0; u < 6; u++) {
        unit.run(id, u, `${f} unit ${Math.floor(r() * 25)}`);
        if (u < 4) option.run(id, u, `Item ${Math.floor(r() * 120)}`);
      }
      return id;
    };
    let g = 0;
    for (let e = 0; g < GAMES; e++) {
      const eventId = `E${String(e).padStart(6, '0')}`;
      const day = firstDay + Math.min(6 * 365 - 1, Math.floor((e / expectedEvents) * 6 * 365));
      const participants = 8 + 2 * Math.floor(r() * 31);
      event.run(
        eventId,
        `Event ${e}`,
        dateOf(day),
        r() < 0.85 ? 'singles' : 'teams',
        r() < 0.1 ? 'satellite' : 'standard',
        participants,
        ROUNDS,
        pick(COUNTRIES),
      );
      const chosen = new Set<number>();
      while (chosen.size < participants) chosen.add(Math.floor(r() * PLAYERS));
      const entrants = [...chosen].map((p) => {
        const f = r() < 0.7 ? mainFaction[p] : pick(FACTIONS);
        const listId = makeList(f);
        entry.run(eventId, `P${p}`, f, listId);
        return { id: `P${p}`, faction: f, list: listId };
      });
      for (let round = 1; round <= ROUNDS && g < GAMES; round++) {
        const deployment = pick(DEPLOYMENTS);
        const primary = pick(PRIMARIES);
        for (let i = entrants.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          [entrants[i], entrants[j]] = [entrants[j], entrants[i]];
        }
        for (let t = 0; t + 1 < entrants.length && g < GAMES; t += 2, g++) {
          const a = entrants[t];
          const b = entrants[t + 1];
          const gameId = `G${String(g).padStart(8, '0')}`;
          game.run(gameId, eventId, round, pick(MAPS), deployment, primary);
          const sa = Math.floor(r() * 21);
          const sb = 20 - sa;
          const ft = r() < 0.5 ? 1 : 0;
          const prim = r();
          const result = (x: number, y: number) => (x > y ? 'win' : x < y ? 'loss' : 'draw');
          side.run(gameId, 0, a.id, a.faction, sa, result(sa, sb), ft, prim < 0.4 ? 1 : 0, a.list);
          side.run(
            gameId,
            1,
            b.id,
            b.faction,
            sb,
            result(sb, sa),
            1 - ft,
            prim > 0.7 ? 1 : 0,
            b.list,
          );
        }
      }
    }
    db.prepare(`update meta set value = '1' where key = 'data_version'`).run();
  });
  insertAll();
  for (const { sql } of indexes) db.exec(sql);
  db.exec('analyze');
  db.close();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function time(fn: () => unknown, runs: number): { median: number; p99: number } {
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

interface Case {
  name: string;
  filter: CommonFilterInput;
  sqlWhere: string;
}

const CASES: Case[] = [
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

const ROUTES: Array<{
  route: string;
  engine: (snapshot: Snapshot, filter: CommonFilterInput) => unknown;
  sql: (where: string) => string;
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
    sql: (w) => `select s.faction_id, count(*), avg(s.score),
      sum(case when o.faction_id <> s.faction_id then 1 else 0 end),
      sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end),
      sum(case when o.faction_id <> s.faction_id and s.result = 'draw' then 1 else 0 end),
      count(distinct s.player_id),
      avg(case when s.first_turn = 1 then s.score end)
      ${SCOPE(w)} group by s.faction_id`,
  },
  {
    route: 'army-matchup',
    engine: (s, f) =>
      armyMatchup(s, { ...normaliseCommonFilter(s, f), factions: [], opponents: [], minGames: 0 }),
    sql: (
      w,
    ) => `select s.faction_id, o.faction_id, count(*), sum(case when s.result = 'win' then 1 else 0 end),
      sum(case when s.result = 'draw' then 1 else 0 end), avg(s.score) ${SCOPE(w)} group by s.faction_id, o.faction_id`,
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
    sql: (w) => `select i.category, i.name, count(*), count(distinct s.game_id || ':' || s.side),
      sum(case when o.faction_id <> s.faction_id and s.result = 'win' then 1 else 0 end), avg(s.score)
      from sides s join sides o on o.game_id = s.game_id and o.side <> s.side
      join games g on g.id = s.game_id join events e on e.id = g.event_id
      join (select list_id, 'unit' as category, lower(name) as name from list_units
            union all select list_id, lower(type), lower(name) from list_options) i on i.list_id = s.list_id
      where ${w} group by i.category, i.name`,
  },
  {
    route: 'scenario',
    engine: (s, f) =>
      scenarioCatalogue(s, {
        ...normaliseCommonFilter(s, f),
        kinds: normaliseKinds(undefined),
        search: null,
      }),
    sql: (
      w,
    ) => `select 'map', g.map, count(*), min(e.start_date), max(e.start_date) from games g join events e on e.id = g.event_id where ${w} group by g.map
      union all select 'deployment', g.deployment, count(*), min(e.start_date), max(e.start_date) from games g join events e on e.id = g.event_id where ${w} group by g.deployment
      union all select 'primary', g.primary_objective, count(*), min(e.start_date), max(e.start_date) from games g join events e on e.id = g.event_id where ${w} group by g.primary_objective`,
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
    sql: (w) => `select g.primary_objective, count(*),
      sum(case when s.result = 'win' then 1 when s.result = 'draw' then 0.5 else 0 end), avg(s.score),
      sum(case when s.primary_achieved = 1 and o.primary_achieved = 0 then 1 else 0 end),
      sum(case when s.primary_achieved = 0 and o.primary_achieved = 1 then 1 else 0 end)
      ${SCOPE(w)} and s.first_turn = 1 group by g.primary_objective`,
  },
];

async function main(): Promise<void> {
  // BENCH_DB keeps the generated file for reruns (development); by default a temp file is used.
  const kept = process.env.BENCH_DB;
  const dir = mkdtempSync(join(tmpdir(), 'muster-bench-'));
  const file = kept ?? join(dir, 'bench.db');
  try {
    console.log(
      `# Muster engine benchmark: ${GAMES.toLocaleString('en')} games, node ${process.version}`,
    );
    let t = performance.now();
    if (kept === undefined || !existsSync(kept)) await generate(file);
    console.log(`generated into SQLite in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const benchStarted = t;

    const store = await openMigratedStore(`sqlite:${file}`);
    try {
      global.gc?.();
      const heapBefore = process.memoryUsage();
      t = performance.now();
      const snapshot = await loadSnapshot(store);
      const loadMs = performance.now() - t;
      global.gc?.();
      const heapAfter = process.memoryUsage();
      console.log(
        `snapshot: ${snapshot.games.toLocaleString('en')} games, ${snapshot.sides.toLocaleString('en')} sides, ` +
          `${snapshot.lists.toLocaleString('en')} lists, ${snapshot.items.length} items; load ${(loadMs / 1000).toFixed(1)} s; ` +
          `typed arrays ${(snapshot.bytes / 2 ** 20).toFixed(0)} MiB; heap+external growth ` +
          `${((heapAfter.heapUsed + heapAfter.arrayBuffers - heapBefore.heapUsed - heapBefore.arrayBuffers) / 2 ** 20).toFixed(0)} MiB` +
          `${global.gc === undefined ? ' (run with --expose-gc for a settled figure)' : ''}`,
      );

      const db = new SQLite(file, { readonly: true });
      const runs = Number(process.env.BENCH_RUNS ?? 200);
      const sqlRuns = Number(process.env.BENCH_SQL_RUNS ?? 3);
      // The per-snapshot pre-aggregates are built on a route's first call: time that apart.
      console.log('');
      console.log('first call per route (builds its per-snapshot pre-aggregates):');
      for (const route of ROUTES) {
        t = performance.now();
        route.engine(snapshot, {});
        console.log(`  ${route.route}: ${(performance.now() - t).toFixed(0)} ms`);
      }
      global.gc?.();
      const heapCubes = process.memoryUsage();
      console.log(
        `heap+external after pre-aggregates: ${((heapCubes.heapUsed + heapCubes.arrayBuffers) / 2 ** 20).toFixed(0)} MiB`,
      );
      console.log('');
      console.log(
        '| route | filter | engine median ms | engine p99 ms | SQL median ms | SQL / engine |',
      );
      console.log('|---|---|---:|---:|---:|---:|');
      for (const c of CASES) {
        // The floor every route pays: normalise the filter, resolve the scope, count the sample.
        const floor = time(() => {
          const filter = normaliseCommonFilter(snapshot, c.filter);
          return sampleOf(snapshot, resolveScope(snapshot, filter));
        }, runs);
        console.log(
          `| (filter + sample only) | ${c.name} | ${floor.median.toFixed(3)} | ${floor.p99.toFixed(3)} | | |`,
        );
      }
      for (const route of ROUTES) {
        for (const c of CASES) {
          const engine = time(() => route.engine(snapshot, c.filter), runs);
          const statement = db.prepare(route.sql(c.sqlWhere));
          const sqlTime = time(() => statement.all(), sqlRuns);
          console.log(
            `| ${route.route} | ${c.name} | ${engine.median.toFixed(2)} | ${engine.p99.toFixed(2)} | ` +
              `${sqlTime.median.toFixed(0)} | ${(sqlTime.median / engine.median).toFixed(0)}x |`,
          );
        }
      }
      db.close();
      await benchHttp(snapshot, store);
    } finally {
      await store.close();
    }
    console.log('');
    console.log(`bench total ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
