/** List-builder rosters attached to an event's players (docs/import-formats.md#list-builder-rosters). */
import type { ImportFormatSpec } from '../../import-format.ts';
import { rosterBatch } from './roster-adapter.ts';

export const rosterFormat: ImportFormatSpec = {
  name: 'roster',
  reads:
    'BattleScribe .ros/.rosz and New Recruit .json rosters, attached to the players of --event',
  extension: null,
  needsEvent: true,
  streamed: false,
  example: {
    command: 'muster import --format roster --event spring-gt rosters/',
    see: "Lists, filter System: the event's system",
  },
  async *batches(store, paths, options) {
    const event = options.flags.event;
    if (event === undefined) {
      throw new Error(
        '--format roster needs --event ID: the event whose players the rosters belong to',
      );
    }
    yield await rosterBatch(store, event, paths);
  },
};
