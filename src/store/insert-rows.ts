/**
 * Bulk row plumbing for imports (docs/import-formats.md#one-transaction): multi-row inserts, reads by
 * chunks of ids, and the rows of army lists.
 */
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ArmyList } from '../domain/model.ts';
import type { Database } from './schema.ts';

// Both backends accept far more bound parameters than this; it keeps statements small.
const MAX_PARAMS = 16_000;

/**
 * Multi-row inserts compiled by hand: at a million option rows Kysely's builder spends most of an
 * import building value nodes, while the SQL itself is the same simple statement on both backends.
 */
export async function insertChunked<T extends keyof Database & string>(
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

/** Runs a read per chunk of 500 ids (well inside both backends' parameter limits). */
export async function chunkedIds<R>(
  ids: string[],
  read: (chunk: string[]) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await read(ids.slice(i, i + 500))));
  return out;
}

/** Deletes lists with their units and options. */
export async function deleteLists(trx: Transaction<Database>, listIds: string[]): Promise<void> {
  for (let i = 0; i < listIds.length; i += 500) {
    const chunk = listIds.slice(i, i + 500);
    await trx.deleteFrom('list_options').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('list_units').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('lists').where('id', 'in', chunk).execute();
  }
}

export interface ListRows {
  lists: Insertable<Database['lists']>[];
  units: Insertable<Database['list_units']>[];
  options: Insertable<Database['list_options']>[];
}

/** Adds the rows of one army list (list, units, options) under the given id. */
export function addList(rows: ListRows, id: string, list: ArmyList): void {
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

/** A tri-state boolean as the stored 1/0/null. */
export const bool = (v: boolean | null | undefined): number | null =>
  v === null || v === undefined ? null : v ? 1 : 0;
