/** Organisers' CSV sheets, a game a row, streamed in batches (docs/import-formats.md#csv). */
import type { ImportFormatSpec } from '../import-format.ts';
import { defaultSystem, streamedBatches } from '../read-sources.ts';

export const csvFormat: ImportFormatSpec = {
  name: 'csv',
  reads: '.csv files, a game a row',
  extension: '.csv',
  needsEvent: false,
  streamed: true,
  example: {
    command: 'muster import --format csv --system kow results/*.csv',
    see: "Meta, filter System: kow, From the first event's date",
  },
  async *batches(store, paths, options) {
    const system = options.system ?? (await defaultSystem(store));
    yield* streamedBatches(paths, 'csv', system, options);
  },
};
