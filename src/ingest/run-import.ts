/**
 * One import, start to finish (DESIGN.md §4): validate the adapter's records against the store,
 * write the valid ones and every reject in one transaction (or, with strict, only the rejects),
 * and record the import with its summary for health and for replay.
 */
import type { Store } from '../store/store.ts';
import { writeBatch } from '../store/write-batch.ts';
import { finishImportRecord, markInterruptedImports, startImportRecord } from './import-records.ts';
import type { RecordKind } from '../domain/import-batch.ts';
import { zeroCounts } from '../domain/import-batch.ts';
import type { ImportFormat, ImportReport, RawBatch } from './import-types.ts';
import { loadKnownState } from './known-state.ts';
import { validateBatch } from './validate-batch.ts';

export interface RunImportOptions {
  format: ImportFormat;
  sources: string[];
  /** Refuse the whole batch when any record is rejected. */
  strict?: boolean;
}

const COUNTED: Partial<Record<RecordKind, 'events' | 'players' | 'games'>> = {
  event: 'events',
  player: 'players',
  game: 'games',
};

/** Validates and writes a raw batch; the report lists every reject with its reason. */
export async function runImport(
  store: Store,
  raw: RawBatch,
  options: RunImportOptions,
): Promise<ImportReport> {
  const started = performance.now();
  await markInterruptedImports(store);
  const importId = await startImportRecord(store, options.format, options.sources);
  const finish = (status: 'imported' | 'rejected' | 'failed', summary: string) =>
    finishImportRecord(store, importId, status, summary);

  try {
    const known = await loadKnownState(store);
    const { batch, rejects } = validateBatch(raw, known);
    const refuse = options.strict === true && rejects.length > 0;
    const { counts: written, dataVersion } = await writeBatch(store.db, batch, rejects, importId, {
      writeData: !refuse,
    });
    const counts = refuse ? zeroCounts() : written;
    for (const r of rejects) {
      const key = COUNTED[r.kind];
      if (key !== undefined) counts[key].rejected++;
    }
    // Nothing could be read (every source unreadable or unparseable): the import failed.
    const unreadable = rejects.filter((r) => r.kind === 'file');
    const failed =
      unreadable.length > 0 && unreadable.length === rejects.length && !anyRecord(counts);
    const report: ImportReport = {
      importId,
      format: options.format,
      status: failed ? 'failed' : refuse ? 'rejected' : 'imported',
      dataVersion,
      counts,
      newFactions: refuse ? [] : batch.newFactions,
      newSystems: refuse ? [] : batch.newSystems,
      derivedIds: raw.derivedIds,
      rejects,
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
  ];
  return [part('events'), part('players'), part('games'), part('lists'), ...notes].join('; ');
}
