/** NDJSON: one muster/v1 document a line, streamed in batches (docs/import-formats.md#ndjson). */
import type { ImportFormatSpec } from '../../import-format.ts';
import { streamedBatches } from '../../read-sources.ts';
import { ndjsonBatches } from './ndjson-adapter.ts';

/** NDJSON reads: 1 MiB, a sixteenth of the reads (and of the waits for the thread pool) of the default. */
const NDJSON_READ_BYTES = 1024 * 1024;

export const ndjsonFormat: ImportFormatSpec = {
  name: 'ndjson',
  reads: '.ndjson files, one muster/v1 document per line',
  extension: '.ndjson',
  needsEvent: false,
  streamed: true,
  example: {
    command: 'muster export | MUSTER_DATABASE_URL=postgres://… muster import --format ndjson -',
    see: 'Rankings, any System: the same answers as the source store',
  },
  batches: (_store, paths, options) =>
    streamedBatches(
      paths,
      { extension: '.ndjson', readBytes: NDJSON_READ_BYTES, batches: ndjsonBatches },
      options,
    ),
};
