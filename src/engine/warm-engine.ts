/**
 * Builds everything the engine caches per snapshot (event order, the cubes, the pre-game
 * ratings behind `skill`, the filter values), so a freshly loaded snapshot answers its first request as fast as
 * its thousandth. The snapshot manager runs it before the swap, while the old one still serves.
 */
import { shortIdLengths } from './ratings/short-ids.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import {
  factionClusters,
  itemClusters,
  matchupClusters,
  scenarioClusters,
} from './cube/cluster-cubes.ts';
import { eventOrder } from './cube/event-order.ts';
import { factionCube } from './cube/faction-cube.ts';
import { playerPairs } from './cube/player-pairs.ts';
import { runTableCube } from './cube/run-table-cube.ts';
import { itemCube } from './cube/item-cube.ts';
import { matchupCube } from './cube/matchup-cube.ts';
import { scenarioCube } from './cube/scenario-cube.ts';
import { scenarioStatsCube } from './cube/scenario-stats-cube.ts';
import { eventsByDay } from './events/events-by-day.ts';
import { filterOptions } from './filter-options.ts';
import { itemNameRank } from './item-use-stats.ts';
import { preGameRatings, sideExpectedScores } from './ratings/snapshot-facts.ts';

/**
 * The warm-up in two parts of about the same cost, each holding every cache its own caches
 * read (the item and faction cubes read the expected scores, which read the pre-game ratings;
 * each cluster cube reads its route's cube), so the two can be built on two threads at once
 * (engine-derivation.ts); the event order, which nearly every cache reads, is built by both.
 * What each part costs is measured by the benchmark's load section (docs/operations.md#scale-model).
 */
export const WARM_PARTS: readonly (readonly ((snapshot: Snapshot) => unknown)[])[] = [
  [
    eventOrder,
    preGameRatings,
    sideExpectedScores,
    factionCube,
    itemCube,
    itemNameRank,
    factionClusters,
    itemClusters,
    shortIdLengths,
  ],
  [
    eventOrder,
    playerPairs,
    matchupCube,
    scenarioCube,
    scenarioStatsCube,
    runTableCube,
    matchupClusters,
    scenarioClusters,
    filterOptions,
    eventsByDay,
  ],
];

/** Every warm-up step once, each after the caches it reads. */
const WARM_STEPS = [...new Set(WARM_PARTS.flat())];

/**
 * Fills the per-snapshot caches (docs/architecture.md: statistics never wait on set-up at request
 * time).
 */
export function warmEngine(snapshot: Snapshot): void {
  for (const step of WARM_STEPS) step(snapshot);
}

/**
 * Fills the same caches one at a time, letting queued requests run between steps, so a reload
 * holds the event loop at most as long as its longest step (docs/architecture.md#snapshot-reloads).
 * When the caches' data was built on the loading thread (engine-derivation.ts), each step only
 * attaches to it. Resolves to the longest step in milliseconds.
 */
export async function warmEngineInSteps(snapshot: Snapshot): Promise<number> {
  let longest = 0;
  for (const step of WARM_STEPS) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const started = performance.now();
    step(snapshot);
    longest = Math.max(longest, performance.now() - started);
  }
  return longest;
}
