/**
 * The processing order of rated games (docs/ratings.md#which-games-are-rated): event start, then
 * round (unknown last), then game id, for which the game index stands in (the snapshot orders
 * games by id within event and round). Built in linear time by two stable counting sorts over
 * the games in index order, round first and start last, instead of a comparison sort.
 */
import { eventStartRanks } from './event-start-ranks.ts';
import type { RankingFacts } from './ranking-facts.ts';
import { stableSortByKey } from './stable-sort-by-key.ts';

/** The games `games` (indexes, any order) in processing order. */
export function processingOrder(facts: RankingFacts, games: ArrayLike<number>): Int32Array {
  const byIndex = ascending(games);
  const byRound = stableSortByKey(byIndex, roundKeys(facts.gameRound, byIndex));
  const { rank } = eventStartRanks(facts);
  const { gameEvent } = facts;
  const startKeys = new Int32Array(byRound.length);
  for (let i = 0; i < byRound.length; i += 1) startKeys[i] = rank[gameEvent[byRound[i]]];
  return stableSortByKey(byRound, startKeys);
}

/** The games as an Int32Array in ascending index order (a copy; sorted only when needed). */
function ascending(games: ArrayLike<number>): Int32Array {
  const out = Int32Array.from(games);
  for (let i = 1; i < out.length; i += 1) {
    if (out[i] < out[i - 1]) return out.sort();
  }
  return out;
}

/** Per game of `games`, its round as a sort key: unknown (negative) rounds after every known one. */
function roundKeys(gameRound: ArrayLike<number>, games: Int32Array): Float64Array {
  let maxKnown = -1;
  for (let i = 0; i < games.length; i += 1) maxKnown = Math.max(maxKnown, gameRound[games[i]]);
  const keys = new Float64Array(games.length);
  for (let i = 0; i < games.length; i += 1) {
    const round = gameRound[games[i]];
    keys[i] = round < 0 ? maxKnown + 1 : round;
  }
  return keys;
}
