/**
 * Player rankings (docs/ratings.md): Glicko-2, Elo or best-N event points over the
 * counted games, one row per player with their record, main faction and last event. Pure: the
 * caller hands in plain facts (games already narrowed by the common filter).
 */
import { monthIndex, weekIndex } from '../../domain/calendar-day.ts';
import { runEloColumns } from './elo.ts';
import { eventPoints } from './event-points.ts';
import { eventStartRanks } from './event-start-ranks.ts';
import { runGlicko2Columns } from './glicko2.ts';
import type { Glicko2Result } from './glicko2.ts';
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

interface Tally {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  events: Set<number>;
  factions: Map<number, number>;
  lastPlayed: string | null;
}

function newTally(): Tally {
  return {
    games: 0,
    wins: 0,
    draws: 0,
    losses: 0,
    events: new Set(),
    factions: new Map(),
    lastPlayed: null,
  };
}

function mainFaction(tally: Tally, factionIds: readonly string[]): number {
  let best = -1;
  let bestCount = 0;
  for (const [faction, count] of tally.factions) {
    if (
      count > bestCount ||
      (count === bestCount && best >= 0 && (factionIds[faction] ?? '') < (factionIds[best] ?? ''))
    ) {
      best = faction;
      bestCount = count;
    }
  }
  return best;
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
  const inScope = (f: number): boolean => factions === null || factions.has(f);
  const order = ratedOrder(facts, factions, games);

  const tallies = new Map<number, Tally>();
  const tallyOf = (p: number): Tally => {
    let t = tallies.get(p);
    if (t === undefined) {
      t = newTally();
      tallies.set(p, t);
    }
    return t;
  };
  for (const g of order) {
    const event = facts.gameEvent[g];
    const start = facts.events[event].start;
    for (const r of [2 * g, 2 * g + 1]) {
      const f = facts.faction[r];
      if (!inScope(f)) continue;
      const t = tallyOf(facts.player[r]);
      const result = facts.result[r];
      t.games += 1;
      if (result === 2) t.wins += 1;
      else if (result === 1) t.draws += 1;
      else t.losses += 1;
      t.events.add(event);
      t.factions.set(f, (t.factions.get(f) ?? 0) + 1);
      if (t.lastPlayed === null || start > t.lastPlayed) t.lastPlayed = start;
    }
  }

  let rating: Float64Array;
  let rd: Float64Array | null = null;
  let volatility: Float64Array | null = null;
  let eventsScored: Map<number, number> | null = null;
  if (params.method === 'points') {
    const points = eventPoints(facts, order, params.points, factions);
    rating = new Float64Array(facts.players);
    eventsScored = new Map();
    for (const [player, scores] of points.scores) {
      rating[player] = bestNTotal(scores, params.points.bestN);
      eventsScored.set(player, scores.length);
      const t = tallyOf(player);
      const last = points.lastEvent.get(player);
      if (last !== undefined && (t.lastPlayed === null || last > t.lastPlayed)) {
        t.lastPlayed = last;
      }
    }
  } else if (params.method === 'elo') {
    rating = runEloColumns(facts.players, ratedColumns(facts, order), params.elo);
  } else {
    const result = glicko2Run(facts, order, params.glicko2, false, { asOf });
    rating = result.rating;
    rd = result.rd;
    volatility = result.volatility;
  }

  const standings: PlayerStanding[] = [];
  for (const [player, t] of tallies) {
    const playerRd = rd === null ? null : rd[player];
    standings.push({
      player,
      rating: rating[player],
      rd: playerRd,
      volatility: volatility === null ? null : volatility[player],
      conservativeRating: playerRd === null ? null : rating[player] - 2 * playerRd,
      provisional: playerRd !== null && playerRd > PROVISIONAL_RD,
      games: t.games,
      wins: t.wins,
      draws: t.draws,
      losses: t.losses,
      events: eventsScored === null ? t.events.size : (eventsScored.get(player) ?? 0),
      mainFaction: mainFaction(t, facts.factionIds),
      lastPlayed: t.lastPlayed,
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
