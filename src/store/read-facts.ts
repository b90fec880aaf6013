/**
 * The read side the snapshot loader needs (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * every fact of completed events, read in key-ordered pages so that a million games never sit
 * in one result set. Plain Kysely, the same SQL text on SQLite and PostgreSQL; the tables of a
 * million rows come back as arrays (GameRow, SideRow) rather than objects.
 */
import { sql } from 'kysely';
import { UNPLAYED_RESULT } from '../domain/unplayed-game.ts';
import type { Store } from './store.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

/** What the paged readers use of a store: Kysely to build queries, selectRows to run them. */
export type FactReader = Pick<Store, 'db' | 'selectRows'>;

export interface SystemFact {
  id: string;
  name: string;
  score_min: number | null;
  score_max: number | null;
  score_total: number | null;
  margin_bands: string | null;
  demo: number;
  placement_rule: string | null;
  team_rule: string | null;
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
  team_score_cap: number | null;
  country: string | null;
  online: number | null;
}

/** One entry (a player at an event), as an array in this order: one per player per event. */
export type EntryRow = readonly [
  eventId: string,
  playerId: string,
  factionId: string | null,
  placement: number | null,
  listId: string | null,
  team: string | null,
];

/**
 * One game's fields as an array in this order: the loader reads ten million of them
 * (Store.selectRows). The rare fields (scenario, secondaries) are null for most games and cost
 * almost nothing to send as null; reading them with a second query per page instead read every
 * page's games twice.
 */
export type GameRow = readonly [
  id: string,
  eventId: string,
  round: number | null,
  map: string | null,
  deployment: string | null,
  primaryObjective: string | null,
  scenario: string | null,
  secondaries: string | null,
];

/** Result codes inside SideFact.packed (`result` folded in SQL). */
export const SIDE_WIN = 2;
export const SIDE_DRAW = 1;
export const SIDE_LOSS = 0;

/**
 * One side of a game, without the game's fields, as an array in this order. The small columns
 * travel as one integer, `packed` = first_turn + 3 primary_achieved + 9 secondary_achieved +
 * 27 result + 81 side, where each 0/1 flag is coded 0 for null, 1 for false, 2 for true and
 * result is a SIDE_* code: every value of a row costs the driver a call, so fewer load faster.
 * The rare fields (subfaction, secondary) come last, null for most sides.
 */
export type SideRow = readonly [
  gameId: string,
  playerId: string | null,
  factionId: string,
  score: number | null,
  packed: number,
  listId: string | null,
  subfactionId: string | null,
  secondary: string | null,
];

/** A page of games in id order and the sides of exactly those games in (game_id, side) order. */
export interface GamePage {
  games: GameRow[];
  sides: SideRow[];
}

/**
 * A page of lists' contents: their units (category "unit") and their options (category the
 * option type), each in key order.
 */
export interface ListItemPage {
  units: Array<readonly [listId: string, name: string]>;
  options: Array<readonly [listId: string, name: string, type: string]>;
  /** List-level choices (docs/data-model.md#lists). */
  configuration: Array<readonly [listId: string, name: string, type: string]>;
}

/**
 * Rows per page. Small enough that a page's rows die young: a larger page outlives the young
 * generation's scavenges and is promoted, which made a whole read markedly slower, while the
 * extra round trips of smaller pages cost PostgreSQL nothing measurable
 * (bench/results/comment-figures-2026-11-28.md has the figures).
 */
export const DEFAULT_PAGE_SIZE = 4_000;

const COMPLETED = 'completed';

export async function readSystems(target: StoreOrHandle): Promise<SystemFact[]> {
  const db = handleOf(target);
  return db
    .selectFrom('systems')
    .select([
      'id',
      'name',
      'score_min',
      'score_max',
      'score_total',
      'margin_bands',
      'demo',
      'placement_rule',
      'team_rule',
    ])
    .orderBy('id')
    .execute();
}

export async function readFactions(target: StoreOrHandle): Promise<FactionFact[]> {
  const db = handleOf(target);
  return db
    .selectFrom('factions')
    .select(['system_id', 'id', 'name', 'parent_id'])
    .orderBy('system_id')
    .orderBy('id')
    .execute();
}

export async function readScenarios(target: StoreOrHandle): Promise<ScenarioFact[]> {
  const db = handleOf(target);
  return db
    .selectFrom('scenarios')
    .select(['system_id', 'kind', 'name', 'description'])
    .orderBy('system_id')
    .orderBy('kind')
    .orderBy('name')
    .execute();
}

/** Completed events only: upcoming ones are for upcoming-satellites, never for statistics. */
export async function readCompletedEvents(target: StoreOrHandle): Promise<EventFact[]> {
  const db = handleOf(target);
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
      'team_score_cap',
      'country',
      'online',
    ])
    .where('status', '=', COMPLETED)
    .orderBy('id')
    .execute();
}

/**
 * Every entry, a page at a time in (event, player) key order, so that millions of entries never
 * sit in one result set. Entries of events that are not completed are returned too (few: the
 * upcoming satellites' registrations); the caller drops them with the events it did not load,
 * which costs less than joining the events on every page (SQLite builds a Bloom filter over
 * them for each page).
 */
export async function* readEntries(
  store: FactReader,
  pageSize = 4 * DEFAULT_PAGE_SIZE,
): AsyncGenerator<EntryRow[]> {
  let after: EntryRow | null = null;
  for (;;) {
    let query = store.db
      .selectFrom('entries')
      .select(['event_id', 'player_id', 'faction_id', 'placement', 'list_id', 'team'])
      .orderBy('event_id')
      .orderBy('player_id')
      .limit(pageSize);
    if (after !== null) {
      const [event, player] = after;
      // A row-value comparison walks the (event_id, player_id) primary key on both backends.
      query = query.where((eb) =>
        eb(eb.refTuple('event_id', 'player_id'), '>', eb.tuple(event, player)),
      );
    }
    const page = await store.selectRows<EntryRow>(query);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1];
  }
}

function flagDigit(column: string) {
  const c = sql.ref(column);
  return sql`(case when ${c} is null then 0 when ${c} <> 0 then 2 else 1 end)`;
}

const PACKED_SIDE = sql<number>`${flagDigit('first_turn')} + 3 * ${flagDigit('primary_achieved')} + 9 * ${flagDigit('secondary_achieved')} + 27 * (case result when 'win' then ${sql.lit(SIDE_WIN)} when 'draw' then ${sql.lit(SIDE_DRAW)} else ${sql.lit(SIDE_LOSS)} end) + 81 * side`;

/** A key range of games: ids after `after` (from the first when null) up to `upTo` (to the last when null). */
export interface GameKeyRange {
  readonly after: string | null;
  readonly upTo: string | null;
}

/**
 * The game ids that cut the games into `parts` key ranges of about the same number of games
 * (docs/architecture.md#the-snapshot-and-its-lifecycle): `parts - 1` ids, each range's last,
 * fewer when there are fewer games than parts.
 */
export async function gameKeySplits(store: FactReader, parts: number): Promise<string[]> {
  const { db } = store;
  const [[count]] = await store.selectRows<[number | string]>(
    db.selectFrom('games').select((eb) => eb.fn.countAll().as('n')),
  );
  const games = Number(count);
  const splits: string[] = [];
  for (let k = 1; k < parts; k++) {
    const offset = Math.floor((games * k) / parts) - 1;
    if (offset < 0) continue;
    const rows = await store.selectRows<[string]>(
      db.selectFrom('games').select('id').orderBy('id').limit(1).offset(offset),
    );
    if (rows.length === 1 && rows[0][0] !== splits[splits.length - 1]) splits.push(rows[0][0]);
  }
  return splits;
}

/** The key ranges between `splits` (gameKeySplits), in key order, covering every game. */
export function gameKeyRanges(splits: readonly string[]): GameKeyRange[] {
  return [null, ...splits].map((after, i) => ({ after, upTo: splits[i] ?? null }));
}

/**
 * Games with their sides, a page of games at a time. Each page is a key range (after, upTo] of
 * game ids: the games query walks the primary key with a LIMIT and the sides query walks the
 * sides primary key (game_id, side), so neither needs a sort, and game fields travel once per game
 * rather than once per side. Games of events that are not completed are returned too; the
 * caller drops them with the events it did not load (it needs the event lookup anyway). With
 * `range`, only the games in that key range.
 *
 * The next page is asked for before this one is handed over: on PostgreSQL the server reads and
 * sends it while the caller builds from this one, where asking only when the caller is done left
 * one of the two sides idle at a time (docs/architecture.md#the-snapshot-and-its-lifecycle). On
 * SQLite, whose driver answers synchronously, it changes only the order of the same work.
 */
export async function* readGames(
  store: FactReader,
  pageSize = DEFAULT_PAGE_SIZE,
  range: GameKeyRange = { after: null, upTo: null },
): AsyncGenerator<GamePage> {
  let next = inFlight(readGamePage(store, pageSize, range.after, range.upTo));
  for (;;) {
    const page = await next;
    if (page === null) return;
    const last = page.games.length < pageSize;
    if (!last) {
      next = inFlight(
        readGamePage(store, pageSize, page.games[page.games.length - 1][0], range.upTo),
      );
    }
    yield page;
    if (last) return;
  }
}

/**
 * `promise`, marked as handled: a page asked for ahead may fail while the caller is busy or
 * after it has stopped reading; the failure still reaches whoever awaits it, but is never an
 * unhandled rejection that ends the process.
 */
function inFlight<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** The games after `after` (up to `upTo` when set), at most `pageSize`, with their sides. */
async function readGamePage(
  store: FactReader,
  pageSize: number,
  after: string | null,
  rangeUpTo: string | null,
): Promise<GamePage | null> {
  const { db } = store;
  let gameQuery = db
    .selectFrom('games')
    .select([
      'id',
      'event_id',
      'round',
      'map',
      'deployment',
      'primary_objective',
      'scenario',
      'secondaries',
    ])
    // Unplayed games stay out of the columns (src/store/read-unplayed.ts reads them).
    .where('played', '=', 1)
    .orderBy('id')
    .limit(pageSize);
  if (after !== null) gameQuery = gameQuery.where('id', '>', after);
  if (rangeUpTo !== null) gameQuery = gameQuery.where('id', '<=', rangeUpTo);
  const games = await store.selectRows<GameRow>(gameQuery);
  if (games.length === 0) return null;
  let sideQuery = db
    .selectFrom('sides')
    .select([
      'game_id',
      'player_id',
      'faction_id',
      'score',
      PACKED_SIDE.as('packed'),
      'list_id',
      'subfaction_id',
      'secondary',
    ])
    .where('game_id', '<=', games[games.length - 1][0])
    .where('result', '<>', UNPLAYED_RESULT)
    .orderBy('game_id')
    .orderBy('side');
  if (after !== null) sideQuery = sideQuery.where('game_id', '>', after);
  return { games, sides: await store.selectRows<SideRow>(sideQuery) };
}

/**
 * Every unit, option and configuration choice of every list, a page of lists at a time (same key-range paging as
 * readGames).
 */
export async function* readListItems(
  store: FactReader,
  pageSize = DEFAULT_PAGE_SIZE,
): AsyncGenerator<ListItemPage> {
  const { db } = store;
  let after: string | null = null;
  for (;;) {
    let keys = db.selectFrom('lists').select('id').orderBy('id').limit(pageSize);
    if (after !== null) keys = keys.where('id', '>', after);
    const page = await store.selectRows<[string]>(keys);
    if (page.length === 0) return;
    const upTo = page[page.length - 1][0];
    let units = db
      .selectFrom('list_units')
      .select(['list_id', 'name'])
      .where('list_id', '<=', upTo);
    let options = db
      .selectFrom('list_options')
      .select(['list_id', 'name', 'type'])
      .where('list_id', '<=', upTo);
    let configuration = db
      .selectFrom('list_configuration')
      .select(['list_id', 'name', 'type'])
      .where('list_id', '<=', upTo);
    if (after !== null) {
      units = units.where('list_id', '>', after);
      options = options.where('list_id', '>', after);
      configuration = configuration.where('list_id', '>', after);
    }
    const [unitRows, optionRows, configurationRows] = await Promise.all([
      store.selectRows<ListItemPage['units'][number]>(units),
      store.selectRows<ListItemPage['options'][number]>(options),
      store.selectRows<ListItemPage['configuration'][number]>(configuration),
    ]);
    yield { units: unitRows, options: optionRows, configuration: configurationRows };
    after = upTo;
    if (page.length < pageSize) return;
  }
}
