/**
 * The few reads an answering process makes of the store itself (health and metrics), kept here
 * so that the HTTP layer names what it needs rather than querying; each runs as a probe, bounded
 * in time (docs/operations.md#store-outages).
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { readDataVersion, readMeta } from './store.ts';

/** The newest finished import run, as health shows it. */
export interface LastImport {
  id: number;
  finished_at: string | null;
  format: string;
  status: string;
  summary: string | null;
}

export interface ServiceState {
  dataVersion: number;
  /** The demo note in meta, or null when the store holds no generated demo data. */
  demo: string | null;
  lastImport: LastImport | undefined;
}

/** The store's data version, demo note and newest finished import (docs/operations.md#health). */
export async function readServiceState(db: Kysely<Database>): Promise<ServiceState> {
  const [dataVersion, demo, lastImport] = await Promise.all([
    readDataVersion(db),
    readMeta(db, 'demo'),
    db
      .selectFrom('imports')
      .select(['id', 'finished_at', 'format', 'status', 'summary'])
      .where('finished_at', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    dataVersion,
    demo,
    lastImport: lastImport === undefined ? undefined : { ...lastImport, id: Number(lastImport.id) },
  };
}

/** Import runs by status, and how long the last finished one took (docs/operations.md#metrics). */
export interface ImportRuns {
  readonly byStatus: Readonly<Record<string, number>>;
  readonly lastSeconds: number | null;
}

/** The store's import runs by status and the last finished one's duration. */
export async function readImportRuns(db: Kysely<Database>): Promise<ImportRuns> {
  const [counts, last] = await Promise.all([
    db
      .selectFrom('imports')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('runs')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('imports')
      .select(['started_at', 'finished_at'])
      .where('finished_at', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const byStatus = Object.fromEntries(counts.map((row) => [row.status, Number(row.runs)]));
  const lastSeconds =
    last?.finished_at == null
      ? null
      : (Date.parse(last.finished_at) - Date.parse(last.started_at)) / 1000;
  return { byStatus, lastSeconds: Number.isFinite(lastSeconds) ? lastSeconds : null };
}
