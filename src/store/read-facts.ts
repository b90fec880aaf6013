/**
 * The read side the snapshot loader needs (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * every fact of completed
 * events, read in key-ordered pages so that a million games never sit in one result set.
 * Plain Kysely, the same SQL text on SQLite and PostgreSQL.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface SystemFact {
  id: string;
  name: string;
  score_min: number | null;
  score_max: number | null;
  score_total: number | null;
  margin_bands: string | null;
}

export interface FactionFact {
  system_id: string;
  id: string;
  name: string;
  parent_id: string | null;
}

export interface ScenarioFact {
  system_id: string;
  kind: string;
  name: string;
  description: string | null;
}

export interface EventFact {
  id: string;
  system_id: string;
  name: string;
  start_date: string;
  format: string;
  tier: string;
  participants: number | null;
  rounds: number | null;
  rules_version: string | null;
  country: string | null;
  online: number | null;
}

export interface EntryFact {
  event_id: string;
  player_id: string;
  faction_id: string | null;
  placement: number | null;
  list_id: string | null;
}

/** One game's fields that nearly every game has (the rare ones are in GameExtraFact). */
export interface GameFact {
  id: string;
  event_id: string;
  round: number | null;
  map: string | null;
  deployment: string | null;
  primary_objective: string | null;
}

/** The rarely set game fields, read only for games that have one of them. */
export interface GameExtraFact {
  id: string;
  scenario: string | null;
  secondaries: string | null;
}

/** Result codes inside SideFact.packed (`result` folded in SQL). */
export const SIDE_WIN = 2;
export const SIDE_DRAW = 1;
export const SIDE_LOSS = 0;

/**
 * One side of a game, without the game's fields. The small columns travel as one integer,
 * `packed` = first_turn + 3 primary_achieved + 9 secondary_achieved + 27 result + 81 side, where
 * each 0/1 flag is coded 0 for null, 1 for false, 2 for true and result is a SIDE_* code:
 * every column of a row costs the driver a property, so fewer columns load faster.
 */
export interface SideFact {
  game_id: string;
  player_id: string | null;
  faction_id: string;
  score: number | null;
  packed: number;
  list_id: string | null;
}

/** The rarely set side fields, read only for sides that have one of them. */
export interface SideExtraFact {
  game_id: string;
  side: number;
  subfaction_id: string | null;
  secondary: string | null;
}

/**
 * A page of games in id order and the sides of exactly those games in (game_id, side) order;
 * the extras are the subsequences of those with a rare field set, in the same order.
 */
export interface GamePage {
  games: GameFact[];
  gameExtras: GameExtraFact[];
  sides: SideFact[];
  sideExtras: SideExtraFact[];
}

/** One unit or option of a list: category is "unit" for units, the option type otherwise. */
export interface ListItemFact {
  list_id: string;
  name: string;
  category: string;
}

/**
 * Rows per page. Small enough that a page's row objects die young: at 20,000 a page outlived
 * the young generation's scavenges and was promoted, and reading a million games took 9.0 s on
 * SQLite against 5.4 s at 4,000 (PostgreSQL 9.2 s and 8.3 s at 2,000: no slower for the extra
 * round trips).
 */
export const DEFAULT_PAGE_SIZE = 4_000;

const COMPLETED = 'completed';

export async function readSystems(db: Kysely<Database>): Promise<SystemFact[]> {
  return db
    .selectFrom('systems')
    .select(['id', 'name', 'score_min', 'score_max', 'score_total', 'margin_bands'])
    .orderBy('id')
    .execute();
}

export async function readFactions(db: Kysely<Database>): Promise<FactionFact[]> {
  return db
    .selectFrom('factions')
    .select(['system_id', 'id', 'name', 'parent_id'])
    .orderBy('system_id')
    .orderBy('id')
    .execute();
}

export async function readScenarios(db: Kysely<Database>): Promise<ScenarioFact[]> {
  return db
    .selectFrom('scenarios')
    .select(['system_id', 'kind', 'name', 'description'])
    .orderBy('system_id')
    .orderBy('kind')
    .orderBy('name')
    .execute();
}

/** Completed events only: upcoming ones are for upcoming-satellites, never for statistics. */
export async function readCompletedEvents(db: Kysely<Database>): Promise<EventFact[]> {
  return db
    .selectFrom('events')
    .select([
      'id',
      'system_id',
      'name',
      'start_date',
      'format',
      'tier',
      'participants',
      'rounds',
      'rules_version',
      'country',
      'online',
    ])
    .where('status', '=', COMPLETED)
    .orderBy('id')
    .execute();
}

export async function readCompletedEntries(db: Kysely<Database>): Promise<EntryFact[]> {
  return db
    .selectFrom('entries')
    .innerJoin('events', 'events.id', 'entries.event_id')
    .select([
      'entries.event_id',
      'entries.player_id',
      'entries.faction_id',
      'entries.placement',
      'entries.list_id',
    ])
    .where('events.status', '=', COMPLETED)
    .orderBy('entries.event_id')
    .orderBy('entries.player_id')
    .execute();
}

function flagDigit(column: string) {
  const c = sql.ref(column);
  return sql`(case when ${c} is null then 0 when ${c} <> 0 then 2 else 1 end)`;
}

const PACKED_SIDE = sql<number>`${flagDigit('first_turn')} + 3 * ${flagDigit('primary_achieved')} + 9 * ${flagDigit('secondary_achieved')} + 27 * (case result when 'win' then ${sql.lit(SIDE_WIN)} when 'draw' then ${sql.lit(SIDE_DRAW)} else ${sql.lit(SIDE_LOSS)} end) + 81 * side`;

/**
 * Games with their sides, a page of games at a time. Each page is a key range (after, upTo] of
 * game ids: the games query walks the primary key with a LIMIT and the sides queries walk the
 * sides primary key (game_id, side), so none needs a sort, and game fields travel once per game
 * rather than once per side. Games of events that are not completed are returned too; the
 * caller drops them with the events it did not load (it needs the event lookup anyway).
 */
export async function* readGames(
  db: Kysely<Database>,
  pageSize = DEFAULT_PAGE_SIZE,
): AsyncGenerator<GamePage> {
  let after: string | null = null;
  for (;;) {
    let gameQuery = db
      .selectFrom('games')
      .select(['id', 'event_id', 'round', 'map', 'deployment', 'primary_objective'])
      .orderBy('id')
      .limit(pageSize);
    if (after !== null) gameQuery = gameQuery.where('id', '>', after);
    const games = await gameQuery.execute();
    if (games.length === 0) return;
    const upTo = games[games.length - 1].id;
    let gameExtraQuery = db
      .selectFrom('games')
      .select(['id', 'scenario', 'secondaries'])
      .where('id', '<=', upTo)
      .where((eb) => eb.or([eb('scenario', 'is not', null), eb('secondaries', 'is not', null)]))
      .orderBy('id');
    let sideQuery = db
      .selectFrom('sides')
      .select(['game_id', 'player_id', 'faction_id', 'score', PACKED_SIDE.as('packed'), 'list_id'])
      .where('game_id', '<=', upTo)
      .orderBy('game_id')
      .orderBy('side');
    let sideExtraQuery = db
      .selectFrom('sides')
      .select(['game_id', 'side', 'subfaction_id', 'secondary'])
      .where('game_id', '<=', upTo)
      .where((eb) => eb.or([eb('subfaction_id', 'is not', null), eb('secondary', 'is not', null)]))
      .orderBy('game_id')
      .orderBy('side');
    if (after !== null) {
      gameExtraQuery = gameExtraQuery.where('id', '>', after);
      sideQuery = sideQuery.where('game_id', '>', after);
      sideExtraQuery = sideExtraQuery.where('game_id', '>', after);
    }
    const [gameExtras, sides, sideExtras] = await Promise.all([
      gameExtraQuery.execute(),
      sideQuery.execute(),
      sideExtraQuery.execute(),
    ]);
    yield { games, gameExtras, sides, sideExtras };
    after = upTo;
    if (games.length < pageSize) return;
  }
}

/**
 * Every unit and option of every list, a page of lists at a time (same key-range paging as
 * readGames). Units come out as category "unit", options as their option type.
 */
export async function* readListItems(
  db: Kysely<Database>,
  pageSize = DEFAULT_PAGE_SIZE,
): AsyncGenerator<ListItemFact[]> {
  let after: string | null = null;
  for (;;) {
    let keys = db.selectFrom('lists').select('id').orderBy('id').limit(pageSize);
    if (after !== null) keys = keys.where('id', '>', after);
    const page = await keys.execute();
    if (page.length === 0) return;
    const upTo = page[page.length - 1].id;
    let units = db
      .selectFrom('list_units')
      .select(['list_id', 'name'])
      .where('list_id', '<=', upTo);
    let options = db
      .selectFrom('list_options')
      .select(['list_id', 'name', 'type'])
      .where('list_id', '<=', upTo);
    if (after !== null) {
      units = units.where('list_id', '>', after);
      options = options.where('list_id', '>', after);
    }
    const [unitRows, optionRows] = await Promise.all([units.execute(), options.execute()]);
    const items: ListItemFact[] = [];
    for (const u of unitRows) items.push({ list_id: u.list_id, name: u.name, category: 'unit' });
    for (const o of optionRows) items.push({ list_id: o.list_id, name: o.name, category: o.type });
    yield items;
    after = upTo;
    if (page.length < pageSize) return;
  }
}
