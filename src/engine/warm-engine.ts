/**
 * Builds everything the engine caches per snapshot (event order, the five cubes, the pre-game
 * ratings behind `skill`), so a freshly loaded snapshot answers its first request as fast as
 * its thousandth. The snapshot manager runs it before the swap, while the old one still serves.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { factionCube } from './cube/faction-cube.ts';
import { itemCube } from './cube/item-cube.ts';
import { matchupCube } from './cube/matchup-cube.ts';
import { scenarioCube } from './cube/scenario-cube.ts';
import { scenarioStatsCube } from './cube/scenario-stats-cube.ts';
import { preGameRatings } from './ratings/snapshot-facts.ts';

/** Fills the per-snapshot caches (DESIGN.md §2: statistics never wait on set-up at request time). */
export function warmEngine(snapshot: Snapshot): void {
  preGameRatings(snapshot);
  factionCube(snapshot);
  matchupCube(snapshot);
  itemCube(snapshot);
  scenarioCube(snapshot);
  scenarioStatsCube(snapshot);
}
