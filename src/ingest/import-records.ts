/**
 * The imports table's bookkeeping (docs/operations.md#import-records): a row per import, marked
 * `running` with the process that runs it, then `imported`, `rejected` or `failed`; a row left
 * `running` by a process that died is marked `interrupted` at the next import or start. An
 * import's outcome is written in the transaction of its last batch, so a record never says
 * `interrupted` for data that landed, nor `imported` for data that did not.
 */
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { Store } from '../store/store.ts';

export type ImportStatus = 'running' | 'imported' | 'rejected' | 'failed' | 'interrupted';

/** A running import on another machine is taken as dead after this long. */
const FOREIGN_STALE_MS = 24 * 3_600_000;
const MARKER = /^running in process (\d+) on ([^;]+)(?:; (.*))?$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a `running` row's process is gone (same host: by its pid; else by its age). */
function isDead(summary: string | null, startedAt: string, now: number): boolean {
  const match = summary === null ? null : MARKER.exec(summary);
  if (match === null) return true; // written by a version without the marker
  const pid = Number(match[1]);
  if (match[2] === hostname()) return pid !== process.pid && !processAlive(pid);
  return now - Date.parse(startedAt) > FOREIGN_STALE_MS;
}

/** The `running` summary: which process runs the import, and what it has committed so far. */
function runningSummary(committed: string | null = null): string {
  return `running in process ${process.pid} on ${hostname()}${committed === null ? '' : `; ${committed}`}`;
}

/**
 * Writes what a streamed import has committed so far into its `running` row, in the transaction
 * of the batch just written, so an import that stops later still says what it kept
 * (docs/operations.md#import-records).
 */
export async function noteCommitted(
  db: Kysely<Database>,
  importId: number,
  committed: string,
): Promise<void> {
  await db
    .updateTable('imports')
    .set({ summary: runningSummary(committed) })
    .where('id', '=', importId)
    .where('status', '=', 'running')
    .execute();
}

/** Inserts the `running` row of a new import; returns its id (docs/operations.md#import-records). */
export async function startImportRecord(
  store: Store,
  format: string,
  sources: readonly string[],
): Promise<number> {
  const inserted = await store.db
    .insertInto('imports')
    .values({
      started_at: new Date().toISOString(),
      finished_at: null,
      format,
      sources: JSON.stringify(sources),
      status: 'running',
      summary: runningSummary(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/**
 * Records how an import ended (docs/operations.md#import-records); `db` is the transaction that
 * wrote the import's last batch, so the record and the data land together. Only a `running`
 * record is finished: one the data's transaction already finished keeps what it says.
 */
export async function finishImportRecord(
  db: Kysely<Database>,
  importId: number,
  status: Exclude<ImportStatus, 'running'>,
  summary: string,
): Promise<void> {
  await db
    .updateTable('imports')
    .set({ status, summary, finished_at: new Date().toISOString() })
    .where('id', '=', importId)
    .where('status', '=', 'running')
    .execute();
}

/**
 * Drops the rejects of earlier finished imports of the same format and sources: a new import of
 * the same files saw them again (or saw them fixed), so they belong to it now and are not kept
 * twice (docs/import-formats.md#rejects-and-replay). Standard input is never the same twice.
 */
export async function supersedeRejects(
  db: Kysely<Database>,
  importId: number,
  format: string,
  sources: readonly string[],
): Promise<void> {
  if (sources.includes('-')) return;
  const earlier = db
    .selectFrom('imports')
    .select('id')
    .where('format', '=', format)
    .where('sources', '=', JSON.stringify(sources))
    .where('id', '<', importId)
    .where('status', '!=', 'running');
  await db.deleteFrom('rejects').where('import_id', 'in', earlier).execute();
}

/**
 * Marks every `running` import whose process is gone as `interrupted`, saying what it committed
 * before it stopped; returns them. Called when an import or the server starts
 * (docs/operations.md#import-records).
 */
export async function markInterruptedImports(
  store: Store,
): Promise<Array<{ importId: number; summary: string }>> {
  const running = await store.db
    .selectFrom('imports')
    .select(['id', 'started_at', 'summary'])
    .where('status', '=', 'running')
    .execute();
  const now = Date.now();
  const marked: Array<{ importId: number; summary: string }> = [];
  for (const row of running) {
    if (!isDead(row.summary, row.started_at, now)) continue;
    const match = row.summary === null ? null : MARKER.exec(row.summary);
    const where = match === null ? '' : ` (in process ${match[1]} on ${match[2]})`;
    const kept =
      match?.[3] === undefined
        ? 'no batch of it was committed'
        : `${match[3]} before it stopped, and stay`;
    const summary = `did not finish: its process stopped before the end${where}; ${kept}; the batch it was writing was not written`;
    await finishImportRecord(store.db, Number(row.id), 'interrupted', summary);
    marked.push({ importId: Number(row.id), summary });
  }
  return marked;
}
