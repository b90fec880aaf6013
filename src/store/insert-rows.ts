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

/** The text of a multi-row insert, built once per table, columns, row count and backend. */
const insertTexts = new Map<string, string>();

function insertText(
  table: string,
  columns: readonly string[],
  rows: number,
  postgres: boolean,
): string {
  const key = `${table}\u0000${columns.join(',')}\u0000${rows}\u0000${postgres}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    const tuples: string[] = [];
    for (let r = 0, n = 0; r < rows; r++) {
      const marks = columns.map(() => (postgres ? `$${++n}` : '?'));
      tuples.push(`(${marks.join(',')})`);
    }
    text = `insert into ${table} (${columns.join(',')}) values ${tuples.join(',')}`;
    // The full chunk's text is reused by every chunk; a last, shorter chunk's rarely is.
    if (insertTexts.size > 256) insertTexts.clear();
    insertTexts.set(key, text);
  }
  return text;
}

/**
 * Rows of one table kept as one flat array of values in column order, pushed by position, instead
 * of an object per row: a batch's rows live until its transaction writes them, and building,
 * keeping and reading back an object per row was a fifth of an NDJSON import's time in the profile
 * (docs/operations.md#import-throughput).
 */
export class RowBuffer<T extends keyof Database & string> {
  readonly values: unknown[] = [];

  readonly table: T;
  readonly columns: readonly (keyof Database[T] & string)[];
  constructor(table: T, columns: readonly (keyof Database[T] & string)[]) {
    this.table = table;
    this.columns = columns;
  }
}

/**
 * Multi-row inserts compiled by hand: at a million option rows Kysely's builder spends most of an
 * import building value nodes, while the SQL itself is the same simple statement on both backends.
 * The statement's text is built once per shape (and SQLite's prepared statement is kept, see
 * statement-cache.ts), so a chunk costs only its parameters.
 */
export async function insertBuffer<T extends keyof Database & string>(
  trx: Kysely<Database>,
  buffer: RowBuffer<T>,
): Promise<void> {
  const { columns, values, table } = buffer;
  const width = columns.length;
  if (values.length % width !== 0)
    throw new Error(`${table}: ${values.length} values do not make rows of ${width} columns`);
  const size = Math.max(1, Math.floor(MAX_PARAMS / width)) * width;
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  for (let i = 0; i < values.length; i += size) {
    const params = values.slice(i, i + size);
    await trx.executeQuery(
      CompiledQuery.raw(insertText(table, columns, params.length / width, postgres), params),
    );
  }
}

/** Inserts rows given as objects (the few tables an import writes only a handful of rows to). */
export async function insertChunked<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object) as (keyof Database[T] & string)[];
  const buffer = new RowBuffer(table, columns);
  for (const row of rows)
    for (const c of columns) buffer.values.push((row as Record<string, unknown>)[c] ?? null);
  await insertBuffer(trx, buffer);
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

/** Deletes lists with their units, options and configuration. */
export async function deleteLists(trx: Transaction<Database>, listIds: string[]): Promise<void> {
  for (let i = 0; i < listIds.length; i += 500) {
    const chunk = listIds.slice(i, i + 500);
    await trx.deleteFrom('list_options').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('list_units').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('list_configuration').where('list_id', 'in', chunk).execute();
    await trx.deleteFrom('lists').where('id', 'in', chunk).execute();
  }
}

export interface ListRows {
  lists: RowBuffer<'lists'>;
  units: RowBuffer<'list_units'>;
  options: RowBuffer<'list_options'>;
  configuration: RowBuffer<'list_configuration'>;
}

export function emptyListRows(): ListRows {
  return {
    lists: new RowBuffer('lists', ['id', 'points']),
    units: new RowBuffer('list_units', [
      'list_id',
      'unit_index',
      'name',
      'category',
      'cost',
      'models',
    ]),
    options: new RowBuffer('list_options', [
      'list_id',
      'unit_index',
      'option_index',
      'name',
      'type',
    ]),
    configuration: new RowBuffer('list_configuration', ['list_id', 'choice_index', 'name', 'type']),
  };
}

/** Adds the rows of one army list (list, units, options, configuration) under the given id. */
export function addList(rows: ListRows, id: string, list: ArmyList): void {
  rows.lists.values.push(id, list.points ?? null);
  for (let u = 0; u < list.units.length; u++) {
    const unit = list.units[u];
    rows.units.values.push(id, u, unit.name, unit.category, unit.cost ?? null, unit.models ?? null);
    const options = unit.options ?? [];
    for (let o = 0; o < options.length; o++)
      rows.options.values.push(id, u, o, options[o].name, options[o].type);
  }
  const configuration = list.configuration ?? [];
  for (let c = 0; c < configuration.length; c++)
    rows.configuration.values.push(id, c, configuration[c].name, configuration[c].type);
}

/** A tri-state boolean as the stored 1/0/null. */
export const bool = (v: boolean | null | undefined): number | null =>
  v === null || v === undefined ? null : v ? 1 : 0;
