/**
 * What a snapshot says of the standing player merges (docs/data-model.md#player-merges): the
 * merged ids with their names, and the paired games with each merged id read as the player it
 * is merged into, as that player's played games count.
 */
import type { PairedGame } from '../domain/unplayed-game.ts';
import type { PlayerRecord } from '../store/read-events.ts';
import type { SnapshotMerge } from './snapshot.ts';

/** Each merged id (merged id -> kept id), its name in the player directory, and the kept id. */
export function snapshotMerges(
  merged: ReadonlyMap<string, string>,
  directory: ReadonlyMap<string, PlayerRecord>,
): SnapshotMerge[] {
  return [...merged].map(([other, keep]) => ({
    other,
    name: directory.get(other)?.name ?? null,
    keep,
  }));
}

/** `games` with every side's merged id replaced by the id it is merged into. */
export function pairedAsMerged(
  games: readonly PairedGame[],
  merged: ReadonlyMap<string, string>,
): PairedGame[] {
  const keep = (side: PairedGame['sides'][number]) =>
    side.player === null ? side : { ...side, player: merged.get(side.player) ?? side.player };
  return games.map((g) => ({ ...g, sides: [keep(g.sides[0]), keep(g.sides[1])] }));
}
