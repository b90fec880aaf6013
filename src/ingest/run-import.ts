/**
 * One import, start to finish (docs/import-formats.md#one-transaction): validate the adapter's
 * records against the store, write the valid ones and every reject in one transaction per batch
 * (or, with strict, only the rejects), and record the import with its summary for health and
 * for replay. A streamed input arrives as several batches, each its own transaction, so memory is
 * bounded by the batch, not the file.
 */
import type { ImportCounts, RecordKind, Reject } from '../domain/import-batch.ts';
import { zeroCounts } from '../domain/import-batch.ts';
import type { Store } from '../store/store.ts';
import { writeBatch } from '../store/write-batch.ts';
import { finishImportRecord, markInterruptedImports, startImportRecord } from './import-records.ts';
import type { ImportFormat, ImportReport, RawBatch } from './import-types.ts';
import { loadKnownState } from './known-state.ts';
import type { KnownState } from './known-state.ts';
import { validateBatch } from './validate-batch.ts';

export interface RunImportOptions {
  format: ImportFormat;
  sources: string[];
  /** Refuse the whole batch when any record is rejected. */
  strict?: boolean;
  /** Called after each written batch with the running totals. */
  onBatch?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  read: number;
  written: number;
  rejected: number;
}

const COUNTED: Partial<Record<RecordKind, 'events' | 'players' | 'games'>> = {
  event: 'events',
  player: 'players',
  game: 'games',
};

/** Rejects kept in memory for the report; all of them are stored in the rejects table. */
const MAX_REPORTED_REJECTS = 10_000;

function addCounts(total: ImportCounts, add: ImportCounts): void {
  for (const key of ['events', 'players', 'games', 'lists'] as const) {
    total[key].imported += add[key].imported;
    total[key].updated += add[key].updated;
    total[key].unchanged += add[key].unchanged;
    total[key].rejected += add[key].rejected;
  }
}

interface RunState {
  counts: ImportCounts;
  rejects: Reject[];
  notes: string[];
  newFactions: Set<string>;
  newSystems: string[];
  derivedIds: number;
  refused: boolean;
  dataVersion: number;
  progress: ImportProgress;
}

async function runOneBatch(
  store: Store,
  raw: RawBatch,
  known: KnownState,
  importId: number,
  options: RunImportOptions,
  state: RunState,
): Promise<void> {
  const { batch, rejects, notes } = validateBatch(raw, known, { strict: options.strict });
  const refuse = options.strict === true && rejects.length > 0;
  const { counts: written, dataVersion } = await writeBatch(store.db, batch, rejects, importId, {
    writeData: !refuse,
  });
  const counts = refuse ? zeroCounts() : written;
  for (const r of rejects) {
    const key = COUNTED[r.kind];
    if (key !== undefined) counts[key].rejected++;
  }
  addCounts(state.counts, counts);
  for (const r of rejects) if (state.rejects.length < MAX_REPORTED_REJECTS) state.rejects.push(r);
  for (const n of notes) if (state.notes.length < MAX_REPORTED_REJECTS) state.notes.push(n);
  if (!refuse) {
    for (const f of batch.newFactions) state.newFactions.add(f);
    state.newSystems.push(...batch.newSystems);
  }
  state.refused ||= refuse;
  state.derivedIds += raw.derivedIds;
  state.dataVersion = dataVersion;
  const games = batch.events.reduce((n, e) => n + e.games.length, 0);
  state.progress.read += games + rejects.length;
  state.progress.written += refuse ? 0 : games;
  state.progress.rejected += rejects.length;
  options.onBatch?.(state.progress);
}

/** Validates and writes batches one transaction each; the report sums them up. */
export async function runImportBatches(
  store: Store,
  batches: AsyncIterable<RawBatch> | Iterable<RawBatch>,
  options: RunImportOptions,
): Promise<ImportReport> {
  const started = performance.now();
  await markInterruptedImports(store);
  const importId = await startImportRecord(store, options.format, options.sources);
  const finish = (status: 'imported' | 'rejected' | 'failed', summary: string) =>
    finishImportRecord(store, importId, status, summary);
  const state: RunState = {
    counts: zeroCounts(),
    rejects: [],
    notes: [],
    newFactions: new Set(),
    newSystems: [],
    derivedIds: 0,
    refused: false,
    dataVersion: await store.dataVersion(),
    progress: { read: 0, written: 0, rejected: 0 },
  };
  try {
    // Validation keeps what it learns (systems, factions, spellings) in `known`, so later
    // batches resolve against earlier ones without reading the store again.
    const known = await loadKnownState(store);
    for await (const raw of batches) {
      await runOneBatch(store, raw, known, importId, options, state);
      // Strict stops at the first refused batch: later ones could lean on what it declared.
      if (state.refused) break;
    }
    // Nothing could be read (every source unreadable or unparseable): the import failed.
    const unreadable = state.rejects.filter((r) => r.kind === 'file');
    const failed =
      unreadable.length > 0 &&
      unreadable.length === state.rejects.length &&
      !anyRecord(state.counts);
    const report: ImportReport = {
      importId,
      format: options.format,
      status: failed ? 'failed' : state.refused ? 'rejected' : 'imported',
      dataVersion: state.dataVersion,
      counts: state.counts,
      newFactions: [...state.newFactions].sort(),
      newSystems: state.newSystems,
      derivedIds: state.derivedIds,
      rejects: state.rejects,
      notes: state.notes,
      durationMs: performance.now() - started,
    };
    await finish(
      report.status,
      failed ? unreadable.map((r) => `${r.source}: ${r.reason}`).join('; ') : summaryLine(report),
    );
    return report;
  } catch (error) {
    await finish('failed', (error as Error).message).catch(() => undefined);
    throw error;
  }
}

/** Validates and writes one raw batch; the report lists every reject with its reason. */
export async function runImport(
  store: Store,
  raw: RawBatch,
  options: RunImportOptions,
): Promise<ImportReport> {
  return runImportBatches(store, [raw], options);
}

function anyRecord(counts: ImportReport['counts']): boolean {
  return Object.values(counts).some((c) => c.imported + c.updated + c.unchanged + c.rejected > 0);
}

/** "events 3 imported, 1 updated, ... rejected 2": one line for logs and health. */
export function summaryLine(report: ImportReport): string {
  const part = (name: keyof ImportReport['counts']) => {
    const c = report.counts[name];
    return `${name} ${c.imported} imported, ${c.updated} updated, ${c.unchanged} unchanged, ${c.rejected} rejected`;
  };
  const files = report.rejects.filter((r) => r.kind === 'file').length;
  const notes = [
    ...(report.newSystems.length > 0 ? [`new systems ${report.newSystems.join(', ')}`] : []),
    ...(report.derivedIds > 0 ? [`${report.derivedIds} game ids derived`] : []),
    ...(files > 0 ? [`files ${files} unreadable`] : []),
    ...(report.notes.length > 0 ? [`${report.notes.length} notes`] : []),
  ];
  return [part('events'), part('players'), part('games'), part('lists'), ...notes].join('; ');
}
