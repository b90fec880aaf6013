/**
 * The player merges of the store (docs/data-model.md#player-merges): written and undone by
 * `muster players merge` and `unmerge`, each in a transaction that bumps the data version so a
 * running service reloads; read by the snapshot loader, the export and the merge's checks.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Counts } from '../domain/import-batch.ts';
import type { PlayerMerge, PlayerMergeMoved } from '../domain/player-merge.ts';
import type { Database } from './schema.ts';
import { bumpDataVersion } from './store.ts';
import type { Store } from './store.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

type MergeRow = {
  id: number;
  keep_id: string;
  other_id: string;
  note: string;
  merged_at: string;
  undone_at: string | null;
  moved: string;
};

const recordOf = (r: MergeRow): PlayerMerge => ({
  id: Number(r.id),
  keep: r.keep_id,
  other: r.other_id,
  note: r.note,
  mergedAt: r.merged_at,
  undoneAt: r.undone_at,
  moved: JSON.parse(r.moved) as PlayerMergeMoved,
});

/** Every merge, undone ones too, in the order made. */
export async function readPlayerMerges(target: StoreOrHandle): Promise<PlayerMerge[]> {
  const rows = await handleOf(target)
    .selectFrom('player_merges')
    .selectAll()
    .orderBy('id')
    .execute();
  return rows.map(recordOf);
}

/** The merges that stand (not undone), in the order made. */
export async function readStandingMerges(target: StoreOrHandle): Promise<PlayerMerge[]> {
  const rows = await handleOf(target)
    .selectFrom('player_merges')
    .selectAll()
    .where('undone_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map(recordOf);
}

/** One player's appearance: an entry (game null) or a side of a game, with its event's days. */
export interface PlayerAppearance {
  player: string;
  event: string;
  start: string;
  end: string | null;
  game: string | null;
}

/** Where the players `ids` appear: their entries and their games' sides, with the events' days. */
export async function readPlayerAppearances(
  target: StoreOrHandle,
  ids: readonly string[],
): Promise<PlayerAppearance[]> {
  if (ids.length === 0) return [];
  const db = handleOf(target);
  const entries = await db
    .selectFrom('entries as e')
    .innerJoin('events as ev', 'ev.id', 'e.event_id')
    .select(['e.player_id', 'e.event_id', 'ev.start_date', 'ev.end_date'])
    .where('e.player_id', 'in', [...ids])
    .execute();
  const sides = await db
    .selectFrom('sides as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .innerJoin('events as ev', 'ev.id', 'g.event_id')
    .select(['s.player_id', 's.game_id', 'g.event_id', 'ev.start_date', 'ev.end_date'])
    .where('s.player_id', 'in', [...ids])
    .execute();
  return [
    ...entries.map((r) => ({
      player: r.player_id,
      event: r.event_id,
      start: r.start_date,
      end: r.end_date,
      game: null,
    })),
    ...sides.map((r) => ({
      player: r.player_id!,
      event: r.event_id,
      start: r.start_date,
      end: r.end_date,
      game: r.game_id,
    })),
  ];
}

/** Which of `ids` the players table holds. */
export async function readKnownPlayerIds(
  target: StoreOrHandle,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await handleOf(target)
    .selectFrom('players')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Records a merge and bumps the data version, in one transaction; resolves to its id. */
export async function writePlayerMerge(
  store: Store,
  merge: Omit<PlayerMerge, 'id' | 'undoneAt'> & { undoneAt?: string | null },
): Promise<number> {
  return store.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('player_merges')
      .values({
        keep_id: merge.keep,
        other_id: merge.other,
        note: merge.note,
        merged_at: merge.mergedAt,
        undone_at: merge.undoneAt ?? null,
        moved: JSON.stringify(merge.moved),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await bumpDataVersion(trx);
    return Number(row.id);
  });
}

/**
 * Undoes a standing merge at `at` (the record stays, with undone_at) and bumps the data version;
 * resolves to false when no standing merge has that id.
 */
export async function undoPlayerMerge(store: Store, id: number, at: string): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('player_merges')
      .set({ undone_at: at })
      .where('id', '=', id)
      .where('undone_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return false;
    await bumpDataVersion(trx);
    return true;
  });
}

/**
 * Writes imported merges in the import batch's transaction (docs/import-formats.md#player-merges);
 * resolves to how many rows changed. A merge is the same merge when its kept id, other id and
 * time agree, so importing it twice writes it once; a stored one takes the imported undo time and
 * note. A new one keeps its exported id while no stored merge holds that id.
 */
export async function writeImportedMerges(
  trx: Transaction<Database>,
  merges: readonly PlayerMerge[],
  counts?: Counts,
): Promise<number> {
  let changed = 0;
  for (const m of merges) {
    const old = await trx
      .selectFrom('player_merges')
      .selectAll()
      .where('keep_id', '=', m.keep)
      .where('other_id', '=', m.other)
      .where('merged_at', '=', m.mergedAt)
      .executeTakeFirst();
    if (old !== undefined) {
      if (old.undone_at === m.undoneAt && old.note === m.note) {
        if (counts !== undefined) counts.unchanged++;
        continue;
      }
      await trx
        .updateTable('player_merges')
        .set({ undone_at: m.undoneAt, note: m.note })
        .where('id', '=', old.id)
        .execute();
      if (counts !== undefined) counts.updated++;
      changed++;
      continue;
    }
    const taken = await trx
      .selectFrom('player_merges')
      .select('id')
      .where('id', '=', m.id)
      .executeTakeFirst();
    await trx
      .insertInto('player_merges')
      .values({
        ...(taken === undefined ? { id: m.id } : {}),
        keep_id: m.keep,
        other_id: m.other,
        note: m.note,
        merged_at: m.mergedAt,
        undone_at: m.undoneAt,
        moved: JSON.stringify(m.moved),
      })
      .execute();
    if (counts !== undefined) counts.imported++;
    changed++;
  }
  // An id given explicitly leaves PostgreSQL's sequence behind; the next merge must not reuse it.
  if (changed > 0 && trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select setval(pg_get_serial_sequence('player_merges', 'id'), (select max(id) from player_merges))`.execute(
      trx,
    );
  return changed;
}
