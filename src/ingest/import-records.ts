/**
 * The imports table's bookkeeping as ingest decides it (docs/operations.md#import-records); the
 * store writes the rows (src/store/write-import-record.ts). A row per import, marked
 * `running` with the process that runs it, then `imported`, `rejected` or `failed`; a row left
 * `running` by a process that died is marked `interrupted` at the next import or start. An
 * import's outcome is written in the transaction of its last batch, so a record never says
 * `interrupted` for data that landed, nor `imported` for data that did not.
 */
import { hostname } from 'node:os';
import type { Store } from '../store/store.ts';
import {
  finishImportRecord,
  insertImportRecord,
  readRunningImports,
} from '../store/write-import-record.ts';
import type { ImportRecordUpdate, ImportStatus } from '../store/write-import-record.ts';

export type { ImportRecordUpdate, ImportStatus };

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
export function runningSummary(committed: string | null = null): string {
  return `running in process ${process.pid} on ${hostname()}${committed === null ? '' : `; ${committed}`}`;
}

/** Inserts the `running` row of a new import; returns its id (docs/operations.md#import-records). */
export async function startImportRecord(
  store: Store,
  format: string,
  sources: readonly string[],
): Promise<number> {
  return insertImportRecord(store, { format, sources, summary: runningSummary() });
}

/**
 * What the transaction of an import's last batch records (docs/operations.md#import-records): its
 * outcome, and, unless it failed or read standard input (never the same twice), that its rejects
 * supersede those of earlier imports of the same format and sources
 * (docs/import-formats.md#rejects-and-replay).
 */
export function finishedRecord(
  status: Exclude<ImportStatus, 'running'>,
  summary: string,
  format: string,
  sources: readonly string[],
): ImportRecordUpdate {
  const supersedes = status === 'failed' || sources.includes('-') ? null : { format, sources };
  return { status, summary, supersedes };
}

/** What a streamed batch that is not the last records: what has been committed so far. */
export function committedRecord(committed: string): ImportRecordUpdate {
  return { status: 'running', summary: runningSummary(committed) };
}

/** Records that an import failed outside any batch's transaction (its reason, what stays). */
export async function failImportRecord(
  store: Store,
  importId: number,
  summary: string,
): Promise<void> {
  await finishImportRecord(store, importId, 'failed', summary);
}

/**
 * Marks every `running` import whose process is gone as `interrupted`, saying what it committed
 * before it stopped; returns them. Called when an import or the server starts
 * (docs/operations.md#import-records).
 */
export async function markInterruptedImports(
  store: Store,
): Promise<Array<{ importId: number; summary: string }>> {
  const running = await readRunningImports(store);
  const now = Date.now();
  const marked: Array<{ importId: number; summary: string }> = [];
  for (const row of running) {
    if (!isDead(row.summary, row.startedAt, now)) continue;
    const match = row.summary === null ? null : MARKER.exec(row.summary);
    const where = match === null ? '' : ` (in process ${match[1]} on ${match[2]})`;
    const kept =
      match?.[3] === undefined
        ? 'no batch of it was committed'
        : `${match[3]} before it stopped, and stay`;
    const summary = `did not finish: its process stopped before the end${where}; ${kept}; the batch it was writing was not written`;
    await finishImportRecord(store, row.id, 'interrupted', summary);
    marked.push({ importId: row.id, summary });
  }
  return marked;
}
