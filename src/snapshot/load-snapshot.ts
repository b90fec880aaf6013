/**
 * Loads a Snapshot from the store through the read-facts queries
 * (docs/architecture.md#the-snapshot-and-its-lifecycle).
 */
import {
  DEFAULT_PAGE_SIZE,
  gameKeyRanges,
  gameKeySplits,
  readEntries,
  readCompletedEvents,
  readFactions,
  readGames,
  readListItems,
  readScenarios,
  readSystems,
} from '../store/read-facts.ts';
import type { FactReader, GameKeyRange } from '../store/read-facts.ts';
import { readPlayers, readSatelliteEvents } from '../store/read-events.ts';
import { mergedIds } from '../domain/player-merge.ts';
import { readStandingMerges } from '../store/player-merges.ts';
import { readUnplayedGames } from '../store/read-unplayed.ts';
import { readMeta } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import type { Snapshot } from './snapshot.ts';
import type { SnapshotPart } from './snapshot-part.ts';
import { SnapshotBuilder } from './snapshot-builder.ts';

export interface LoadSnapshotOptions {
  /**
   * Reads the games in `count` key ranges at once: this thread the first, and `read` each of the
   * others (the loading thread's helpers, src/threads/read-part-host.ts; null: it failed, and
   * this thread reads the range). The snapshot is the same as one read in a single range.
   */
  readonly readers?: {
    readonly count: number;
    read(range: GameKeyRange): Promise<SnapshotPart | null>;
  };
}

/**
 * A builder over the events, entries and reference records that every range's games need, with
 * the standing player merges (merged id -> kept id) applied to them when given.
 */
export async function gameBuilder(
  store: FactReader,
  merged: ReadonlyMap<string, string> = new Map(),
): Promise<SnapshotBuilder> {
  const [systems, factions, scenarios, events] = await Promise.all([
    readSystems(store),
    readFactions(store),
    readScenarios(store),
    readCompletedEvents(store),
  ]);
  const builder = new SnapshotBuilder(systems, factions, scenarios, events);
  builder.setMerges(merged);
  for await (const page of readEntries(store)) builder.addEntries(page);
  return builder;
}

/** Adds the games of `range` to `builder`, read on this thread. */
export async function addGameRange(
  store: FactReader,
  builder: SnapshotBuilder,
  range: GameKeyRange,
): Promise<void> {
  for await (const page of readGames(store, DEFAULT_PAGE_SIZE, range)) builder.addGames(page);
}

/**
 * Reads every fact of completed events at the store's current data version, with the players'
 * names and countries and the satellite calendar beside them.
 */
export async function loadSnapshot(
  store: Store,
  options: LoadSnapshotOptions = {},
): Promise<Snapshot> {
  const started = performance.now();
  const { readers } = options;
  // Read the version first: a concurrent import makes the snapshot newer, never staler, than it says.
  const dataVersion = await store.dataVersion();
  const ranges = gameKeyRanges(
    readers !== undefined && readers.count > 1 ? await gameKeySplits(store, readers.count) : [],
  );
  // Started first, so the helpers read while this thread reads its own range.
  const helpers = ranges.slice(1).map((range) => readers!.read(range));
  // A helper reads its range's games as stored: merges apply where its part joins this builder.
  const merged = mergedIds(await readStandingMerges(store));
  const [builder, demo, players, calendar, pairings] = await Promise.all([
    gameBuilder(store, merged),
    readMeta(store, 'demo'),
    readPlayers(store),
    readSatelliteEvents(store),
    readUnplayedGames(store),
  ]);
  builder.setPlayerDirectory(players);
  builder.setCalendar(calendar);
  builder.setPairings(pairings);
  await addGameRange(store, builder, ranges[0]);
  for (const [i, helper] of helpers.entries()) {
    const part = await helper;
    // A helper that failed (it logs nothing: its range is simply read here) costs time, not data.
    if (part === null) await addGameRange(store, builder, ranges[i + 1]);
    else builder.mergePart(part);
  }
  for await (const page of readListItems(store)) builder.addListItems(page);
  // The label belongs to the data: a system imported as demo (docs/import-formats.md#game-systems),
  // with the seeding note from meta when the store has one.
  const notice = builder.hasDemoSystem()
    ? `DEMO DATA: generated${demo === null ? '' : ` (${demo})`}, not real tournament results`
    : null;
  return builder.finish(dataVersion, started, notice);
}
