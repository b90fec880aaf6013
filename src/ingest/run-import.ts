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
import type { WriteResult } from '../store/write-batch.ts';
import {
  finishImportRecord,
  markInterruptedImports,
  startImportRecord,
  supersedeRejects,
} from './import-records.ts';
import type { ImportFormat, ImportReport, RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
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
  /** Every reject and every file reject, also past the ones kept for the report. */
  rejected: number;
  fileRejects: number;
  /** Records the adapters found (of any kind): none at all means nothing could be read. */
  records: number;
  notes: string[];
  newFactions: Set<string>;
  newSystems: string[];
  derivedIds: number;
  refused: boolean;
  dataVersion: number;
  progress: ImportProgress;
  /** The outcome, once the last batch's transaction has recorded it. */
  report: ImportReport | null;
}

function rawRecords(raw: RawBatch): number {
  return (
    raw.systems.length +
    raw.factions.length +
    raw.players.length +
    raw.scenarios.length +
    raw.events.length
  );
}

/**
 * Nothing could be read (every source unreadable, unparseable or empty): the import failed, and
 * writes nothing but its rejects (docs/import-formats.md#one-transaction).
 */
function nothingRead(state: RunState): boolean {
  return state.records === 0 && state.rejected > 0 && state.fileRejects === state.rejected;
}

/**
 * Validates and writes one batch in one transaction. The last batch's transaction (`last`, or a
 * batch strict refuses) also records the import's outcome, so the record and the data agree
 * whatever happens after the commit.
 */
async function runOneBatch(
  store: Store,
  raw: RawBatch,
  known: KnownState,
  context: { importId: number; started: number; last: boolean },
  options: RunImportOptions,
  state: RunState,
): Promise<void> {
  const { importId } = context;
  const { batch, rejects, notes } = validateBatch(raw, known, { strict: options.strict });
  const refuse = options.strict === true && rejects.length > 0;
  state.records += rawRecords(raw);
  state.rejected += rejects.length;
  state.fileRejects += rejects.filter((r) => r.kind === 'file').length;
  const last = context.last || refuse;
  const failed = last && nothingRead(state);
  const { counts: written, dataVersion } = await writeBatch(store.db, batch, rejects, importId, {
    writeData: !refuse && !failed,
    inTransaction: async (trx, result) => {
      if (!last) return;
      const report = reportOf(state, context, options, result, {
        rejects,
        notes,
        refuse,
        batch,
        raw,
      });
      await finishImportRecord(trx, importId, report.status, outcomeSummary(report));
      if (report.status !== 'failed')
        await supersedeRejects(trx, importId, options.format, options.sources);
      state.report = report;
    },
  });
  addBatch(state, { written, dataVersion, rejects, notes, refuse, batch, raw });
  if (state.report !== null) {
    // The report was built inside the transaction from the state before this batch was added.
    state.report = { ...state.report, counts: state.counts, rejects: state.rejects };
  }
  options.onBatch?.(state.progress);
}

interface BatchResult {
  rejects: Reject[];
  notes: string[];
  refuse: boolean;
  batch: ValidatedBatch;
  raw: RawBatch;
}

type ValidatedBatch = ReturnType<typeof validateBatch>['batch'];

/** Adds one written batch to the run's totals. */
function addBatch(
  state: RunState,
  b: BatchResult & { written: ImportCounts; dataVersion: number },
): void {
  const counts = batchCounts(b.written, b.rejects, b.refuse);
  addCounts(state.counts, counts);
  for (const r of b.rejects) if (state.rejects.length < MAX_REPORTED_REJECTS) state.rejects.push(r);
  for (const n of b.notes) if (state.notes.length < MAX_REPORTED_REJECTS) state.notes.push(n);
  if (!b.refuse) {
    for (const f of b.batch.newFactions) state.newFactions.add(f);
    state.newSystems.push(...b.batch.newSystems);
  }
  state.refused ||= b.refuse;
  state.derivedIds += b.raw.derivedIds;
  state.dataVersion = b.dataVersion;
  const games = b.batch.events.reduce((n, e) => n + e.games.length, 0);
  state.progress.read += games + b.rejects.length;
  state.progress.written += b.refuse ? 0 : games;
  state.progress.rejected += b.rejects.length;
}

/** A batch's counts: what was written (nothing when refused) and what was rejected. */
function batchCounts(written: ImportCounts, rejects: Reject[], refuse: boolean): ImportCounts {
  const counts = refuse ? zeroCounts() : structuredClone(written);
  for (const r of rejects) {
    const key = COUNTED[r.kind];
    if (key !== undefined) counts[key].rejected++;
  }
  return counts;
}

/** The run's report as it will be once the last batch (`b`, written as `result`) is added. */
function reportOf(
  state: RunState,
  context: { importId: number; started: number },
  options: RunImportOptions,
  result: WriteResult,
  b: BatchResult,
): ImportReport {
  const counts = zeroCounts();
  addCounts(counts, state.counts);
  addCounts(counts, batchCounts(result.counts, b.rejects, b.refuse));
  const rejects = [...state.rejects, ...b.rejects].slice(0, MAX_REPORTED_REJECTS);
  const newFactions = new Set(state.newFactions);
  if (!b.refuse) for (const f of b.batch.newFactions) newFactions.add(f);
  return {
    importId: context.importId,
    format: options.format,
    status: nothingRead(state) ? 'failed' : state.refused || b.refuse ? 'rejected' : 'imported',
    dataVersion: result.dataVersion,
    counts,
    newFactions: [...newFactions].sort(),
    newSystems: [...state.newSystems, ...(b.refuse ? [] : b.batch.newSystems)],
    derivedIds: state.derivedIds + b.raw.derivedIds,
    rejects,
    notes: [...state.notes, ...b.notes].slice(0, MAX_REPORTED_REJECTS),
    durationMs: performance.now() - context.started,
  };
}

/** The record's summary: why nothing was read, or the counts. */
function outcomeSummary(report: ImportReport): string {
  if (report.status !== 'failed') return summaryLine(report);
  return report.rejects
    .filter((r) => r.kind === 'file')
    .map((r) => `${r.source}: ${r.reason}`)
    .join('; ');
}

/**
 * Validates and writes batches one transaction each; the report sums them up. Each batch is
 * written only once the next one has been read, so the last one is known as last and its
 * transaction records the outcome; a batch whose successor cannot be read (a line over the record
 * limit) is not written.
 */
export async function runImportBatches(
  store: Store,
  batches: AsyncIterable<RawBatch> | Iterable<RawBatch>,
  options: RunImportOptions,
): Promise<ImportReport> {
  const started = performance.now();
  await markInterruptedImports(store);
  const importId = await startImportRecord(store, options.format, options.sources);
  const state: RunState = {
    counts: zeroCounts(),
    rejects: [],
    rejected: 0,
    fileRejects: 0,
    records: 0,
    notes: [],
    newFactions: new Set(),
    newSystems: [],
    derivedIds: 0,
    refused: false,
    dataVersion: await store.dataVersion(),
    progress: { read: 0, written: 0, rejected: 0 },
    report: null,
  };
  const iterator = toAsyncIterator(batches);
  try {
    // Validation keeps what it learns (systems, factions, spellings) in `known`, so later
    // batches resolve against earlier ones without reading the store again.
    const known = await loadKnownState(store);
    let current = await iterator.next();
    if (current.done) current = { done: false, value: emptyRawBatch(false) };
    while (!current.done) {
      const next = await iterator.next();
      const context = { importId, started, last: next.done === true };
      await runOneBatch(store, current.value, known, context, options, state);
      // Strict stops at the first refused batch: later ones could lean on what it declared.
      if (state.refused) break;
      current = next;
    }
    const report = state.report as ImportReport;
    return { ...report, durationMs: performance.now() - started };
  } catch (error) {
    await finishImportRecord(store.db, importId, 'failed', (error as Error).message).catch(
      () => undefined,
    );
    throw error;
  } finally {
    await iterator.return?.();
  }
}

function toAsyncIterator<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in items) return items[Symbol.asyncIterator]();
  const sync = items[Symbol.iterator]();
  return {
    next: async () => sync.next(),
    return: async (value?: unknown) => sync.return?.(value) ?? { done: true, value: undefined },
  } as AsyncIterator<T>;
}

/** Validates and writes one raw batch; the report lists every reject with its reason. */
export async function runImport(
  store: Store,
  raw: RawBatch,
  options: RunImportOptions,
): Promise<ImportReport> {
  return runImportBatches(store, [raw], options);
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
