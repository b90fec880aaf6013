/**
 * Reads the store back as canonical records for `muster export` (docs/import-formats.md#export):
 * reference data whole, players and events in pages ordered by id, each event with its entries
 * and games (sides, scenario parts, lists), so that importing the records into an empty store
 * rebuilds the same data.
 */
import type { Kysely } from 'kysely';
import type {
  ArmyList,
  Entry,
  Event,
  Faction,
  Game,
  GameSystem,
  Player,
  Result,
  Scenario,
  Side,
} from '../domain/model.ts';
import { nameKey } from '../domain/normalize-name.ts';
import { UNPLAYED_RESULT } from '../domain/unplayed-game.ts';
import type { Database } from './schema.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));
const flag = (v: number | string | null): boolean | null => (v === null ? null : Number(v) === 1);

/** Which events to export: a system and a window of start dates, all optional. */
export interface ExportSelection {
  system?: string;
  from?: string;
  to?: string;
}

export interface ExportReference {
  systems: GameSystem[];
  factions: Faction[];
  scenarios: Scenario[];
}

/** Systems, factions with their aliases, and the scenario catalogue. */
export async function readExportReference(target: StoreOrHandle): Promise<ExportReference> {
  const db = handleOf(target);
  const systems = (await db.selectFrom('systems').selectAll().orderBy('id').execute()).map(
    (s): GameSystem => ({
      id: s.id,
      name: s.name,
      ...(s.score_min === null || s.score_max === null
        ? {}
        : {
            score: {
              min: Number(s.score_min),
              max: Number(s.score_max),
              total: num(s.score_total),
            },
          }),
      ...(s.margin_bands === null ? {} : { marginBands: JSON.parse(s.margin_bands) }),
      ...(Number(s.demo) === 1 ? { demo: true } : {}),
      ...(s.placement_rule === null ? {} : { placementRule: JSON.parse(s.placement_rule) }),
      ...(s.team_rule === null ? {} : { teamRule: JSON.parse(s.team_rule) }),
    }),
  );
  const aliases = new Map<string, string[]>();
  for (const a of await db.selectFrom('faction_aliases').selectAll().orderBy('alias').execute()) {
    const key = `${a.system_id}\u0000${a.faction_id}`;
    aliases.set(key, [...(aliases.get(key) ?? []), a.alias]);
  }
  const factionRows = await db
    .selectFrom('factions')
    .selectAll()
    .orderBy('system_id')
    .orderBy('id')
    .execute();
  // Parents before their subfactions, so a reader in order always knows the parent.
  factionRows.sort((a, b) => Number(a.parent_id !== null) - Number(b.parent_id !== null));
  const factions = factionRows.map((f): Faction => {
    const own = new Set([nameKey(f.id), nameKey(f.name)]);
    const extra = (aliases.get(`${f.system_id}\u0000${f.id}`) ?? []).filter((a) => !own.has(a));
    return {
      id: f.id,
      system: f.system_id,
      name: f.name,
      ...(f.parent_id === null ? {} : { parent: f.parent_id }),
      ...(extra.length > 0 ? { aliases: extra } : {}),
    };
  });
  const scenarios = (
    await db
      .selectFrom('scenarios')
      .selectAll()
      .orderBy('system_id')
      .orderBy('kind')
      .orderBy('name')
      .execute()
  ).map(
    (s): Scenario => ({
      system: s.system_id,
      kind: s.kind as Scenario['kind'],
      name: s.name,
      ...(s.description === null ? {} : { description: s.description }),
    }),
  );
  return { systems, factions, scenarios };
}

/** Up to `limit` players after `afterId`, with their aliases. */
export async function readExportPlayers(
  target: StoreOrHandle,
  afterId: string | null,
  limit: number,
): Promise<Player[]> {
  const db = handleOf(target);
  let query = db.selectFrom('players').selectAll().orderBy('id').limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const aliases = new Map<string, string[]>();
  const aliasRows = await db
    .selectFrom('player_aliases')
    .selectAll()
    .where('player_id', '>=', rows[0].id)
    .where('player_id', '<=', rows[rows.length - 1].id)
    .orderBy('alias')
    .execute();
  for (const a of aliasRows)
    aliases.set(a.player_id, [...(aliases.get(a.player_id) ?? []), a.alias]);
  return rows.map((p) => ({
    id: p.id,
    ...(p.name === null ? {} : { name: p.name }),
    ...(p.country === null ? {} : { country: p.country }),
    ...(aliases.has(p.id) ? { aliases: aliases.get(p.id) } : {}),
  }));
}

/** The stored lists of these ids, as they were imported. */
export async function readLists(
  db: Kysely<Database>,
  ids: string[],
): Promise<Map<string, ArmyList>> {
  const lists = new Map<string, ArmyList>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const [heads, units, options, configuration] = await Promise.all([
      db.selectFrom('lists').selectAll().where('id', 'in', chunk).execute(),
      db
        .selectFrom('list_units')
        .selectAll()
        .where('list_id', 'in', chunk)
        .orderBy('list_id')
        .orderBy('unit_index')
        .execute(),
      db
        .selectFrom('list_options')
        .selectAll()
        .where('list_id', 'in', chunk)
        .orderBy('list_id')
        .orderBy('unit_index')
        .orderBy('option_index')
        .execute(),
      db
        .selectFrom('list_configuration')
        .selectAll()
        .where('list_id', 'in', chunk)
        .orderBy('list_id')
        .orderBy('choice_index')
        .execute(),
    ]);
    for (const h of heads) lists.set(h.id, { points: num(h.points), units: [] });
    for (const u of units) {
      lists.get(u.list_id)?.units.push({
        name: u.name,
        category: u.category,
        cost: num(u.cost),
        models: num(u.models),
        options: [],
      });
    }
    for (const o of options) {
      lists
        .get(o.list_id)
        ?.units[Number(o.unit_index)]?.options?.push({ name: o.name, type: o.type });
    }
    for (const c of configuration) {
      const list = lists.get(c.list_id);
      if (list !== undefined) (list.configuration ??= []).push({ name: c.name, type: c.type });
    }
  }
  return lists;
}

function eventOf(r: Database['events']): Event {
  const fields: Record<string, unknown> = {
    id: r.id,
    system: r.system_id,
    name: r.name,
    start: r.start_date,
    end: r.end_date,
    status: r.status,
    format: r.format,
    tier: r.tier,
    qualifiesFor: r.qualifies_for,
    slots: num(r.slots),
    participants: num(r.participants),
    capacity: num(r.capacity),
    rounds: num(r.rounds),
    pointsLimit: num(r.points_limit),
    rulesVersion: r.rules_version,
    teamScoreCap: num(r.team_score_cap),
    country: r.country,
    region: r.region,
    city: r.city,
    venue: r.venue,
    location: r.lat === null || r.lon === null ? null : { lat: Number(r.lat), lon: Number(r.lon) },
    online: flag(r.online),
    url: r.url,
    registrationUrl: r.registration_url,
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== null),
  ) as unknown as Event;
}

/** Up to `limit` events after `afterId` in the selection, each with its entries and games. */
export async function readExportEvents(
  target: StoreOrHandle,
  afterId: string | null,
  limit: number,
  selection: ExportSelection = {},
): Promise<Event[]> {
  const db = handleOf(target);
  let query = db.selectFrom('events').selectAll().orderBy('id').limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  if (selection.system !== undefined) query = query.where('system_id', '=', selection.system);
  if (selection.from !== undefined) query = query.where('start_date', '>=', selection.from);
  if (selection.to !== undefined) query = query.where('start_date', '<=', selection.to);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [entryRows, gameRows, sideRows] = await Promise.all([
    db
      .selectFrom('entries')
      .selectAll()
      .where('event_id', 'in', ids)
      .orderBy('event_id')
      .orderBy('player_id')
      .execute(),
    db
      .selectFrom('games')
      .selectAll()
      .where('event_id', 'in', ids)
      .orderBy('event_id')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('sides')
      .innerJoin('games', 'games.id', 'sides.game_id')
      .selectAll('sides')
      .where('games.event_id', 'in', ids)
      .orderBy('sides.game_id')
      .orderBy('sides.side')
      .execute(),
  ]);
  const listIds = [...entryRows.map((e) => e.list_id), ...sideRows.map((s) => s.list_id)].filter(
    (id): id is string => id !== null,
  );
  const lists = await readLists(db, listIds);
  const events = new Map(rows.map((r) => [r.id, eventOf(r)]));
  const hasEntries = new Set<string>();
  for (const e of entryRows) {
    const event = events.get(e.event_id) as Event;
    hasEntries.add(e.event_id);
    const entry: Entry = {
      player: e.player_id,
      faction: e.faction_id,
      subfaction: e.subfaction_id,
      team: e.team,
      placement: num(e.placement),
      list: e.list_id === null ? null : (lists.get(e.list_id) ?? null),
    };
    (event.entries ??= []).push(entry);
  }
  const sides = new Map<string, Side[]>();
  for (const s of sideRows) {
    const side: Side = {
      player: s.player_id,
      faction: s.faction_id,
      subfaction: s.subfaction_id,
      score: num(s.score),
      result: s.result === UNPLAYED_RESULT ? null : (s.result as Result),
      firstTurn: flag(s.first_turn),
      primaryAchieved: flag(s.primary_achieved),
      secondary: s.secondary,
      secondaryAchieved: flag(s.secondary_achieved),
      list: s.list_id === null ? null : (lists.get(s.list_id) ?? null),
    };
    sides.set(s.game_id, [...(sides.get(s.game_id) ?? []), side]);
  }
  for (const g of gameRows) {
    const secondaries = g.secondaries === null ? [] : (JSON.parse(g.secondaries) as string[]);
    const parts = [g.scenario, g.map, g.deployment, g.primary_objective];
    const game: Game = {
      id: g.id,
      round: num(g.round),
      table: num(g.table_no),
      scenario:
        parts.every((p) => p === null) && secondaries.length === 0
          ? null
          : {
              name: g.scenario,
              map: g.map,
              deployment: g.deployment,
              primary: g.primary_objective,
              secondaries,
            },
      sides: sides.get(g.id) as [Side, Side],
    };
    const event = events.get(g.event_id) as Event;
    (event.games ??= []).push(game);
  }
  return [...events.values()];
}

/**
 * One event with its entries (lists included) but not its games, and every player who took part
 * (an entry, or a side of one of its games) with their name: what rosters are attached to
 * (docs/import-formats.md#matching-rosters-to-players). Null when the store has no such event.
 */
export async function readEventPlayers(
  target: StoreOrHandle,
  eventId: string,
): Promise<{ event: Event; players: Array<{ id: string; name: string | null }> } | null> {
  const db = handleOf(target);
  const row = await db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (row === undefined) return null;
  const event = eventOf(row);
  const entryRows = await db
    .selectFrom('entries')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('player_id')
    .execute();
  const lists = await readLists(
    db,
    entryRows.map((e) => e.list_id).filter((id): id is string => id !== null),
  );
  event.entries = entryRows.map((e) => ({
    player: e.player_id,
    faction: e.faction_id,
    subfaction: e.subfaction_id,
    team: e.team,
    placement: num(e.placement),
    list: e.list_id === null ? null : (lists.get(e.list_id) ?? null),
  }));
  const players = await db
    .selectFrom('players')
    .select(['id', 'name'])
    .where((eb) =>
      eb.or([
        eb(
          'id',
          'in',
          eb.selectFrom('entries').select('player_id').where('event_id', '=', eventId),
        ),
        eb(
          'id',
          'in',
          eb
            .selectFrom('sides')
            .innerJoin('games', 'games.id', 'sides.game_id')
            .select('sides.player_id')
            .where('games.event_id', '=', eventId),
        ),
      ]),
    )
    .orderBy('id')
    .execute();
  return { event, players };
}
