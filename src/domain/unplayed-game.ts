/**
 * A game paired but not played yet (docs/data-model.md#unplayed-games): a round's table with its
 * two players and factions and no result on either side. Statistics, ratings and counts leave it
 * out; its event lists it in its round and is running while it has one.
 */
import type { Game } from './model.ts';

/** What the store keeps as both sides' result while the game is unplayed. */
export const UNPLAYED_RESULT = 'unplayed';

/** Whether a game has neither a result nor a score on either side (docs/data-model.md#unplayed-games). */
export function isUnplayed(game: Pick<Game, 'sides'>): boolean {
  return game.sides.every(
    (s) => (s.result ?? null) === null && (s.score === null || s.score === undefined),
  );
}

/** An unplayed game as the snapshot carries it beside the game columns (store ids). */
export interface PairedGame {
  id: string;
  event: string;
  round: number | null;
  table: number | null;
  sides: [PairedSide, PairedSide];
}

export interface PairedSide {
  player: string | null;
  faction: string;
}
