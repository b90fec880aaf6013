/**
 * The rankings request pipeline (docs/ratings.md#ranks-filters-and-pages): rate the games the
 * common filter selects (cached per snapshot and parameters), keep and rank the players by
 * minGames and their countries (cached per variant), then search and page. The route only
 * validates and wraps.
 */
import type { EngineResult, FactionRef, Sample } from '../common.ts';
import { factionRef } from '../common.ts';
import { resolveFactions, resolveScope, sampleOf } from '../filter.ts';
import type { CommonFilter } from '../filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { Lru, cached } from './lru.ts';
import { DEFAULT_POINTS_OPTIONS } from './points.ts';
import type { PointsOptions } from './points.ts';
import { DEFAULT_ELO, DEFAULT_GLICKO2, computeStandings, rankStandings } from './rankings.ts';
import type {
  EloParams,
  Glicko2Params,
  PlayerStanding,
  RankedStanding,
  RankingMethod,
} from './rankings.ts';
import { rankingFacts } from './snapshot-facts.ts';

export const LEADERBOARD_PAGE_SIZE = 50;
/** Parameter sets whose ratings are kept per snapshot; each holds one row per rated player. */
const CACHE_ENTRIES = 32;
/** Ranked variants (minGames, countries) kept per parameter set: ranking 20k players costs more than a page. */
const RANKED_VARIANTS = 8;

/** What a rankings request asks beyond the common filter (every field optional). */
export interface LeaderboardOptions {
  method?: RankingMethod;
  factions?: string[];
  /** The players' countries (not the events'). */
  countries?: string[];
  minGames?: number;
  search?: string;
  page?: number;
  pageSize?: number;
  elo?: Partial<EloParams>;
  glicko2?: Partial<Glicko2Params>;
  points?: Partial<PointsOptions>;
}

/** The filter and parameters applied, echoed as meta.filter. */
export interface LeaderboardFilter extends CommonFilter {
  method: RankingMethod;
  factions: string[];
  countries: string[];
  minGames: number;
  search: string | null;
  page: number;
  pageSize: number;
  elo: EloParams;
  glicko2: Glicko2Params;
  points: PointsOptions;
}

export interface PlayerRef {
  id: string;
  name: string | null;
  country: string | null;
}

/** One row of the leaderboard as answered. */
export interface LeaderboardRow {
  rank: number;
  player: PlayerRef;
  rating: number;
  rd: number | null;
  volatility: number | null;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  events: number;
  mainFaction: FactionRef | null;
  lastPlayed: string | null;
}

export interface LeaderboardPage {
  players: LeaderboardRow[];
  total: number;
  page: number;
  pageSize: number;
}

interface Computed {
  standings: PlayerStanding[];
  sample: Sample;
  ranked: Lru<RankedStanding[]>;
}

const computedCache = new WeakMap<Snapshot, Lru<Computed>>();

/** The player behind a standing, with the name and country the snapshot carries. */
export function playerRef(snapshot: Snapshot, player: number): PlayerRef {
  return {
    id: snapshot.players[player],
    name: snapshot.playerNames[player] ?? null,
    country: snapshot.playerCountries[player] ?? null,
  };
}

/** The options with defaults filled in, the factions resolved (unknown ones are a DomainError). */
function applyOptions(snapshot: Snapshot, common: CommonFilter, options: LeaderboardOptions) {
  const scope = resolveScope(snapshot, common);
  const factionIndexes = resolveFactions(snapshot, scope.system, options.factions, '/factions');
  const filter: LeaderboardFilter = {
    ...common,
    method: options.method ?? 'glicko2',
    factions:
      factionIndexes === null ? [] : factionIndexes.map((f) => snapshot.factions[f].id).sort(),
    countries: [...new Set((options.countries ?? []).map((c) => c.toUpperCase()))],
    minGames: options.minGames ?? 0,
    search: options.search ?? null,
    page: options.page ?? 1,
    pageSize: options.pageSize ?? LEADERBOARD_PAGE_SIZE,
    elo: { ...DEFAULT_ELO, ...options.elo },
    glicko2: { ...DEFAULT_GLICKO2, ...options.glicko2 },
    points: { ...DEFAULT_POINTS_OPTIONS, ...options.points },
  };
  return { filter, scope, factionIndexes };
}

/** The ratings of the games in scope, computed once per (snapshot, filter, method parameters). */
function computedFor(
  snapshot: Snapshot,
  applied: ReturnType<typeof applyOptions>,
  common: CommonFilter,
): Computed {
  const { filter, scope, factionIndexes } = applied;
  const methodParams =
    filter.method === 'elo'
      ? filter.elo
      : filter.method === 'points'
        ? filter.points
        : filter.glicko2;
  const key = JSON.stringify([common, filter.method, methodParams, filter.factions]);
  let lru = computedCache.get(snapshot);
  if (lru === undefined) computedCache.set(snapshot, (lru = new Lru<Computed>(CACHE_ENTRIES)));
  return cached(lru, key, () => {
    const games: number[] = [];
    const { rowEvent } = snapshot;
    for (let r = scope.rowStart; r < scope.rowEnd; r += 2) {
      if (scope.eventMask[rowEvent[r]] === 1) games.push(r >> 1);
    }
    return {
      standings: computeStandings(
        rankingFacts(snapshot),
        { method: filter.method, elo: filter.elo, glicko2: filter.glicko2, points: filter.points },
        factionIndexes === null ? null : new Set(factionIndexes),
        games,
      ),
      sample: sampleOf(snapshot, scope),
      ranked: new Lru<RankedStanding[]>(RANKED_VARIANTS),
    };
  });
}

/** The players kept by minGames and countries, ranked; cached per variant. */
function rankedFor(snapshot: Snapshot, computed: Computed, filter: LeaderboardFilter) {
  const countrySet = new Set(filter.countries);
  const key = `${filter.minGames}|${filter.countries.join(',')}`;
  return cached(computed.ranked, key, () =>
    rankStandings(computed.standings, (s) => {
      if (s.games < filter.minGames) return false;
      if (countrySet.size === 0) return true;
      const country = snapshot.playerCountries[s.player];
      return country !== null && countrySet.has(country.toUpperCase());
    }),
  );
}

/** The rows whose player id or name contains the search text (case-insensitive). */
function searched(snapshot: Snapshot, ranked: RankedStanding[], search: string | null) {
  if (search === null) return ranked;
  const needle = search.toLowerCase();
  return ranked.filter((s) => {
    const name = snapshot.playerNames[s.player];
    return (
      snapshot.players[s.player].toLowerCase().includes(needle) ||
      (name !== null && name.toLowerCase().includes(needle))
    );
  });
}

/** A standing as an answered row. */
export function leaderboardRow(snapshot: Snapshot, s: RankedStanding): LeaderboardRow {
  return {
    rank: s.rank,
    player: playerRef(snapshot, s.player),
    rating: s.rating,
    rd: s.rd,
    volatility: s.volatility,
    games: s.games,
    wins: s.wins,
    draws: s.draws,
    losses: s.losses,
    events: s.events,
    mainFaction: s.mainFaction >= 0 ? factionRef(snapshot, s.mainFaction) : null,
    lastPlayed: s.lastPlayed,
  };
}

/**
 * One page of the leaderboard over the games `common` selects (docs/ratings.md): Glicko-2
 * (Glickman 2012), Elo or best-N event points; equal ratings share a rank.
 */
export function leaderboard(
  snapshot: Snapshot,
  common: CommonFilter,
  options: LeaderboardOptions,
): EngineResult<LeaderboardPage, LeaderboardFilter> {
  const applied = applyOptions(snapshot, common, options);
  const { filter } = applied;
  const computed = computedFor(snapshot, applied, common);
  const rows = searched(snapshot, rankedFor(snapshot, computed, filter), filter.search);
  const slice = rows.slice((filter.page - 1) * filter.pageSize, filter.page * filter.pageSize);
  const warnings: string[] = [];
  if (computed.sample.games === 0) warnings.push('no completed games match the filter');
  else if (computed.standings.length === 0) {
    warnings.push('no game in scope has two known players; nothing to rate');
  }
  return {
    data: {
      players: slice.map((s) => leaderboardRow(snapshot, s)),
      total: rows.length,
      page: filter.page,
      pageSize: filter.pageSize,
    },
    filter,
    sample: computed.sample,
    warnings,
  };
}
