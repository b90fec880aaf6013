/** Reads the rejected records of an import back, for people to fix and replay them. */
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

export interface StoredReject {
  importId: number;
  source: string;
  record: string | null;
  field: string | null;
  reason: string;
  payload: unknown;
}

/**
 * The id of the newest finished import, or null (docs/import-formats.md#rejects-and-replay): its
 * rejects are the ones to fix, and none means the latest import rejected nothing.
 */
export async function latestFinishedImport(target: StoreOrHandle): Promise<number | null> {
  const db = handleOf(target);
  const row = await db
    .selectFrom('imports')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('status', '!=', 'running')
    .executeTakeFirst();
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}

/**
 * The later import of the same format and files that took over this import's rejects, or null
 * (docs/import-formats.md#rejects-and-replay).
 */
export async function supersedingImport(
  target: StoreOrHandle,
  importId: number,
): Promise<number | null> {
  const db = handleOf(target);
  const own = await db
    .selectFrom('imports')
    .select(['format', 'sources'])
    .where('id', '=', importId)
    .executeTakeFirst();
  if (own === undefined) return null;
  const later = await db
    .selectFrom('imports')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('format', '=', own.format)
    .where('sources', '=', own.sources)
    .where('id', '>', importId)
    .where('status', 'in', ['imported', 'rejected'])
    .executeTakeFirst();
  return later?.id === null || later?.id === undefined ? null : Number(later.id);
}

/** Whether the imports table has a row with this id (docs/operations.md#import-records). */
export async function importExists(target: StoreOrHandle, importId: number): Promise<boolean> {
  const db = handleOf(target);
  const row = await db
    .selectFrom('imports')
    .select('id')
    .where('id', '=', importId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every reject of one import, in the order they were reported. */
export async function readRejects(
  target: StoreOrHandle,
  importId: number,
): Promise<StoredReject[]> {
  const db = handleOf(target);
  const rows = await db
    .selectFrom('rejects')
    .selectAll()
    .where('import_id', '=', importId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    importId: Number(r.import_id),
    source: r.source,
    record: r.record,
    field: r.field,
    reason: r.reason,
    payload: r.payload === null ? null : (JSON.parse(r.payload) as unknown),
  }));
}
