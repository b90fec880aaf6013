/**
 * What a rankings request asks beyond the common filter, and the same with defaults filled in
 * (docs/ratings.md "Ranks, filters and pages"): the engine's side of the rankings contract.
 */
import { isRealDate } from '../../domain/calendar-day.ts';
import { DEFAULT_METHOD } from '../../domain/rating-methods.ts';
import { invalidField } from '../../domain/domain-error.ts';
import { resolveFactions, resolveScope } from '../filter.ts';
import type { CommonFilter, Scope } from '../filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { DEFAULT_POINTS_OPTIONS } from './points.ts';
import type { PointsOptions } from './points.ts';
import { DEFAULT_ELO, DEFAULT_GLICKO2 } from './rankings.ts';
import type { EloParams, Glicko2Params, RankingMethod, RankingSort } from './rankings.ts';

export const LEADERBOARD_PAGE_SIZE = 50;

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
  /** Glicko-2's order: conservative (default) or rating. */
  sort?: RankingSort;
  /** Glicko-2: list provisional players too (default false). */
  includeProvisional?: boolean;
  /** Rate as of this date (YYYY-MM-DD): games up to it, inactivity through it. */
  asOf?: string;
  /** A player id: answer that player's page too. */
  player?: string;
  /** The page of that player's game list (default 1). */
  gamesPage?: number;
  /** Two player ids: answer the forecast of the first against the second too. */
  versus?: string[];
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
  sort: RankingSort;
  includeProvisional: boolean;
  asOf: string | null;
  player: string | null;
  gamesPage: number;
  versus: string[];
}

/** The options applied, the scope they select and the factions they rate. */
export interface AppliedOptions {
  filter: LeaderboardFilter;
  /** The common filter the games are selected by: `to` is cut at asOf. */
  rated: CommonFilter;
  scope: Scope;
  factionIndexes: number[] | null;
}

/** The options with defaults filled in; unknown factions or a bad asOf are a DomainError. */
export function applyOptions(
  snapshot: Snapshot,
  common: CommonFilter,
  options: LeaderboardOptions,
): AppliedOptions {
  const asOf = options.asOf ?? null;
  if (asOf !== null && !isRealDate(asOf)) {
    throw invalidField('/asOf', `"${asOf}" is not a real date (YYYY-MM-DD)`);
  }
  const rated =
    asOf !== null && (common.to === null || asOf < common.to) ? { ...common, to: asOf } : common;
  const scope = resolveScope(snapshot, rated);
  const factionIndexes = resolveFactions(snapshot, scope.system, options.factions, '/factions');
  const method = options.method ?? DEFAULT_METHOD;
  const filter: LeaderboardFilter = {
    ...common,
    method,
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
    // Only Glicko-2 knows a deviation: Elo and points order by rating, minGames doing the job.
    sort: method === 'glicko2' ? (options.sort ?? 'conservative') : 'rating',
    includeProvisional: options.includeProvisional ?? false,
    asOf,
    player: options.player ?? null,
    gamesPage: options.gamesPage ?? 1,
    versus: options.versus ?? [],
  };
  return { filter, rated, scope, factionIndexes };
}
