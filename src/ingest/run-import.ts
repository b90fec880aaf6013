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
import {
  committedRecord,
  failImportRecord,
  finishedRecord,
  markInterruptedImports,
  startImportRecord,
} from './import-records.ts';
import type { ImportFormat, ImportReport, RawBatch, RejectGroup } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
import { loadKnownState } from './known-state.ts';
import type { KnownState } from './known-state.ts';
import { validateBatch } from './validate-batch.ts';
import { checkMergesAgainstStore } from './validate-merges.ts';

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

const COUNTED: Partial<Record<RecordKind, 'events' | 'players' | 'games' | 'merges'>> = {
  event: 'events',
  player: 'players',
  game: 'games',
  merge: 'merges',
};

/**
 * Rejects kept in memory for the printed report (docs/operations.md#import-limits); every reject is
 * stored with its payload as its batch is written, and counted exactly.
 */
export const REPORT_SAMPLE_REJECTS = 1_000;

/** Distinct reasons counted for the printed report; later ones are counted in the total only. */
export const REPORT_REJECT_GROUPS = 1_000;

/** Notes kept for the report. */
const MAX_NOTES = 10_000;

function addCounts(total: ImportCounts, add: ImportCounts): void {
  for (const key of ['events', 'players', 'games', 'lists', 'merges'] as const) {
    total[key].imported += add[key].imported;
    total[key].updated += add[key].updated;
    total[key].unchanged += add[key].unchanged;
    total[key].rejected += add[key].rejected;
  }
}

interface RunState {
  counts: ImportCounts;
  /** The first rejects, for printing. */
  rejects: Reject[];
  groups: Map<string, RejectGroup>;
  /** Every reject and every file reject, also past the ones kept for the report. */
  rejected: number;
  fileRejects: number;
  wholeFileRejects: number;
  /** Records the adapters found (of any kind): none at all means nothing could be read. */
  records: number;
  notes: string[];
  newFactions: Set<string>;
  newSystems: string[];
  derivedIds: number;
  refused: boolean;
  dataVersion: number;
  /** Batches committed. */
  batches: number;
  progress: ImportProgress;
  interrupted: ImportReport['interrupted'];
}

function rawRecords(raw: RawBatch): number {
  return (
    raw.systems.length +
    raw.factions.length +
    raw.players.length +
    raw.scenarios.length +
    raw.events.length +
    raw.playerMerges.length
  );
}

/**
 * Nothing could be read (every source unreadable, unparseable or empty): the import failed, and
 * writes nothing but its rejects (docs/import-formats.md#one-transaction).
 */
function nothingRead(state: RunState): boolean {
  return state.records === 0 && state.rejected > 0 && state.fileRejects === state.rejected;
}

/** Counts a batch's rejects and keeps the first ones (and their reasons) for the report. */
function tallyRejects(state: RunState, rejects: readonly Reject[]): void {
  for (const r of rejects) {
    state.rejected++;
    if (r.kind === 'file') {
      state.fileRejects++;
      if (r.record === null) state.wholeFileRejects++;
    }
    if (state.rejects.length < REPORT_SAMPLE_REJECTS) state.rejects.push(r);
    const key = `${r.kind}\u0000${r.field ?? ''}\u0000${r.reason}`;
    const group = state.groups.get(key);
    if (group !== undefined) group.count++;
    else if (state.groups.size < REPORT_REJECT_GROUPS)
      state.groups.set(key, { first: r, count: 1 });
  }
}

/**
 * Validates and writes one batch in one transaction. The last batch's transaction (`last`, or a
 * batch strict refuses) also records the import's outcome, and every other batch's transaction
 * what has been committed so far, so the record and the data agree whatever happens after the
 * commit.
 */
async function runOneBatch(
  store: Store,
  raw: RawBatch,
  known: KnownState,
  context: { importId: number; started: number; last: boolean },
  options: RunImportOptions,
  state: RunState,
): Promise<ImportReport | null> {
  const { importId } = context;
  const { batch, rejects, notes } = validateBatch(raw, known, { strict: options.strict });
  await checkMergesAgainstStore(store, batch, rejects);
  const refuse = options.strict === true && rejects.length > 0;
  // The run's state takes the batch before it is written: a batch whose write fails fails the
  // whole import, so the state is never read again but for the batches already committed.
  state.records += rawRecords(raw);
  tallyRejects(state, rejects);
  for (const n of notes) if (state.notes.length < MAX_NOTES) state.notes.push(n);
  if (!refuse) {
    for (const f of batch.newFactions) state.newFactions.add(f);
    state.newSystems.push(...batch.newSystems);
  }
  state.refused ||= refuse;
  state.derivedIds += raw.derivedIds;
  const last = context.last || refuse;
  const failed = last && nothingRead(state);
  let report: ImportReport | null = null;
  await writeBatch(store, batch, rejects, importId, {
    writeData: !refuse && !failed,
    record: (result) => {
      addWritten(state, { written: result.counts, rejects, refuse, batch });
      state.dataVersion = result.dataVersion;
      if (!last) return committedRecord(committedLine(state, state.batches + 1));
      const done = reportOf(state, context, options, state.batches + 1);
      report = done;
      return finishedRecord(done.status, outcomeSummary(done), options.format, options.sources);
    },
  });
  state.batches++;
  options.onBatch?.(state.progress);
  return report;
}

/** "3 batches committed: 60,000 games written, 12 rejected": what a streamed import has kept. */
function committedLine(state: RunState, batches: number): string {
  const n = (x: number) => x.toLocaleString('en');
  return `${n(batches)} batch(es) committed: ${n(state.progress.read)} records read, ${n(state.progress.written)} games written, ${n(state.rejected)} rejected`;
}

/** Adds one written batch's counts to the run's totals. */
function addWritten(
  state: RunState,
  b: { written: ImportCounts; rejects: Reject[]; refuse: boolean; batch: ValidatedBatch },
): void {
  addCounts(state.counts, batchCounts(b.written, b.rejects, b.refuse));
  const games = b.batch.events.reduce((n, e) => n + e.games.length, 0);
  state.progress.read += games + b.rejects.length;
  state.progress.written += b.refuse ? 0 : games;
  state.progress.rejected += b.rejects.length;
}

type ValidatedBatch = ReturnType<typeof validateBatch>['batch'];

/** A batch's counts: what was written (nothing when refused) and what was rejected. */
function batchCounts(written: ImportCounts, rejects: Reject[], refuse: boolean): ImportCounts {
  const counts = refuse ? zeroCounts() : structuredClone(written);
  for (const r of rejects) {
    const key = COUNTED[r.kind];
    if (key !== undefined) counts[key].rejected++;
    // A rejected event takes its games with it: the games tally says so, so the tallies add up.
    if (r.kind === 'event') counts.games.rejected += gamesIn(r.payload);
  }
  return counts;
}

/** The games an event's payload carries (0 when it is not an event with games). */
function gamesIn(payload: unknown): number {
  const games = (payload as { games?: unknown } | null)?.games;
  return Array.isArray(games) ? games.length : 0;
}

/** The run's report, once its last batch has been added to the state. */
function reportOf(
  state: RunState,
  context: { importId: number; started: number },
  options: RunImportOptions,
  batches: number,
): ImportReport {
  return {
    importId: context.importId,
    format: options.format,
    status: nothingRead(state) ? 'failed' : state.refused ? 'rejected' : 'imported',
    dataVersion: state.dataVersion,
    counts: structuredClone(state.counts),
    newFactions: [...state.newFactions].sort(),
    newSystems: [...state.newSystems],
    derivedIds: state.derivedIds,
    rejects: [...state.rejects],
    rejectCount: state.rejected,
    fileRejects: {
      whole: state.wholeFileRejects,
      parts: state.fileRejects - state.wholeFileRejects,
    },
    rejectGroups: [...state.groups.values()].map((g) => ({ ...g })),
    batches,
    notes: [...state.notes],
    interrupted: state.interrupted,
    durationMs: performance.now() - context.started,
  };
}

/** Reasons listed in a failed import's summary; the rest are counted. */
const SUMMARY_REASONS = 3;

/**
 * The record's summary: why nothing was read, or the counts. Bounded whatever the number of
 * rejects, since health shows it (docs/operations.md#import-limits): a few reasons, each with how many
 * records gave it; `muster rejects` lists them all.
 */
function outcomeSummary(report: ImportReport): string {
  if (report.status !== 'failed') return summaryLine(report);
  const groups = report.rejectGroups.filter((g) => g.first.kind === 'file');
  const shown = groups.slice(0, SUMMARY_REASONS).map(({ first, count }) => {
    const more = count > 1 ? ` (and ${(count - 1).toLocaleString('en')} more like it)` : '';
    return `${first.source}: ${first.reason}${more}`;
  });
  const listed = groups.slice(0, SUMMARY_REASONS).reduce((n, g) => n + g.count, 0);
  const rest = report.rejectCount - listed;
  if (rest > 0) shown.push(`${rest.toLocaleString('en')} more`);
  if (report.rejectCount > 1)
    shown.push(
      `${report.rejectCount.toLocaleString('en')} rejects in all (muster rejects --import ${report.importId})`,
    );
  return shown.join('; ');
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
  const interrupted = await markInterruptedImports(store);
  const importId = await startImportRecord(store, options.format, options.sources);
  const state: RunState = {
    counts: zeroCounts(),
    rejects: [],
    groups: new Map(),
    rejected: 0,
    fileRejects: 0,
    wholeFileRejects: 0,
    records: 0,
    notes: [],
    newFactions: new Set(),
    newSystems: [],
    derivedIds: 0,
    refused: false,
    dataVersion: await store.dataVersion(),
    batches: 0,
    progress: { read: 0, written: 0, rejected: 0 },
    interrupted,
  };
  const iterator = toAsyncIterator(batches);
  let report: ImportReport | null = null;
  try {
    // Validation keeps what it learns (systems, factions, spellings) in `known`, so later
    // batches resolve against earlier ones without reading the store again.
    const known = await loadKnownState(store);
    let current = await iterator.next();
    if (current.done) current = { done: false, value: emptyRawBatch(false) };
    while (!current.done) {
      const next = await iterator.next();
      const context = { importId, started, last: next.done === true };
      report = await runOneBatch(store, current.value, known, context, options, state);
      // Strict stops at the first refused batch: later ones could lean on what it declared.
      if (state.refused) break;
      current = next;
    }
    return { ...(report as ImportReport), durationMs: performance.now() - started };
  } catch (error) {
    // What earlier batches committed stays: the record says so beside the reason.
    const kept = state.batches > 0 ? `; ${committedLine(state, state.batches)}, and stay` : '';
    await failImportRecord(store, importId, `${(error as Error).message}${kept}`).catch(
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
  const files = report.fileRejects.whole + report.fileRejects.parts;
  const notes = [
    ...(report.newSystems.length > 0 ? [`new systems ${report.newSystems.join(', ')}`] : []),
    ...(report.derivedIds > 0 ? [`${report.derivedIds} game ids derived`] : []),
    ...(files > 0 ? [`files ${files} unreadable`] : []),
    ...(report.rejectCount > 0 ? [`${report.rejectCount} rejects stored`] : []),
    ...(report.batches > 1 ? [`${report.batches} batches`] : []),
    ...(report.notes.length > 0 ? [`${report.notes.length} notes`] : []),
  ];
  // Merges only where the input had some: most formats never carry them.
  const merges = Object.values(report.counts.merges).some((n) => n > 0) ? [part('merges')] : [];
  return [part('events'), part('players'), part('games'), part('lists'), ...merges, ...notes].join(
    '; ',
  );
}
