/**
 * Player rankings (docs/ratings.md): Glicko-2, Elo or best-N event points over the
 * counted games, one row per player with their record, main faction and last event. Pure: the
 * caller hands in plain facts (games already narrowed by the common filter).
 */
import { runElo } from './elo.ts';
import { monthIndex, weekIndex } from '../../domain/calendar-day.ts';
import { runGlicko2 } from './glicko2.ts';
import type { RatedGame } from './glicko2.ts';
import { bestNTotal, eventMaximum, placeScore, placementsFromGames } from './points.ts';
import type { PointsOptions, StandingInput } from './points.ts';
import { competitionRanks } from './ranks.ts';

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

export interface RankingEvent {
  id: string;
  start: string;
  end: string | null;
  /** Declared (or derived) rounds; null or negative when unknown. */
  rounds: number | null;
  /** Null or negative when unknown. */
  participants: number | null;
}

/** An imported or derived placement (one standing of one player in one event). */
export interface RankingPlacement {
  event: number;
  player: number;
  placement: number;
  faction: number;
}

/**
 * The facts rankings read, in the snapshot's columnar layout: game g has its sides in rows 2g
 * and 2g+1; games are in game-id order within an event and round (the index stands in for the
 * id when ordering). Players and factions are dense indexes, -1 when unknown.
 */
export interface RankingFacts {
  players: number;
  events: readonly RankingEvent[];
  games: number;
  gameEvent: ArrayLike<number>;
  /** -1 when unknown. */
  gameRound: ArrayLike<number>;
  player: ArrayLike<number>;
  faction: ArrayLike<number>;
  /** Result in half points: 0 loss, 1 draw, 2 win. */
  result: ArrayLike<number>;
  /** NaN when unknown. */
  score: ArrayLike<number>;
  placements: readonly RankingPlacement[];
  /** Faction ids by index (only to break ties of the main faction deterministically). */
  factionIds: readonly string[];
}

export interface PlayerStanding {
  player: number;
  rating: number;
  rd: number | null;
  volatility: number | null;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  events: number;
  /** Faction index or -1. */
  mainFaction: number;
  lastPlayed: string | null;
}

/**
 * The processing order (docs/ratings.md#which-games-are-rated): event start, then round (unknown
 * last), then game id, for
 * which the game index stands in (the snapshot orders games by id within event and round).
 */
export function processingOrder(facts: RankingFacts, games: ArrayLike<number>): Int32Array {
  const order = Int32Array.from(games);
  const { events, gameEvent, gameRound } = facts;
  order.sort((x, y) => {
    const sx = events[gameEvent[x]].start;
    const sy = events[gameEvent[y]].start;
    if (sx !== sy) return sx < sy ? -1 : 1;
    const rx = gameRound[x] < 0 ? Number.MAX_SAFE_INTEGER : gameRound[x];
    const ry = gameRound[y] < 0 ? Number.MAX_SAFE_INTEGER : gameRound[y];
    return rx - ry || x - y;
  });
  return order;
}

/** Games with two different known players, in processing order. */
export function ratableGames(facts: RankingFacts, games?: ArrayLike<number>): Int32Array {
  const candidates: number[] = [];
  const { player } = facts;
  const take = (g: number): void => {
    const a = player[2 * g];
    const b = player[2 * g + 1];
    if (a >= 0 && b >= 0 && a !== b) candidates.push(g);
  };
  if (games === undefined) for (let g = 0; g < facts.games; g += 1) take(g);
  else for (let i = 0; i < games.length; i += 1) take(games[i]);
  return processingOrder(facts, candidates);
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
): PlayerStanding[] {
  const inScope = (f: number): boolean => factions === null || factions.has(f);
  const all = ratableGames(facts, games);
  const kept: number[] = [];
  for (const g of all) {
    if (inScope(facts.faction[2 * g]) || inScope(facts.faction[2 * g + 1])) kept.push(g);
  }
  const order = Int32Array.from(kept);

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
    rating = runElo(
      facts.players,
      toRated(facts, order, () => 0),
      params.elo,
    );
  } else {
    const result = glicko2Run(facts, order, params.glicko2);
    rating = result.rating;
    rd = result.rd;
    volatility = result.volatility;
  }

  const standings: PlayerStanding[] = [];
  for (const [player, t] of tallies) {
    standings.push({
      player,
      rating: rating[player],
      rd: rd === null ? null : rd[player],
      volatility: volatility === null ? null : volatility[player],
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

function toRated(
  facts: RankingFacts,
  order: ArrayLike<number>,
  period: (g: number) => number,
): RatedGame[] {
  const out: RatedGame[] = new Array(order.length);
  for (let i = 0; i < order.length; i += 1) {
    const g = order[i];
    out[i] = {
      a: facts.player[2 * g],
      b: facts.player[2 * g + 1],
      scoreA: facts.result[2 * g] / 2,
      scoreB: facts.result[2 * g + 1] / 2,
      period: period(g),
    };
  }
  return out;
}

/**
 * Glicko-2 over the games `order` (in processing order). Event periods are ordered by event
 * start, then event id, so that each event's games form one contiguous period. Returns the
 * period order used: `periodOrder[k]` is the game index behind the k-th rated game.
 */
export function glicko2Run(
  facts: RankingFacts,
  order: ArrayLike<number>,
  params: Glicko2Params,
  recordPreRatings = false,
): ReturnType<typeof runGlicko2> & { periodOrder: Int32Array } {
  const { events, gameEvent } = facts;
  let key: (g: number) => number;
  if (params.period === 'week') key = (g) => weekIndex(events[gameEvent[g]].start);
  else if (params.period === 'month') key = (g) => monthIndex(events[gameEvent[g]].start);
  else {
    const seen = new Set<number>();
    for (let i = 0; i < order.length; i += 1) seen.add(gameEvent[order[i]]);
    const ordered = [...seen].sort((x, y) => {
      const ex = events[x];
      const ey = events[y];
      if (ex.start !== ey.start) return ex.start < ey.start ? -1 : 1;
      return ex.id < ey.id ? -1 : ex.id > ey.id ? 1 : 0;
    });
    const ordinal = new Int32Array(events.length);
    ordered.forEach((e, i) => (ordinal[e] = i));
    key = (g) => ordinal[gameEvent[g]];
  }
  // A stable sort by period keeps the processing order inside each period.
  const position = new Int32Array(order.length).map((_, i) => i);
  const keys = Float64Array.from({ length: order.length }, (_, i) => key(order[i]));
  position.sort((x, y) => keys[x] - keys[y] || x - y);
  const periodOrder = position.map((i) => order[i]);
  const result = runGlicko2(facts.players, toRated(facts, periodOrder, key), {
    initialRating: params.initialRating,
    initialRd: params.initialRd,
    initialVolatility: params.initialVolatility,
    tau: params.tau,
    calendarPeriods: params.period !== 'event',
    recordPreRatings,
  });
  return { ...result, periodOrder };
}

/**
 * Each player's event scores: an event's placements from `facts.placements` when it has any
 * (imported, or derived by the snapshot), otherwise from its counted games (wins, then total
 * score). Only players who played (or entered with) a listed faction score.
 */
function eventPoints(
  facts: RankingFacts,
  order: ArrayLike<number>,
  options: PointsOptions,
  factions: ReadonlySet<number> | null,
): { scores: Map<number, number[]>; lastEvent: Map<number, string> } {
  const byEvent = new Map<number, number[]>();
  for (let i = 0; i < order.length; i += 1) {
    const g = order[i];
    const e = facts.gameEvent[g];
    const list = byEvent.get(e);
    if (list === undefined) byEvent.set(e, [g]);
    else list.push(g);
  }
  const given = new Map<number, RankingPlacement[]>();
  for (const p of facts.placements) {
    if (p.placement <= 0 || p.player < 0) continue;
    const list = given.get(p.event);
    if (list === undefined) given.set(p.event, [p]);
    else list.push(p);
  }
  // Only events in scope: those with counted games (the caller's filter) or, with no game
  // selection at all, every event with placements.
  const events = new Set<number>(byEvent.keys());
  const inScope = (f: number): boolean => factions === null || factions.has(f);

  const scores = new Map<number, number[]>();
  const lastEvent = new Map<number, string>();
  for (const e of events) {
    const event = facts.events[e];
    const eventGames = byEvent.get(e) ?? [];
    const players = new Set<number>();
    for (const g of eventGames) {
      for (const r of [2 * g, 2 * g + 1])
        if (inScope(facts.faction[r])) players.add(facts.player[r]);
    }
    let placements: Map<number, number>;
    let maxRound = -1;
    for (const g of eventGames) maxRound = Math.max(maxRound, facts.gameRound[g]);
    const fromEntries = given.get(e);
    if (fromEntries !== undefined) {
      placements = new Map(fromEntries.map((p) => [p.player, p.placement]));
      for (const p of fromEntries) if (inScope(p.faction)) players.add(p.player);
    } else {
      const standings = new Map<number, StandingInput>();
      for (const g of eventGames) {
        for (const r of [2 * g, 2 * g + 1]) {
          const p = facts.player[r];
          let st = standings.get(p);
          if (st === undefined) {
            st = { player: p, wins: 0, draws: 0, score: 0 };
            standings.set(p, st);
          }
          if (facts.result[r] === 2) st.wins += 1;
          else if (facts.result[r] === 1) st.draws += 1;
          if (!Number.isNaN(facts.score[r])) st.score += facts.score[r];
        }
      }
      placements = placementsFromGames([...standings.values()]);
    }
    let worst = 0;
    for (const pl of placements.values()) worst = Math.max(worst, pl);
    const participants = Math.max(event.participants ?? 0, placements.size, worst);
    const rounds =
      event.rounds !== null && event.rounds > 0
        ? event.rounds
        : maxRound > 0
          ? maxRound
          : event.end !== null && event.end > event.start
            ? options.oneDayMaxRounds + 1
            : options.oneDayMaxRounds;
    const maximum = eventMaximum(rounds, participants, options);
    for (const p of players) {
      const placement = placements.get(p);
      if (placement === undefined) continue;
      const score = placeScore(maximum, participants, placement);
      const list = scores.get(p);
      if (list === undefined) scores.set(p, [score]);
      else list.push(score);
      const last = lastEvent.get(p);
      if (last === undefined || event.start > last) lastEvent.set(p, event.start);
    }
  }
  return { scores, lastEvent };
}

export interface RankedStanding extends PlayerStanding {
  rank: number;
}

/** Keeps the rows `keep` accepts and ranks them; equal ratings share a rank. */
export function rankStandings(
  standings: readonly PlayerStanding[],
  keep: (s: PlayerStanding) => boolean = () => true,
): RankedStanding[] {
  const kept = standings.filter(keep);
  const ranks = competitionRanks(kept.map((s) => s.rating));
  return kept.map((s, i) => ({ ...s, rank: ranks[i] }));
}
