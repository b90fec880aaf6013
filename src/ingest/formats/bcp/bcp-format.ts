/** Pairing-app exports, an event a folder, in batches (docs/import-formats.md#pairing-app-exports). */
import { BcpSystems, bcpBatches } from './bcp-sources.ts';
import { DEFAULT_BATCH_GAMES } from '../../import-format.ts';
import type { ImportFormatSpec } from '../../import-format.ts';
import { DEFAULT_MAX_RECORD_BYTES } from '../../input-text.ts';
import { storedSystems } from '../../read-sources.ts';

export const bcpFormat: ImportFormatSpec = {
  name: 'bcp',
  reads:
    'pairing-app exports: event.json, players.json, pairings.json, and an optional rosters/ folder',
  extension: null,
  needsEvent: false,
  streamed: true,
  example: {
    command: 'muster import --format bcp exports/spring-gt',
    see: "Matchups, filter System: the export's game system",
  },
  async *batches(store, paths, options) {
    const systems = new BcpSystems(await storedSystems(store), options.flags.system);
    yield* bcpBatches(
      paths,
      systems,
      options.batchGames ?? DEFAULT_BATCH_GAMES,
      options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    );
  },
};
