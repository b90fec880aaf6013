/**
 * Player rankings (docs/ratings.md): Glicko-2, Elo or best-N event points over the
 * counted games, one row per player with their record, main faction and last event. Pure: the
 * caller hands in plain facts (games already narrowed by the common filter).
 */
import { throwIfCancelled, throwIfCancelledEvery } from '../cancellation.ts';
import { monthIndex, weekIndex } from '../../domain/calendar-day.ts';
import { runEloColumns } from './elo.ts';
import { eventGroups } from './event-groups.ts';
import type { EventGroups } from './event-groups.ts';
import { eventScores } from './event-points.ts';
import type { EventScores } from './event-points.ts';
import { eventStartRanks } from './event-start-ranks.ts';
import { runGlicko2Columns } from './glicko2.ts';
import type { Glicko2Result } from './glicko2.ts';
import { playerTallies } from './player-tallies.ts';
import type { PlayerTallies } from './player-tallies.ts';
import { bestNTotal } from './points.ts';
import type { PointsOptions } from './points.ts';
import { processingOrder } from './processing-order.ts';
import type { RankingFacts } from './ranking-facts.ts';
import { competitionRanks } from './ranks.ts';
import { ratedColumns } from './rated-columns.ts';
import { stableSortByKey } from './stable-sort-by-key.ts';

export type RankingMethod = 'glicko2' | 'elo' | 'points';
export type RatingPeriod = 'event' | 'week' | 'month';

export interface Glicko2Params {
  initialRating: number;
  initialRd: number;
  initialVolatility: number;
  tau: number;
  period: RatingPeriod;
}

export interface EloParams {
  k: number;
  initial: number;
}

export interface RankingParams {
  method: RankingMethod;
  glicko2: Glicko2Params;
  elo: EloParams;
  points: PointsOptions;
}

export const DEFAULT_GLICKO2: Readonly<Glicko2Params> = Object.freeze({
  initialRating: 1500,
  initialRd: 350,
  initialVolatility: 0.06,
  tau: 0.5,
  period: 'event',
});

export const DEFAULT_ELO: Readonly<EloParams> = Object.freeze({ k: 32, initial: 1500 });

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
  let ratings: MethodRatings;
  if (params.method === 'points') {
    ratings = pointsRatings(facts, order, params.points, factions, groups, tallies);
  } else if (params.method === 'elo') {
    const rating = runEloColumns(facts.players, ratedColumns(facts, order), params.elo);
    ratings = { rating, rd: null, volatility: null, eventsScored: null };
  } else {
    const { rating, rd, volatility } = glicko2Run(facts, order, params.glicko2, false, { asOf });
    ratings = { rating, rd, volatility, eventsScored: null };
  }
  throwIfCancelled();
  return standingRows(facts, tallies, ratings);
}

/** A method's numbers by player index (rd and volatility: Glicko-2 only). */
interface MethodRatings {
  rating: Float64Array;
  rd: Float64Array | null;
  volatility: Float64Array | null;
  /** Points: the events each player scored, which `events` reports for points. */
  eventsScored: Int32Array | null;
}

/**
 * Best-N event points per player (docs/ratings.md "Points"). Players who scored without a
 * counted side of their own are listed too, and a scored event may be their latest.
 */
function pointsRatings(
  facts: RankingFacts,
  order: Int32Array,
  options: PointsOptions,
  factions: ReadonlySet<number> | null,
  groups: EventGroups,
  tallies: PlayerTallies,
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

/** The events holding the games `order`, as event periods run: by start, then id. */
export function eventPeriods(facts: RankingFacts, order: ArrayLike<number>): number[] {
  const { events, gameEvent } = facts;
  const { rank } = eventStartRanks(facts);
  const seen = new Uint8Array(events.length);
  const held: number[] = [];
  for (let i = 0; i < order.length; i += 1) {
    const e = gameEvent[order[i]];
    if (seen[e] === 0) {
      seen[e] = 1;
      held.push(e);
    }
  }
  return held.sort((x, y) => {
    if (rank[x] !== rank[y]) return rank[x] - rank[y];
    const ix = events[x].id;
    const iy = events[y].id;
    return ix < iy ? -1 : ix > iy ? 1 : 0;
  });
}

/** What a Glicko-2 run may do besides rating (docs/ratings.md "Inactivity"). */
export interface Glicko2RunOptions {
  /** Idle players through the events they sit out (default true; skill rates without). */
  idleEvents?: boolean;
  /** Calendar periods: idle players through the period holding this date too. */
  asOf?: string;
  /** Record this player's values after each of their periods. */
  trackPlayer?: number;
}

/**
 * Per event index, its rating period: its ordinal among the events of `order` (by start, then
 * id), or the calendar week or month of its start; and the period holding `asOf`.
 */
function periodKeys(
  facts: RankingFacts,
  order: ArrayLike<number>,
  period: RatingPeriod,
  asOf: string | undefined,
): { eventPeriod: Float64Array; finalPeriod: number | undefined } {
  const { events } = facts;
  const eventPeriod = new Float64Array(events.length);
  if (period === 'event') {
    eventPeriods(facts, order).forEach((e, i) => (eventPeriod[e] = i));
    return { eventPeriod, finalPeriod: undefined };
  }
  const index = period === 'week' ? weekIndex : monthIndex;
  for (let e = 0; e < events.length; e += 1) eventPeriod[e] = index(events[e].start);
  return { eventPeriod, finalPeriod: asOf === undefined ? undefined : index(asOf) };
}

/**
 * Glicko-2 over the games `order` (in processing order). Event periods are ordered by event
 * start, then event id, so that each event's games form one contiguous period. Returns the
 * period order used: `periodOrder[k]` is the game index behind the k-th rated game, and the
 * period of each game.
 */
export function glicko2Run(
  facts: RankingFacts,
  order: ArrayLike<number>,
  params: Glicko2Params,
  recordPreRatings = false,
  options: Glicko2RunOptions = {},
): Glicko2Result & { periodOrder: Int32Array; periodOf: (g: number) => number } {
  const { gameEvent } = facts;
  const { eventPeriod, finalPeriod } = periodKeys(facts, order, params.period, options.asOf);
  // A stable sort by period keeps the processing order inside each period.
  const keys = new Float64Array(order.length);
  for (let i = 0; i < order.length; i += 1) keys[i] = eventPeriod[gameEvent[order[i]]];
  const periodOrder = stableSortByKey(Int32Array.from(order), keys);
  const result = runGlicko2Columns(facts.players, ratedColumns(facts, periodOrder, eventPeriod), {
    initialRating: params.initialRating,
    initialRd: params.initialRd,
    initialVolatility: params.initialVolatility,
    tau: params.tau,
    calendarPeriods: params.period !== 'event' || options.idleEvents !== false,
    finalPeriod,
    recordPreRatings,
    trackPlayer: options.trackPlayer,
  });
  return { ...result, periodOrder, periodOf: (g) => eventPeriod[gameEvent[g]] };
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
