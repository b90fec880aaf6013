/**
 * Short player ids for data without names (docs/data-model.md#players): real exports such as
 * T9A's carry 24-hex-digit ids and no names, many sharing their first 20 digits, so a page shows
 * each id as its shortest prefix no other id of the snapshot shares, at least six characters;
 * the whole id stays in links, tooltips and downloads.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { snapshotData } from '../snapshot-cache.ts';

/** The fewest characters a short id shows, so that it still reads as an id. */
export const SHORT_ID_MIN = 6;

/** The length of the common prefix of `a` and `b`. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Each player's short id length: the shortest prefix unique among the snapshot's player ids, at
 * least SHORT_ID_MIN characters (the whole id when shorter). Sorted, an id's neighbours are the
 * ids it shares the longest prefixes with. Kept as lengths, one small number a player, so the
 * cache travels between threads cheaply (docs/data-model.md#players).
 */
export const shortIdLengths = snapshotData(
  'short-player-ids',
  (snapshot: Snapshot): Uint16Array => {
    const ids = snapshot.players;
    const order = ids
      .map((_, i) => i)
      .sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
    const length = new Uint16Array(ids.length).fill(SHORT_ID_MIN);
    for (let k = 1; k < order.length; k++) {
      const shared = Math.min(0xffff, commonPrefix(ids[order[k - 1]], ids[order[k]]) + 1);
      length[order[k - 1]] = Math.max(length[order[k - 1]], shared);
      length[order[k]] = Math.max(length[order[k]], shared);
    }
    return length;
  },
);

/** Player `player`'s short id (docs/data-model.md#players). */
export function shortPlayerId(snapshot: Snapshot, player: number): string {
  return snapshot.players[player].slice(0, shortIdLengths(snapshot)[player]);
}
