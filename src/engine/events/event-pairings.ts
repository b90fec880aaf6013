/**
 * The games of each event paired but not played yet (docs/data-model.md#unplayed-games): an
 * event is running while it has one, and its page shows them in their rounds. They sit beside
 * the game columns, so no statistic ever reads them.
 */
import type { PairedGame } from '../../domain/unplayed-game.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { snapshotData } from '../snapshot-cache.ts';

/** Per event index, its unplayed games in game id order; events without any are absent. */
export const eventPairings = snapshotData(
  'event-pairings',
  (snapshot: Snapshot): ReadonlyMap<number, readonly PairedGame[]> => {
    const byEvent = new Map<number, PairedGame[]>();
    for (const game of snapshot.pairings) {
      const e = snapshot.events.idIndex.get(game.event);
      if (e === undefined) continue;
      let games = byEvent.get(e);
      if (games === undefined) byEvent.set(e, (games = []));
      games.push(game);
    }
    return byEvent;
  },
);

/** Whether event `e` is running: it has a game paired but not played yet. */
export function isRunning(snapshot: Snapshot, e: number): boolean {
  return eventPairings(snapshot).has(e);
}
