/**
 * The imports table's rows (docs/operations.md#import-records): what ingest decides an import's
 * record says, written here. A record is finished only while it is `running`, so one the data's
 * transaction already finished keeps what it says.
 */
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

export type ImportStatus = 'running' | 'imported' | 'rejected' | 'failed' | 'interrupted';

/** A `running` row as the next import or start reads it to tell whether its process is gone. */
export interface RunningImport {
  id: number;
  startedAt: string;
  summary: string | null;
}

/**
 * What an import's batch transaction records beside its data: a streamed batch that is not the
 * last one says what has been committed so far; the last one finishes the record and, for an
 * import of named sources, drops the rejects earlier imports of those sources kept.
 */
export type ImportRecordUpdate =
  | { status: 'running'; summary: string }
  | {
      status: Exclude<ImportStatus, 'running'>;
      summary: string;
      /** The earlier imports whose rejects this one supersedes; null when none does. */
      supersedes: { format: string; sources: readonly string[] } | null;
    };

/** Inserts a new import's `running` row; returns its id. */
export async function insertImportRecord(
  target: StoreOrHandle,
  row: { format: string; sources: readonly string[]; summary: string },
): Promise<number> {
  const inserted = await handleOf(target)
    .insertInto('imports')
    .values({
      started_at: new Date().toISOString(),
      finished_at: null,
      format: row.format,
      sources: JSON.stringify(row.sources),
      status: 'running',
      summary: row.summary,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Rewrites a `running` row's summary (what a streamed import has committed so far). */
export async function updateRunningSummary(
  target: StoreOrHandle,
  importId: number,
  summary: string,
): Promise<void> {
  await handleOf(target)
    .updateTable('imports')
    .set({ summary })
    .where('id', '=', importId)
    .where('status', '=', 'running')
    .execute();
}

/** Finishes a `running` row with its status and summary; a finished row is left as it is. */
export async function finishImportRecord(
  target: StoreOrHandle,
  importId: number,
  status: Exclude<ImportStatus, 'running'>,
  summary: string,
): Promise<void> {
  await handleOf(target)
    .updateTable('imports')
    .set({ status, summary, finished_at: new Date().toISOString() })
    .where('id', '=', importId)
    .where('status', '=', 'running')
    .execute();
}

/**
 * Drops the rejects of earlier finished imports of the same format and sources
 * (docs/import-formats.md#rejects-and-replay).
 */
export async function supersedeRejects(
  target: StoreOrHandle,
  importId: number,
  format: string,
  sources: readonly string[],
): Promise<void> {
  const db = handleOf(target);
  const earlier = db
    .selectFrom('imports')
    .select('id')
    .where('format', '=', format)
    .where('sources', '=', JSON.stringify(sources))
    .where('id', '<', importId)
    .where('status', '!=', 'running');
  await db.deleteFrom('rejects').where('import_id', 'in', earlier).execute();
}

/** Writes what a batch's transaction records of its import (see ImportRecordUpdate). */
export async function writeImportRecordUpdate(
  target: StoreOrHandle,
  importId: number,
  update: ImportRecordUpdate,
): Promise<void> {
  if (update.status === 'running') {
    await updateRunningSummary(target, importId, update.summary);
    return;
  }
  await finishImportRecord(target, importId, update.status, update.summary);
  if (update.supersedes !== null)
    await supersedeRejects(target, importId, update.supersedes.format, update.supersedes.sources);
}

/** Every `running` import row. */
export async function readRunningImports(target: StoreOrHandle): Promise<RunningImport[]> {
  const rows = await handleOf(target)
    .selectFrom('imports')
    .select(['id', 'started_at', 'summary'])
    .where('status', '=', 'running')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), startedAt: r.started_at, summary: r.summary }));
}
