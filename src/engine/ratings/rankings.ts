/**
 * Player rankings (docs/ratings.md): by any rating method (methods/index.ts) over the
 * counted games, one row per player with their record, main faction and last event. Pure: the
 * caller hands in plain facts (games already narrowed by the common filter).
 */
import { throwIfCancelled, throwIfCancelledEvery } from '../cancellation.ts';
import { eventGroups } from './event-groups.ts';
import { eventStartRanks } from './event-start-ranks.ts';
import { methodOf } from './methods/index.ts';
import type { RankingParams } from './methods/index.ts';
import type { MethodRatings } from './methods/rating-method.ts';
import { playerTallies } from './player-tallies.ts';
import type { PlayerTallies } from './player-tallies.ts';
import { processingOrder } from './processing-order.ts';
import type { RankingFacts } from './ranking-facts.ts';
import { competitionRanks } from './ranks.ts';

export type { RankingMethod } from '../../domain/rating-methods.ts';
export type { MethodParams, RankingParams } from './methods/index.ts';
export { DEFAULT_ELO } from './methods/elo/elo-method.ts';
export type { EloParams } from './methods/elo/elo-method.ts';
export { DEFAULT_GLICKO2, eventPeriods, glicko2Run } from './methods/glicko2/glicko2-run.ts';
export type {
  Glicko2Params,
  Glicko2RunOptions,
  RatingPeriod,
} from './methods/glicko2/glicko2-run.ts';
export type { RankingEvent, RankingFacts, RankingPlacement } from './ranking-facts.ts';

/**
 * A Glicko-2 player is provisional while their deviation is above this (docs/ratings.md
 * "Conservative order and provisional players"): 110 is the common convention of rating sites.
 */
export const PROVISIONAL_RD = 110;

/** How a leaderboard orders Glicko-2 players: by rating − 2·RD (default) or by rating. */
export type RankingSort = 'conservative' | 'rating';

export interface PlayerStanding {
  player: number;
  rating: number;
  rd: number | null;
  volatility: number | null;
  /** Glicko-2: rating − 2·RD, the low end of the 95% interval; null for other methods. */
  conservativeRating: number | null;
  /** Glicko-2: RD above PROVISIONAL_RD; always false for other methods. */
  provisional: boolean;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  events: number;
  /** Faction index or -1. */
  mainFaction: number;
  lastPlayed: string | null;
}

export { processingOrder } from './processing-order.ts';

/** True when game g has two different known players (docs/ratings.md#which-games-are-rated). */
function isRatable(player: ArrayLike<number>, g: number): boolean {
  const a = player[2 * g];
  const b = player[2 * g + 1];
  return a >= 0 && b >= 0 && a !== b;
}

/** Games with two different known players, in processing order. */
export function ratableGames(facts: RankingFacts, games?: ArrayLike<number>): Int32Array {
  return ratedOrder(facts, null, games);
}

/**
 * The rated games in processing order: games with two different known players, and with
 * `factions`, only those in which a side played one of them.
 */
export function ratedOrder(
  facts: RankingFacts,
  factions: ReadonlySet<number> | null,
  games?: ArrayLike<number>,
): Int32Array {
  const { player, faction } = facts;
  const n = games === undefined ? facts.games : games.length;
  const kept = new Int32Array(n);
  let size = 0;
  for (let i = 0; i < n; i += 1) {
    throwIfCancelledEvery(i);
    const g = games === undefined ? i : games[i];
    if (!isRatable(player, g)) continue;
    if (factions !== null && !factions.has(faction[2 * g]) && !factions.has(faction[2 * g + 1])) {
      continue;
    }
    kept[size++] = g;
  }
  // Filtering before sorting keeps the same games in the same order: processing order is total.
  return processingOrder(facts, kept.subarray(0, size));
}

/**
 * Rates every player by `params.method` over the games `games` (indexes; default all). When
 * `factions` is given, only games in which a side played one of them are rated, and only
 * players who played one of them are listed, with their record over those sides.
 * Returned sorted by rating (best first), then games, then player index.
 */
export function computeStandings(
  facts: RankingFacts,
  params: RankingParams,
  factions: ReadonlySet<number> | null = null,
  games?: ArrayLike<number>,
  asOf?: string,
): PlayerStanding[] {
  return standingsFromOrder(facts, ratedOrder(facts, factions, games), params, factions, asOf);
}

/**
 * computeStandings over the rated games `order`, as ratedOrder(facts, factions, …) gives them:
 * for callers that keep the order too, so that it is built once.
 */
export function standingsFromOrder(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  factions: ReadonlySet<number> | null,
  asOf?: string,
): PlayerStanding[] {
  const inScope = (f: number): boolean => factions === null || factions.has(f);
  const groups = eventGroups(facts, order);
  const tallies = playerTallies(facts, order, groups, inScope);
  throwIfCancelled();
  const { method, own } = methodOf(params);
  const ratings: MethodRatings = method.run({ facts, order, factions, groups, tallies, asOf }, own);
  throwIfCancelled();
  return standingRows(facts, tallies, ratings);
}

/** One row per listed player, sorted by rating (best first), then games, then player index. */
function standingRows(
  facts: RankingFacts,
  tallies: PlayerTallies,
  ratings: MethodRatings,
): PlayerStanding[] {
  const { rating, rd, volatility, eventsScored } = ratings;
  const { starts } = eventStartRanks(facts);
  const standings: PlayerStanding[] = [];
  for (const player of tallies.listed) {
    throwIfCancelledEvery(standings.length);
    const playerRd = rd === null ? null : rd[player];
    const lastStart = tallies.lastStart[player];
    standings.push({
      player,
      rating: rating[player],
      rd: playerRd,
      volatility: volatility === null ? null : volatility[player],
      conservativeRating: playerRd === null ? null : rating[player] - 2 * playerRd,
      provisional: playerRd !== null && playerRd > PROVISIONAL_RD,
      games: tallies.games[player],
      wins: tallies.wins[player],
      draws: tallies.draws[player],
      losses: tallies.losses[player],
      events: eventsScored === null ? tallies.events[player] : eventsScored[player],
      mainFaction: tallies.mainFaction(player, facts.factionIds),
      lastPlayed: lastStart < 0 ? null : starts[lastStart],
    });
  }
  standings.sort((x, y) => y.rating - x.rating || y.games - x.games || x.player - y.player);
  return standings;
}

export interface RankedStanding extends PlayerStanding {
  rank: number;
}

/** The value a standing is ordered by: its conservative rating when asked and known. */
export function sortValue(s: PlayerStanding, sort: RankingSort): number {
  return sort === 'conservative' && s.conservativeRating !== null ? s.conservativeRating : s.rating;
}

/**
 * Keeps the rows `keep` accepts and ranks them by rating, or by conservative rating (then games,
 * then player index, as computeStandings orders); equal values share a rank.
 */
export function rankStandings(
  standings: readonly PlayerStanding[],
  keep: (s: PlayerStanding) => boolean = () => true,
  sort: RankingSort = 'rating',
): RankedStanding[] {
  const kept = standings.filter(keep);
  if (sort === 'conservative') {
    kept.sort(
      (x, y) => sortValue(y, sort) - sortValue(x, sort) || y.games - x.games || x.player - y.player,
    );
  }
  const ranks = competitionRanks(kept.map((s) => sortValue(s, sort)));
  return kept.map((s, i) => ({ ...s, rank: ranks[i] }));
}
