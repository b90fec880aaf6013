/**
 * Loads a Snapshot from the store through the read-facts queries
 * (docs/architecture.md#the-snapshot-and-its-lifecycle).
 */
import {
  readCompletedEntries,
  readCompletedEvents,
  readFactions,
  readGames,
  readListItems,
  readScenarios,
  readSystems,
} from '../store/read-facts.ts';
import { readPlayers, readSatelliteEvents } from '../store/read-events.ts';
import { readMeta } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import type { Snapshot } from './snapshot.ts';
import { SnapshotBuilder } from './snapshot-builder.ts';

/**
 * Reads every fact of completed events at the store's current data version, with the players'
 * names and countries and the satellite calendar beside them.
 */
export async function loadSnapshot(store: Store): Promise<Snapshot> {
  const started = performance.now();
  // Read the version first: a concurrent import makes the snapshot newer, never staler, than it says.
  const dataVersion = await store.dataVersion();
  const [demo, systems, factions, scenarios, events, entries, players, calendar] =
    await Promise.all([
      readMeta(store.db, 'demo'),
      readSystems(store.db),
      readFactions(store.db),
      readScenarios(store.db),
      readCompletedEvents(store.db),
      readCompletedEntries(store),
      readPlayers(store.db),
      readSatelliteEvents(store.db),
    ]);
  const builder = new SnapshotBuilder(systems, factions, scenarios, events, entries);
  builder.setPlayerDirectory(players);
  builder.setCalendar(calendar);
  for await (const page of readGames(store)) builder.addGames(page);
  for await (const page of readListItems(store)) builder.addListItems(page);
  // The label belongs to the data: a system imported as demo (docs/import-formats.md#game-systems),
  // with the seeding note from meta when the store has one.
  const notice = systems.some((s) => Number(s.demo) === 1)
    ? `DEMO DATA: generated${demo === null ? '' : ` (${demo})`}, not real tournament results`
    : null;
  return builder.finish(dataVersion, started, notice);
}
