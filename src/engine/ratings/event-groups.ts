/**
 * The rated games grouped by event, in compressed rows (one counting sort, linear time): what
 * the per-event work of the ratings reads (an event's players, its points) without a Map of
 * arrays per call. Games of different events with the same start interleave in processing order
 * (docs/ratings.md#which-games-are-rated), so grouping is needed even though the snapshot keeps
 * each event's games together.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { RankingFacts } from './ranking-facts.ts';

export interface EventGroups {
  /** The events holding the games, in the order of their first game. */
  readonly events: Int32Array;
  /** Per event index: its games are games[start[e]] .. games[start[e + 1] - 1]. */
  readonly start: Int32Array;
  /** The games, event by event, each event's in the order given. */
  readonly games: Int32Array;
}

/** The games `order` grouped by event (a stable counting sort by event index). */
export function eventGroups(facts: RankingFacts, order: ArrayLike<number>): EventGroups {
  const { gameEvent } = facts;
  const start = new Int32Array(facts.events.length + 1);
  const firstSeen: number[] = [];
  for (let i = 0; i < order.length; i += 1) {
    throwIfCancelledEvery(i);
    const e = gameEvent[order[i]];
    if (start[e + 1] === 0) firstSeen.push(e);
    start[e + 1] += 1;
  }
  for (let e = 1; e < start.length; e += 1) start[e] += start[e - 1];
  const next = start.slice(0, -1);
  const games = new Int32Array(order.length);
  for (let i = 0; i < order.length; i += 1) games[next[gameEvent[order[i]]]++] = order[i];
  return { events: Int32Array.from(firstSeen), start, games };
}
