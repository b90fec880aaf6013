/** Organisers' CSV sheets, a game a row, streamed in batches (docs/import-formats.md#csv). */
import type { ImportFormatSpec } from '../../import-format.ts';
import { readSystemIds } from '../../../store/read-known.ts';
import type { Store } from '../../../store/store.ts';
import { streamedBatches } from '../../read-sources.ts';
import { csvBatches } from './csv-adapter.ts';

/**
 * CSV reads: 64 KiB. The CSV parser turns each chunk it is given into records at once, whatever
 * its consumer has taken, so a large chunk of short rows holds tens of thousands of records' cell
 * buffers at once; a small chunk bounds that (docs/operations.md#import-limits).
 */
const CSV_READ_BYTES = 64 * 1024;

/** The store's only game system, for sources that do not name theirs (docs/import-formats.md#csv). */
async function defaultSystem(store: Store): Promise<string> {
  const systems = await readSystemIds(store);
  if (systems.length === 1) return systems[0];
  throw new Error(
    systems.length === 0
      ? 'the store has no game system yet: import its definition (canonical systems[]) first, or pass --system'
      : `the store holds several game systems (${systems.join(', ')}): pass --system`,
  );
}

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
    const system = options.flags.system ?? (await defaultSystem(store));
    yield* streamedBatches(
      paths,
      {
        extension: '.csv',
        readBytes: CSV_READ_BYTES,
        batches: (input, source, size, limit) => csvBatches(input, source, system, size, limit),
      },
      options,
    );
  },
};
