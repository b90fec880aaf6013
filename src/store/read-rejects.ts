/** Reads the rejected records of an import back, for people to fix and replay them. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface StoredReject {
  importId: number;
  source: string;
  record: string | null;
  field: string | null;
  reason: string;
  payload: unknown;
}

/** The id of the newest import that rejected something, or null. */
export async function lastImportWithRejects(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('rejects')
    .select((eb) => eb.fn.max('import_id').as('id'))
    .executeTakeFirst();
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}

/** Whether the imports table has a row with this id (docs/operations.md#import-records). */
export async function importExists(db: Kysely<Database>, importId: number): Promise<boolean> {
  const row = await db
    .selectFrom('imports')
    .select('id')
    .where('id', '=', importId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every reject of one import, in the order they were reported. */
export async function readRejects(db: Kysely<Database>, importId: number): Promise<StoredReject[]> {
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
