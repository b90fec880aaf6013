/**
 * `muster import` without the command line: reads the paths with the format's reader
 * (src/ingest/formats/) and runs one import over everything (docs/import-formats.md).
 */
import type { Store } from '../store/store.ts';
import type { ImportReadOptions } from './import-format.ts';
import type { ImportFormat, ImportReport } from './import-types.ts';
import { importFormatNamed, IMPORT_FORMATS } from './formats/index.ts';
import { runImportBatches } from './run-import.ts';
import type { ImportProgress } from './run-import.ts';

export interface ImportSourcesOptions extends Omit<ImportReadOptions, 'flags'> {
  /** A format's name (src/ingest/formats/index.ts). */
  format: ImportFormat;
  /** `--system`: the game system of a format whose sources do not name it. */
  system?: string;
  /** `--event`: the stored event a format that needs one attaches its records to. */
  event?: string;
  strict?: boolean;
  /** Streamed formats: called after each written batch with the running totals. */
  onBatch?: (progress: ImportProgress) => void;
}

/**
 * docs/import-formats.md#rules-for-every-format: every path read to the end by the format's
 * reader, each batch in its own transaction.
 */
export async function importSources(
  store: Store,
  paths: string[],
  options: ImportSourcesOptions,
): Promise<ImportReport> {
  const { format, strict, onBatch, system, event, ...read } = options;
  const spec = importFormatNamed(format);
  if (spec === undefined) {
    throw new Error(
      `unknown import format "${format}"; formats: ${IMPORT_FORMATS.map((f) => f.name).join(', ')}`,
    );
  }
  if (spec.needsEvent && event === undefined) {
    throw new Error(`--format ${format} needs --event ID: the event its records belong to`);
  }
  // Read inside the import, so a read that fails (a document over the limit) is recorded.
  const flags = { system, event };
  return runImportBatches(store, spec.batches(store, paths, { ...read, flags }), {
    format,
    sources: paths,
    strict,
    ...(spec.streamed ? { onBatch } : {}),
  });
}
