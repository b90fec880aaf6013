/** Best-N event points as a rating method (docs/ratings.md#points): it forecasts no pairing. */
import { RATING_METHODS } from '../../../../domain/rating-methods.ts';
import { throwIfCancelledEvery } from '../../../cancellation.ts';
import { eventPoints, eventScores } from '../../event-points.ts';
import type { EventScores } from '../../event-points.ts';
import { eventStartRanks } from '../../event-start-ranks.ts';
import { bestNTotal, DEFAULT_POINTS_OPTIONS } from '../../points.ts';
import type { PointsOptions } from '../../points.ts';
import type { MethodRatings, RatingMethod, RatingRunInput } from '../rating-method.ts';

/**
 * Best-N event points per player (docs/ratings.md "Points"). Players who scored without a
 * counted side of their own are listed too, and a scored event may be their latest.
 */
function pointsRatings(
  { facts, order, factions, groups, tallies }: RatingRunInput,
  options: PointsOptions,
): MethodRatings {
  const entries = eventScores(facts, order, options, factions, groups);
  const { rank } = eventStartRanks(facts);
  const rating = new Float64Array(facts.players);
  const eventsScored = new Int32Array(facts.players);
  const byPlayer = scoresByPlayer(entries, facts.players);
  for (const player of byPlayer.players) {
    throwIfCancelledEvery(player);
    const scores = byPlayer.score.subarray(byPlayer.start[player], byPlayer.start[player + 1]);
    rating[player] = bestNTotal(scores, options.bestN);
    eventsScored[player] = scores.length;
    tallies.list(player);
  }
  for (let k = 0; k < entries.length; k += 1) {
    const p = entries.player[k];
    const startRank = rank[entries.event[k]];
    if (startRank > tallies.lastStart[p]) tallies.lastStart[p] = startRank;
  }
  return { rating, rd: null, volatility: null, eventsScored };
}

/** The scores grouped by player (in compressed rows), players in the order they first score. */
function scoresByPlayer(entries: EventScores, players: number) {
  const start = new Int32Array(players + 1);
  const order: number[] = [];
  for (let k = 0; k < entries.length; k += 1) {
    const p = entries.player[k];
    if (start[p + 1] === 0) order.push(p);
    start[p + 1] += 1;
  }
  for (let p = 1; p <= players; p += 1) start[p] += start[p - 1];
  const next = start.slice(0, -1);
  const score = new Float64Array(entries.length);
  for (let k = 0; k < entries.length; k += 1) score[next[entries.player[k]]++] = entries.score[k];
  return { players: order, start, score };
}

export const pointsMethod: RatingMethod<PointsOptions> = {
  spec: RATING_METHODS[2],
  defaults: DEFAULT_POINTS_OPTIONS,
  run: pointsRatings,
  /** The best-N total over the player's scored events of that date or before. */
  history(facts, order, params, factions, player) {
    const scored = eventPoints(facts, order, params, factions).scored.get(player) ?? [];
    return (_event, date) => {
      const scores = scored.filter((s) => facts.events[s.event].start <= date).map((s) => s.score);
      return { rating: bestNTotal(scores, params.bestN), rd: null };
    };
  },
};
