/**
 * The read side the snapshot loader needs (DESIGN.md §2 "snapshot"): every fact of completed
 * events, read in key-ordered pages so that a million games never sit in one result set.
 * Plain Kysely, the same SQL on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface SystemFact {
  id: string;
  name: string;
  score_min: number;
  score_max: number;
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

/** One side of one game of a completed event, with its game's fields. */
export interface SideFact {
  game_id: string;
  event_id: string;
  round: number | null;
  scenario: string | null;
  map: string | null;
  deployment: string | null;
  primary_objective: string | null;
  secondaries: string | null;
  side: number;
  player_id: string | null;
  faction_id: string;
  subfaction_id: string | null;
  score: number | null;
  result: string;
  first_turn: number | null;
  primary_achieved: number | null;
  secondary: string | null;
  secondary_achieved: number | null;
  list_id: string | null;
}

/** One unit or option of a list: category is "unit" for units, the option type otherwise. */
export interface ListItemFact {
  list_id: string;
  name: string;
  category: string;
}

export const DEFAULT_PAGE_SIZE = 20_000;

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

/**
 * Sides of completed games, a page of games at a time: the page is a key range (after, upTo]
 * of game ids so that both backends walk the primary key instead of an OFFSET.
 */
export async function* readCompletedSides(
  db: Kysely<Database>,
  pageSize = DEFAULT_PAGE_SIZE,
): AsyncGenerator<SideFact[]> {
  let after: string | null = null;
  for (;;) {
    let keys = db.selectFrom('games').select('id').orderBy('id').limit(pageSize);
    if (after !== null) keys = keys.where('id', '>', after);
    const page = await keys.execute();
    if (page.length === 0) return;
    const upTo = page[page.length - 1].id;
    let rows = db
      .selectFrom('sides')
      .innerJoin('games', 'games.id', 'sides.game_id')
      .innerJoin('events', 'events.id', 'games.event_id')
      .select([
        'sides.game_id',
        'games.event_id',
        'games.round',
        'games.scenario',
        'games.map',
        'games.deployment',
        'games.primary_objective',
        'games.secondaries',
        'sides.side',
        'sides.player_id',
        'sides.faction_id',
        'sides.subfaction_id',
        'sides.score',
        'sides.result',
        'sides.first_turn',
        'sides.primary_achieved',
        'sides.secondary',
        'sides.secondary_achieved',
        'sides.list_id',
      ])
      .where('events.status', '=', COMPLETED)
      .where('sides.game_id', '<=', upTo)
      .orderBy('sides.game_id')
      .orderBy('sides.side');
    if (after !== null) rows = rows.where('sides.game_id', '>', after);
    yield await rows.execute();
    after = upTo;
    if (page.length < pageSize) return;
  }
}

/**
 * Every unit and option of every list, a page of lists at a time (same key-range paging as
 * readCompletedSides). Units come out as category "unit", options as their option type.
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
