/**
 * Baselines for the NDJSON import's throughput (docs/operations.md#import-throughput), measured
 * in the same run as `muster import` so that its figure is also a ratio on a shared, noisy
 * machine. Run by bench/import-throughput.ts as a child process, one mode per run:
 *
 *   node bench/import-baseline.ts parse FILE
 *     reads the NDJSON file line by line and JSON.parses every line: the floor of any import.
 *   node bench/import-baseline.ts raw-insert FILE DB
 *     the same, and inserts each game's rows (game, sides, lists with units and options) into a
 *     freshly migrated SQLite store with prepared statements, one transaction per 20,000 games,
 *     without validation, content hashes or idempotence: what better-sqlite3 itself costs.
 *
 * Prints one JSON line: {"mode", "games", "seconds"} (seconds after start-up and migration).
 */
import { createReadStream, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { openMigratedStore } from '../src/store/store.ts';

interface BenchSide {
  player: string;
  faction: string;
  score: number;
  list?: {
    units: {
      name: string;
      category: string;
      cost: number;
      options: { name: string; type: string }[];
    }[];
  };
}
interface BenchDocument {
  events?: {
    id: string;
    system: string;
    name: string;
    start: string;
    games: { id: string; round: number; sides: BenchSide[] }[];
  }[];
}

/** The file's documents, one per line, parsed as they are read (memory: one chunk). */
async function* documents(file: string): AsyncGenerator<BenchDocument> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() as string;
    for (const line of lines) if (line !== '') yield JSON.parse(line) as BenchDocument;
  }
  if (rest !== '') yield JSON.parse(rest) as BenchDocument;
}

async function parseOnly(file: string): Promise<number> {
  let games = 0;
  for await (const d of documents(file)) for (const e of d.events ?? []) games += e.games.length;
  return games;
}

function statements(db: SQLite.Database) {
  const insert = (table: string, columns: string[]) =>
    db.prepare(
      `insert into ${table} (${columns.join(',')}) values (${columns.map(() => '?').join(',')})`,
    );
  return {
    system: db.prepare(`insert or ignore into systems (id, name) values (?, ?)`),
    faction: db.prepare(`insert or ignore into factions (system_id, id, name) values (?, ?, ?)`),
    player: db.prepare(`insert or ignore into players (id) values (?)`),
    event: insert('events', [
      'id',
      'system_id',
      'name',
      'start_date',
      'status',
      'format',
      'tier',
      'content_hash',
    ]),
    game: insert('games', ['id', 'event_id', 'round', 'content_hash']),
    side: insert('sides', [
      'game_id',
      'side',
      'player_id',
      'faction_id',
      'score',
      'result',
      'list_id',
    ]),
    list: insert('lists', ['id']),
    unit: insert('list_units', ['list_id', 'unit_index', 'name', 'category', 'cost']),
    option: insert('list_options', ['list_id', 'unit_index', 'option_index', 'name', 'type']),
  };
}

async function rawInsert(file: string, path: string): Promise<{ games: number; started: number }> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  await (await openMigratedStore(path)).close();
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const s = statements(db);
  const started = performance.now();
  let games = 0;
  db.exec('begin');
  for await (const d of documents(file)) {
    for (const e of d.events ?? []) {
      s.system.run(e.system, e.system);
      s.event.run(e.id, e.system, e.name, e.start, 'completed', 'singles', 'standard', '');
      for (const g of e.games) {
        s.game.run(g.id, e.id, g.round, '');
        g.sides.forEach((side, i) => {
          s.player.run(side.player);
          s.faction.run(e.system, side.faction, side.faction);
          const listId = side.list ? `g:${g.id}:${i}` : null;
          s.side.run(g.id, i, side.player, side.faction, side.score, 'win', listId);
          if (!side.list) return;
          s.list.run(listId);
          side.list.units.forEach((u, ui) => {
            s.unit.run(listId, ui, u.name, u.category, u.cost);
            u.options.forEach((o, oi) => s.option.run(listId, ui, oi, o.name, o.type));
          });
        });
        if (++games % 20_000 === 0) db.exec('commit; begin');
      }
    }
  }
  db.exec('commit');
  db.close();
  return { games, started };
}

const [mode, file, db] = process.argv.slice(2);
if (mode === 'parse') {
  const started = performance.now();
  const games = await parseOnly(file);
  console.log(JSON.stringify({ mode, games, seconds: (performance.now() - started) / 1000 }));
} else if (mode === 'raw-insert') {
  const { games, started } = await rawInsert(file, db);
  console.log(JSON.stringify({ mode, games, seconds: (performance.now() - started) / 1000 }));
} else {
  console.error('usage: import-baseline.ts parse FILE | raw-insert FILE DB');
  process.exitCode = 2;
}
