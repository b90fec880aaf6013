/**
 * The imports table's bookkeeping (docs/operations.md#import-records): a row per import, marked
 * `running` with the process that runs it, then `imported`, `rejected` or `failed`; a row left
 * `running` by a process that died is marked `interrupted` at the next import or start. An
 * import writes in one transaction, so an interrupted one left no data behind.
 */
import { hostname } from 'node:os';
import type { Store } from '../store/store.ts';

export type ImportStatus = 'running' | 'imported' | 'rejected' | 'failed' | 'interrupted';

/** A running import on another machine is taken as dead after this long. */
const FOREIGN_STALE_MS = 24 * 3_600_000;
const MARKER = /^running in process (\d+) on (.+)$/;

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
      summary: `running in process ${process.pid} on ${hostname()}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Records how an import ended (docs/operations.md#import-records). */
export async function finishImportRecord(
  store: Store,
  importId: number,
  status: Exclude<ImportStatus, 'running'>,
  summary: string,
): Promise<void> {
  await store.db
    .updateTable('imports')
    .set({ status, summary, finished_at: new Date().toISOString() })
    .where('id', '=', importId)
    .execute();
}

/**
 * Marks every `running` import whose process is gone as `interrupted`; returns how many.
 * Called when an import or the server starts (docs/operations.md#import-records).
 */
export async function markInterruptedImports(store: Store): Promise<number> {
  const running = await store.db
    .selectFrom('imports')
    .select(['id', 'started_at', 'summary'])
    .where('status', '=', 'running')
    .execute();
  const now = Date.now();
  let marked = 0;
  for (const row of running) {
    if (!isDead(row.summary, row.started_at, now)) continue;
    const detail = row.summary === null ? '' : ` (${row.summary.replace(/^running /, '')})`;
    await finishImportRecord(
      store,
      Number(row.id),
      'interrupted',
      `did not finish: its process stopped before the end${detail}; the batch it was writing was not written`,
    );
    marked += 1;
  }
  return marked;
}
