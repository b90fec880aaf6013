/**
 * Writes events with their entries, and games with their sides and lists
 * (docs/import-formats.md#idempotence): records are compared by content hash, unchanged ones are
 * left alone, changed ones replace their previous version whole.
 */
import { createHash } from 'node:crypto';
import type { Insertable, Transaction } from 'kysely';
import type { ArmyList, Event } from '../domain/model.ts';
import type { ImportCounts, ValidBatch, ValidGame } from '../domain/import-batch.ts';
import { UNPLAYED_RESULT, isUnplayed } from '../domain/unplayed-game.ts';
import { contentHash } from './content-hash.ts';
import { RowBuffer, addList, bool, chunkedIds, deleteLists, insertChunked } from './insert-rows.ts';
import type { ListRows } from './insert-rows.ts';
import { readLists } from './read-export.ts';
import type { Database } from './schema.ts';

function eventRow(
  event: Omit<Event, 'entries' | 'games'>,
  hash: string,
): Insertable<Database['events']> {
  return {
    id: event.id,
    system_id: event.system,
    name: event.name,
    start_date: event.start,
    end_date: event.end ?? null,
    status: event.status,
    format: event.format,
    tier: event.tier,
    qualifies_for: event.qualifiesFor ?? null,
    slots: event.slots ?? null,
    participants: event.participants ?? null,
    capacity: event.capacity ?? null,
    rounds: event.rounds ?? null,
    points_limit: event.pointsLimit ?? null,
    rules_version: event.rulesVersion ?? null,
    team_score_cap: event.teamScoreCap ?? null,
    country: event.country ?? null,
    region: event.region ?? null,
    city: event.city ?? null,
    venue: event.venue ?? null,
    lat: event.location?.lat ?? null,
    lon: event.location?.lon ?? null,
    online: bool(event.online),
    url: event.url ?? null,
    registration_url: event.registrationUrl ?? null,
    content_hash: hash,
  };
}

async function storedHashes(
  trx: Transaction<Database>,
  table: 'events' | 'games',
  ids: string[],
): Promise<Map<string, string>> {
  const rows = await chunkedIds(ids, (chunk) =>
    trx.selectFrom(table).select(['id', 'content_hash']).where('id', 'in', chunk).execute(),
  );
  return new Map(rows.map((r) => [r.id, r.content_hash]));
}

/**
 * Deletes an event's stored entries with their lists; returns the content hash of each list it
 * deleted, by list id, so that a list written again the same is counted unchanged.
 */
async function deleteEntries(
  trx: Transaction<Database>,
  eventId: string,
): Promise<Map<string, string>> {
  const oldLists = await trx
    .selectFrom('entries')
    .select('list_id')
    .where('event_id', '=', eventId)
    .where('list_id', 'is not', null)
    .execute();
  const ids = oldLists.map((l) => l.list_id as string);
  const stored = ids.length === 0 ? new Map<string, ArmyList>() : await readLists(trx, ids);
  await deleteLists(trx, ids);
  await trx.deleteFrom('entries').where('event_id', '=', eventId).execute();
  return new Map([...stored].map(([id, list]) => [id, contentHash(list)]));
}

/** Replaces an event's stored entries (and their lists) by the batch's. */
async function replaceEntries(
  trx: Transaction<Database>,
  e: ValidBatch['events'][number],
  isNew: boolean,
  counts: ImportCounts,
  listRows: ListRows,
  entryRows: Insertable<Database['entries']>[],
): Promise<void> {
  if (e.entries === null) return;
  // A new event has no stored entries: skip the reads and deletes (two round trips per event).
  const stored = isNew ? new Map<string, string>() : await deleteEntries(trx, e.event.id);
  for (const entry of e.entries) {
    const listId = entry.list ? `e:${e.event.id}:${entry.player}` : null;
    if (entry.list && listId) {
      addList(listRows, listId, entry.list);
      // A list stored before is updated only when it changed; one attached now is imported.
      const old = stored.get(listId);
      const kind =
        old === undefined ? 'imported' : old === contentHash(entry.list) ? 'unchanged' : 'updated';
      counts.lists[kind]++;
    }
    entryRows.push({
      event_id: e.event.id,
      player_id: entry.player,
      faction_id: entry.faction ?? null,
      subfaction_id: entry.subfaction ?? null,
      team: entry.team ?? null,
      placement: entry.placement ?? null,
      list_id: listId,
    });
  }
}

/** Writes new and changed events; returns the entry rows to insert after them. */
export async function writeEvents(
  trx: Transaction<Database>,
  events: ValidBatch['events'],
  counts: ImportCounts,
  listRows: ListRows,
): Promise<Insertable<Database['entries']>[]> {
  const hashes = await storedHashes(
    trx,
    'events',
    events.map((e) => e.event.id),
  );
  const entryRows: Insertable<Database['entries']>[] = [];
  // New events go in as multi-row inserts; their entries and games are inserted after them.
  const newRows: Insertable<Database['events']>[] = [];
  for (const e of events) {
    // Entries are a set (one per player): their order in a file says nothing, so it does not
    // count as a change (an export lists them by player).
    const entries =
      e.entries &&
      [...e.entries].sort((a, b) => (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
    const hash = contentHash({ event: e.event, entries });
    const old = hashes.get(e.event.id);
    if (old === hash) {
      counts.events.unchanged++;
      continue;
    }
    const row = eventRow(e.event, hash);
    if (old === undefined) {
      newRows.push(row);
      counts.events.imported++;
    } else {
      const { id: _id, ...rest } = row;
      await trx.updateTable('events').set(rest).where('id', '=', e.event.id).execute();
      counts.events.updated++;
    }
    await replaceEntries(trx, e, old === undefined, counts, listRows, entryRows);
  }
  await insertChunked(trx, 'events', newRows);
  return entryRows;
}

const GAME_COLUMNS = [
  'id',
  'event_id',
  'round',
  'table_no',
  'scenario',
  'map',
  'deployment',
  'primary_objective',
  'secondaries',
  'content_hash',
  'played',
] as const;

const SIDE_COLUMNS = [
  'game_id',
  'side',
  'player_id',
  'faction_id',
  'subfaction_id',
  'score',
  'result',
  'first_turn',
  'primary_achieved',
  'secondary',
  'secondary_achieved',
  'list_id',
] as const;

export interface GameRows {
  games: RowBuffer<'games'>;
  sides: RowBuffer<'sides'>;
  /** Ids of stored games that changed: their old rows go before the new ones are inserted. */
  replaced: string[];
}

function addGameRows(
  rows: GameRows,
  listRows: ListRows,
  game: ValidGame['game'],
  eventId: string,
  hash: string,
): void {
  const s = game.scenario;
  const unplayed = isUnplayed(game);
  // In the order of GAME_COLUMNS and SIDE_COLUMNS.
  rows.games.values.push(
    game.id,
    eventId,
    game.round ?? null,
    game.table ?? null,
    s?.name ?? null,
    s?.map ?? null,
    s?.deployment ?? null,
    s?.primary ?? null,
    s?.secondaries && s.secondaries.length > 0 ? JSON.stringify(s.secondaries) : null,
    hash,
    unplayed ? 0 : 1,
  );
  for (let i = 0; i < game.sides.length; i++) {
    const side = game.sides[i];
    const listId = side.list ? `g:${game.id}:${i}` : null;
    if (side.list && listId) addList(listRows, listId, side.list);
    rows.sides.values.push(
      game.id,
      i,
      side.player ?? null,
      side.faction,
      side.subfaction ?? null,
      side.score ?? null,
      unplayed ? UNPLAYED_RESULT : (side.result as string),
      bool(side.firstTurn),
      bool(side.primaryAchieved),
      side.secondary ?? null,
      bool(side.secondaryAchieved),
      listId,
    );
  }
}

/** The rows of new and changed games, counting unchanged ones. */
export async function gameRowsFor(
  trx: Transaction<Database>,
  events: ValidBatch['events'],
  counts: ImportCounts,
  listRows: ListRows,
): Promise<GameRows> {
  const ids: string[] = [];
  for (const e of events) for (const g of e.games) ids.push(g.game.id);
  const hashes = await storedHashes(trx, 'games', ids);
  const rows: GameRows = {
    games: new RowBuffer('games', GAME_COLUMNS),
    sides: new RowBuffer('sides', SIDE_COLUMNS),
    replaced: [],
  };
  for (const e of events) {
    const eventId = e.event.id;
    for (const { game } of e.games) {
      // Games are built key by key in validation, so plain JSON is already canonical.
      const hash = createHash('sha1').update(eventId).update(JSON.stringify(game)).digest('hex');
      const old = hashes.get(game.id);
      let lists = 0;
      for (const side of game.sides) if (side.list) lists++;
      if (old === hash) {
        counts.games.unchanged++;
        counts.lists.unchanged += lists;
        continue;
      }
      const kind = old === undefined ? 'imported' : 'updated';
      counts.games[kind]++;
      counts.lists[kind] += lists;
      if (old !== undefined) rows.replaced.push(game.id);
      addGameRows(rows, listRows, game, eventId, hash);
    }
  }
  return rows;
}

/** Deletes the stored version of changed games with their sides and lists. */
export async function deleteGames(trx: Transaction<Database>, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const oldLists = await trx
      .selectFrom('sides')
      .select('list_id')
      .where('game_id', 'in', chunk)
      .where('list_id', 'is not', null)
      .execute();
    await deleteLists(
      trx,
      oldLists.map((l) => l.list_id as string),
    );
    await trx.deleteFrom('sides').where('game_id', 'in', chunk).execute();
    await trx.deleteFrom('games').where('id', 'in', chunk).execute();
  }
}
