/**
 * The benchmark's data set (`npm run bench`): deterministic, tournament-shaped games written
 * into a SQLite file with bulk inserts, and copied into a PostgreSQL schema for the SQL baseline.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openMigratedStore } from '../src/store/store.ts';
import { mulberry32 } from '../src/domain/mulberry32.ts';

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
export async function generate(file: string, GAMES: number): Promise<void> {
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
  const r = mulberry32(42);
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

/** Tables in foreign-key order, as the migrations create them. */
const COPY_TABLES = [
  'systems',
  'factions',
  'players',
  'events',
  'lists',
  'list_units',
  'list_options',
  'entries',
  'games',
  'sides',
];

const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

/** A value in COPY's text format (PostgreSQL, "COPY", File Formats: Text Format). */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]);
  if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
  return String(value);
}
/** The rows of a SQLite query as COPY text, 10,000 rows to a chunk. */
function* copyChunks(rows: Iterable<unknown[]>): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const row of rows) {
    chunk += `${row.map(copyText).join('\t')}\n`;
    if (++count === 10_000) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk !== '') yield chunk;
}

/**
 * Copies the generated SQLite data into a fresh PostgreSQL schema (the same migrations) with
 * COPY FROM STDIN, then analyses it, so the SQL baseline and the PostgreSQL runs of the server
 * have the same rows and indexes. Ten million games are about 45 million rows: multi-row
 * inserts took 25 minutes for the first 4 million entries, COPY takes minutes for all.
 */
export async function copyToPostgres(file: string, url: string, schema: string): Promise<void> {
  const source = new SQLite(file, { readonly: true });
  const games = source.prepare('select count(*) from games').pluck().get() as number;
  source.close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A kept data set (BENCH_DB) is copied once: the schema named for its size is reused.
    const present = await admin
      .query(`select count(*)::int as n from ${schema}.games`)
      .then((r) => (r.rows[0] as { n: number }).n)
      .catch(() => -1);
    if (present === games) return;
    await admin.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await admin.end();
  }
  const store = await openMigratedStore(url, { schema });
  await store.close();
  const db = new SQLite(file, { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set search_path to ${schema}`);
    await client.query('set synchronous_commit to off');
    // Generated rows that SQLite already holds with their keys: the foreign-key triggers, which
    // would look up every parent row again, are skipped for this session (superuser only).
    await client.query('set session_replication_role to replica');
    for (const table of COPY_TABLES) {
      const columns = (db.prepare(`select * from ${table} limit 1`).columns() ?? []).map(
        (c) => c.name,
      );
      if (columns.length === 0) continue;
      const rows = db.prepare(`select * from ${table}`).raw().iterate() as Iterable<unknown[]>;
      await client.query('begin');
      await pipeline(
        Readable.from(copyChunks(rows)),
        client.query(copyFrom(`copy ${table} (${columns.join(',')}) from stdin`)),
      );
      await client.query('commit');
    }
    await client.query('set session_replication_role to default');
    const version = db.prepare(`select value from meta where key = 'data_version'`).pluck().get();
    await client.query(`update meta set value = $1 where key = 'data_version'`, [version]);
    await client.query('analyze');
  } finally {
    await client.end();
    db.close();
  }
}
