/**
 * `muster import --format roster --event ID PATH...` (docs/import-formats.md#matching-rosters-to-players):
 * attaches a folder of list-builder rosters to the players of an event already in the store.
 * Each matched roster becomes its player's entry list (the list of the whole event, which every
 * side of theirs without a list of its own uses); the event is sent again with its entries, so
 * importing the same rosters twice changes nothing and a changed roster replaces its list.
 */
import type { Entry } from '../../../domain/model.ts';
import { readEventPlayers } from '../../../store/read-export.ts';
import type { Store } from '../../../store/store.ts';
import type { RawBatch } from '../../import-types.ts';
import { emptyRawBatch } from '../../import-types.ts';
import { matchRosters, playersWithoutList, rosterFiles } from './roster-attach.ts';

/** The raw batch of one event's rosters: the event with its entries, lists attached. */
export async function rosterBatch(
  store: Store,
  eventId: string,
  paths: string[],
): Promise<RawBatch> {
  const batch = emptyRawBatch(false);
  const stored = await readEventPlayers(store, eventId);
  if (stored === null)
    throw new Error(`no event "${eventId}" in the store: import the event first`);
  let files: string[];
  try {
    const found = await rosterFiles(paths);
    batch.rejects.push(...found.rejects);
    files = found.files;
    if (files.length === 0) throw new Error('no .ros, .rosz or .json rosters here');
  } catch (error) {
    batch.rejects.push({
      kind: 'file',
      source: paths.join(', '),
      record: null,
      field: null,
      reason: `cannot read: ${(error as Error).message}`,
      payload: null,
    });
    return batch;
  }
  const match = await matchRosters(files, stored.players, eventId);
  batch.rejects.push(...match.rejects);
  batch.notes.push(...match.notes);
  const listed = new Set(
    (stored.event.entries ?? []).filter((e) => e.list != null).map((e) => e.player),
  );
  const missing = playersWithoutList(eventId, stored.players, match.lists, listed);
  if (missing !== null) batch.notes.push(missing);
  if (match.lists.size === 0) return batch;
  const entries = new Map<string, Entry>((stored.event.entries ?? []).map((e) => [e.player, e]));
  // A player who has no entry yet gets one: their faction then follows from their games.
  for (const [player, list] of match.lists)
    entries.set(player, { ...(entries.get(player) ?? { player }), list });
  batch.events.push({
    source: files.length === 1 ? files[0] : paths.join(', '),
    record: `event ${eventId}`,
    value: { ...stored.event, entries: [...entries.values()] },
  });
  return batch;
}
