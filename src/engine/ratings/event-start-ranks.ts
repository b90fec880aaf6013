/**
 * Event start dates as dense integer ranks, so that the ratings' loops over a million games
 * compare and bucket integers instead of ISO strings (docs/ratings.md#which-games-are-rated
 * orders games by event start). The ranks come from sorting the distinct start strings as
 * written, so comparing two ranks always answers what comparing the two strings answers.
 */
import type { RankingFacts } from './ranking-facts.ts';

export interface EventStartRanks {
  /** Per event index: the rank of its start among the distinct starts, 0 the earliest. */
  readonly rank: Int32Array;
  /** Per rank: the start as written ('YYYY-MM-DD'). */
  readonly starts: readonly string[];
}

/** Built once per fact set: the facts of a snapshot live as long as the snapshot. */
const cache = new WeakMap<RankingFacts, EventStartRanks>();

/** The start ranks of the events of `facts`. */
export function eventStartRanks(facts: RankingFacts): EventStartRanks {
  const hit = cache.get(facts);
  if (hit !== undefined) return hit;
  const { events } = facts;
  const starts = [...new Set(events.map((e) => e.start))].sort((x, y) =>
    x < y ? -1 : x > y ? 1 : 0,
  );
  const rankOf = new Map(starts.map((s, i) => [s, i]));
  const rank = Int32Array.from(events, (e) => rankOf.get(e.start)!);
  const ranks = { rank, starts };
  cache.set(facts, ranks);
  return ranks;
}
