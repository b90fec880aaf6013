/**
 * Writes a validated batch in one transaction (DESIGN.md §4): records with a known id replace
 * their previous version, unchanged records (same content hash) are left alone, so importing the
 * same input twice changes no row. The data version moves only when something changed.
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ArmyList, Event } from '../domain/model.ts';
import type { ImportCounts, Reject, ValidBatch } from '../ingest/import-types.ts';
import { zeroCounts } from '../ingest/import-types.ts';
import type { Database } from './schema.ts';
import { bumpDataVersion } from './store.ts';
import { nameKey } from '../domain/normalize-name.ts';

/** SHA-1 of the value's JSON with object keys sorted: equal content, equal hash. */
export function contentHash(value: unknown): string {
  const stable = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(stable);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return createHash('sha1')
    .update(JSON.stringify(stable(value)))
    .digest('hex');
}

// Both backends accept far more bound parameters than this; it keeps statements small.
const MAX_PARAMS = 16_000;

/**
 * Multi-row inserts compiled by hand: at a million option rows Kysely's builder spends most of an
 * import building value nodes, while the SQL itself is the same simple statement on both backends.
 */
async function insertChunked<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object);
  const size = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const marks = columns.map((c) => {
        params.push((row as Record<string, unknown>)[c] ?? null);
        return postgres ? `$${params.length}` : '?';
      });
      return `(${marks.join(',')})`;
    });
    await trx.executeQuery(
      CompiledQuery.raw(
        `insert into ${table} (${columns.join(',')}) values ${tuples.join(',')}`,
        params,
      ),
    );
  }
}

async function chunkedIds<R>(ids: string[], read: (chunk: string[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await read(ids.slice(i, i + 500))));
  return out;
}

async function deleteLists(trx: Transaction<Database>, listIds: string[]): Promise<void> {
  for (let i = 0; i < listIds.length; i += 500) {
    const chunk = listIds.slice(i, i + 500);
    await trx.deleteFrom('list_options').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('list_units').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('lists').where('id', 'in', chunk).execute();
  }
}

interface ListRows {
  lists: Insertable<Database['lists']>[];
  units: Insertable<Database['list_units']>[];
  options: Insertable<Database['list_options']>[];
}

function addList(rows: ListRows, id: string, list: ArmyList): void {
  rows.lists.push({ id, points: list.points ?? null });
  list.units.forEach((unit, u) => {
    rows.units.push({
      list_id: id,
      unit_index: u,
      name: unit.name,
      category: unit.category,
      cost: unit.cost ?? null,
      models: unit.models ?? null,
    });
    (unit.options ?? []).forEach((option, o) => {
      rows.options.push({
        list_id: id,
        unit_index: u,
        option_index: o,
        name: option.name,
        type: option.type,
      });
    });
  });
}

const bool = (v: boolean | null | undefined): number | null =>
  v === null || v === undefined ? null : v ? 1 : 0;

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

export interface WriteResult {
  counts: ImportCounts;
  dataVersion: number;
}

/** Writes the batch and its rejects in one transaction; nothing of it lands if anything throws. */
export async function writeBatch(
  db: Kysely<Database>,
  batch: ValidBatch,
  rejects: Reject[],
  importId: number,
  options: { writeData: boolean } = { writeData: true },
): Promise<WriteResult> {
  return db.transaction().execute(async (trx) => {
    const counts = zeroCounts();
    const now = new Date().toISOString();
    await insertChunked(
      trx,
      'rejects',
      rejects.map((r) => ({
        import_id: importId,
        source: r.source,
        record: r.record,
        field: r.field,
        reason: r.reason,
        payload: r.payload === undefined ? null : JSON.stringify(r.payload),
        created_at: now,
      })),
    );
    if (!options.writeData) {
      const row = await trx
        .selectFrom('meta')
        .select('value')
        .where('key', '=', 'data_version')
        .executeTakeFirstOrThrow();
      return { counts, dataVersion: Number(row.value) };
    }

    // Reference data is written only where it differs, so a repeated import stays a no-op.
    let touched = false;
    const oldSystems = new Map(
      (await trx.selectFrom('systems').selectAll().execute()).map((r) => [r.id, r]),
    );
    for (const s of batch.systems) {
      const row = {
        id: s.id,
        name: s.name,
        score_min: s.score.min,
        score_max: s.score.max,
        score_total: s.score.total ?? null,
        margin_bands: s.marginBands ? JSON.stringify(s.marginBands) : null,
      };
      const old = oldSystems.get(s.id);
      if (
        old !== undefined &&
        contentHash({
          ...old,
          score_min: Number(old.score_min),
          score_max: Number(old.score_max),
          score_total: old.score_total === null ? null : Number(old.score_total),
        }) === contentHash(row)
      )
        continue;
      touched = true;
      await trx
        .insertInto('systems')
        .values(row)
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }
    const oldFactions = new Map(
      (await trx.selectFrom('factions').selectAll().execute()).map((r) => [
        `${r.system_id}\u0000${r.id}`,
        r,
      ]),
    );
    const oldAliases = new Map(
      (await trx.selectFrom('faction_aliases').selectAll().execute()).map((r) => [
        `${r.system_id}\u0000${r.alias}`,
        r.faction_id,
      ]),
    );
    for (const f of batch.factions) {
      const row = { system_id: f.system, id: f.id, name: f.name, parent_id: f.parent ?? null };
      const old = oldFactions.get(`${f.system}\u0000${f.id}`);
      if (old === undefined || old.name !== row.name || old.parent_id !== row.parent_id) {
        touched = true;
        await trx
          .insertInto('factions')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['system_id', 'id'])
              .doUpdateSet({ name: row.name, parent_id: row.parent_id }),
          )
          .execute();
      }
      for (const alias of new Set([f.id, f.name, ...(f.aliases ?? [])].map(nameKey))) {
        if (oldAliases.get(`${f.system}\u0000${alias}`) === f.id) continue;
        touched = true;
        await trx
          .insertInto('faction_aliases')
          .values({ system_id: f.system, alias, faction_id: f.id })
          .onConflict((oc) => oc.columns(['system_id', 'alias']).doUpdateSet({ faction_id: f.id }))
          .execute();
      }
    }
    for (const s of batch.scenarios) {
      const result = await trx
        .insertInto('scenarios')
        .values({
          system_id: s.system,
          kind: s.kind,
          name: s.name,
          description: s.description ?? null,
        })
        .onConflict((oc) => oc.columns(['system_id', 'kind', 'name']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) {
        touched = true;
      } else if (s.description) {
        const updated = await trx
          .updateTable('scenarios')
          .set({ description: s.description })
          .where('system_id', '=', s.system)
          .where('kind', '=', s.kind)
          .where('name', '=', s.name)
          .where((eb) =>
            eb.or([eb('description', 'is', null), eb('description', '!=', s.description ?? '')]),
          )
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) > 0) touched = true;
      }
    }

    // Players: a name or country given now fills or replaces the stored one; absent keeps it.
    const existingPlayers = new Map(
      (
        await chunkedIds(
          batch.players.map((p) => p.id),
          (chunk) => trx.selectFrom('players').selectAll().where('id', 'in', chunk).execute(),
        )
      ).map((p) => [p.id, p]),
    );
    const newPlayers: Insertable<Database['players']>[] = [];
    for (const p of batch.players) {
      const old = existingPlayers.get(p.id);
      const name = p.name ?? old?.name ?? null;
      const country = p.country ?? old?.country ?? null;
      if (old === undefined) {
        newPlayers.push({ id: p.id, name, country });
        counts.players.imported++;
      } else if (old.name !== name || old.country !== country) {
        await trx.updateTable('players').set({ name, country }).where('id', '=', p.id).execute();
        counts.players.updated++;
      } else {
        counts.players.unchanged++;
      }
      for (const alias of p.aliases ?? []) {
        await trx
          .insertInto('player_aliases')
          .values({ alias: nameKey(alias), player_id: p.id })
          .onConflict((oc) => oc.column('alias').doUpdateSet({ player_id: p.id }))
          .execute();
      }
    }
    await insertChunked(trx, 'players', newPlayers);

    // Events (with their entries) and games, compared by content hash.
    const eventHashes = new Map(
      (
        await chunkedIds(
          batch.events.map((e) => e.event.id),
          (chunk) =>
            trx
              .selectFrom('events')
              .select(['id', 'content_hash'])
              .where('id', 'in', chunk)
              .execute(),
        )
      ).map((r) => [r.id, r.content_hash]),
    );
    const allGames = batch.events.flatMap((e) =>
      e.games.map((g) => ({ ...g, eventId: e.event.id })),
    );
    const gameHashes = new Map(
      (
        await chunkedIds(
          allGames.map((g) => g.game.id),
          (chunk) =>
            trx
              .selectFrom('games')
              .select(['id', 'content_hash'])
              .where('id', 'in', chunk)
              .execute(),
        )
      ).map((r) => [r.id, r.content_hash]),
    );

    const listRows: ListRows = { lists: [], units: [], options: [] };
    const entryRows: Insertable<Database['entries']>[] = [];
    for (const e of batch.events) {
      const hash = contentHash({ event: e.event, entries: e.entries });
      const old = eventHashes.get(e.event.id);
      if (old === hash) {
        counts.events.unchanged++;
        continue;
      }
      const row = eventRow(e.event, hash);
      if (old === undefined) {
        await trx.insertInto('events').values(row).execute();
        counts.events.imported++;
      } else {
        const { id: _id, ...rest } = row;
        await trx.updateTable('events').set(rest).where('id', '=', e.event.id).execute();
        counts.events.updated++;
      }
      if (e.entries !== null) {
        const oldLists = await trx
          .selectFrom('entries')
          .select('list_id')
          .where('event_id', '=', e.event.id)
          .where('list_id', 'is not', null)
          .execute();
        await deleteLists(
          trx,
          oldLists.map((l) => l.list_id as string),
        );
        await trx.deleteFrom('entries').where('event_id', '=', e.event.id).execute();
        for (const entry of e.entries) {
          const listId = entry.list ? `e:${e.event.id}:${entry.player}` : null;
          if (entry.list && listId) {
            addList(listRows, listId, entry.list);
            counts.lists[old === undefined ? 'imported' : 'updated']++;
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
    }

    const gameRows: Insertable<Database['games']>[] = [];
    const sideRows: Insertable<Database['sides']>[] = [];
    const replaced: string[] = [];
    for (const { game, eventId } of allGames) {
      // Games are built key by key in validation, so plain JSON is already canonical.
      const hash = createHash('sha1').update(eventId).update(JSON.stringify(game)).digest('hex');
      const old = gameHashes.get(game.id);
      const lists = game.sides.filter((s) => s.list).length;
      if (old === hash) {
        counts.games.unchanged++;
        counts.lists.unchanged += lists;
        continue;
      }
      const kind = old === undefined ? 'imported' : 'updated';
      counts.games[kind]++;
      counts.lists[kind] += lists;
      if (old !== undefined) replaced.push(game.id);
      const s = game.scenario;
      gameRows.push({
        id: game.id,
        event_id: eventId,
        round: game.round ?? null,
        table_no: game.table ?? null,
        scenario: s?.name ?? null,
        map: s?.map ?? null,
        deployment: s?.deployment ?? null,
        primary_objective: s?.primary ?? null,
        secondaries:
          s?.secondaries && s.secondaries.length > 0 ? JSON.stringify(s.secondaries) : null,
        content_hash: hash,
      });
      game.sides.forEach((side, i) => {
        const listId = side.list ? `g:${game.id}:${i}` : null;
        if (side.list && listId) addList(listRows, listId, side.list);
        sideRows.push({
          game_id: game.id,
          side: i,
          player_id: side.player ?? null,
          faction_id: side.faction,
          subfaction_id: side.subfaction ?? null,
          score: side.score ?? null,
          result: side.result as string,
          first_turn: bool(side.firstTurn),
          primary_achieved: bool(side.primaryAchieved),
          secondary: side.secondary ?? null,
          secondary_achieved: bool(side.secondaryAchieved),
          list_id: listId,
        });
      });
    }
    for (let i = 0; i < replaced.length; i += 500) {
      const chunk = replaced.slice(i, i + 500);
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
    await insertChunked(trx, 'entries', entryRows);
    await insertChunked(trx, 'games', gameRows);
    await insertChunked(trx, 'sides', sideRows);
    await insertChunked(trx, 'lists', listRows.lists);
    await insertChunked(trx, 'list_units', listRows.units);
    await insertChunked(trx, 'list_options', listRows.options);

    const changed =
      counts.events.imported +
        counts.events.updated +
        counts.games.imported +
        counts.games.updated +
        counts.players.imported +
        counts.players.updated >
        0 || touched;
    const dataVersion = changed
      ? await bumpDataVersion(trx)
      : Number(
          (
            await trx
              .selectFrom('meta')
              .select('value')
              .where('key', '=', 'data_version')
              .executeTakeFirstOrThrow()
          ).value,
        );
    return { counts, dataVersion };
  });
}
