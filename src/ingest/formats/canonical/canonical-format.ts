/** The canonical muster/v1 format: JSON documents, read whole (docs/import-formats.md#canonical-musterv1). */
import type { ImportFormatSpec } from '../import-format.ts';
import { wholeBatch } from '../read-sources.ts';

export const canonicalFormat: ImportFormatSpec = {
  name: 'canonical',
  reads: '.json files, muster/v1 documents (the default)',
  extension: '.json',
  needsEvent: false,
  streamed: false,
  example: {
    command: 'muster import events.json',
    see: "Meta, filter System: the document's system",
  },
  batches: (_store, paths, options) => wholeBatch(paths, { extension: '.json' }, options),
};
