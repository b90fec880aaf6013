/**
 * The rankings request pipeline (docs/ratings.md#ranks-filters-and-pages): rate the games the
 * common filter selects (cached per snapshot and parameters), keep and rank the players by
 * provisional status, minGames and their countries (cached per variant), then search and page;
 * on request a player's page and a head-to-head forecast. The route only validates and wraps.
 */
import { DomainError } from '../../domain/domain-error.ts';
import { playerIndexOf } from '../player-index.ts';
import type { EngineResult, Sample } from '../engine-result.ts';
import type { FactionRef } from '../entity-refs.ts';
import { factionRef } from '../entity-refs.ts';
import { sampleOf } from '../filter.ts';
import type { CommonFilter, Scope } from '../filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { expectedScore, pastGames } from './head-to-head.ts';
import type { HeadToHead } from './head-to-head.ts';
import { applyOptions } from './leaderboard-options.ts';
import type {
  AppliedOptions,
  LeaderboardFilter,
  LeaderboardOptions,
} from './leaderboard-options.ts';
import { Lru, cached } from './lru.ts';
import { playerHistory } from './player-history.ts';
import type { PlayerHistory } from './player-history.ts';
import { playerPage } from './player-page.ts';
import type { PlayerPage } from './player-page.ts';
import { playerGames, ratingChanges } from './player-games.ts';
import type { PlayerGames } from './player-games.ts';
import { predictionQuality } from './prediction-quality.ts';
import type { PredictionQuality } from './prediction-quality.ts';
import { PROVISIONAL_RD, rankStandings, ratedOrder, standingsFromOrder } from './rankings.ts';
import type { PlayerStanding, RankedStanding, RankingParams } from './rankings.ts';
import { shortPlayerId } from './short-ids.ts';
import { rankingFacts } from './snapshot-facts.ts';

export { LEADERBOARD_PAGE_SIZE } from './leaderboard-options.ts';
export type { LeaderboardFilter, LeaderboardOptions } from './leaderboard-options.ts';

/** Parameter sets whose ratings are kept per snapshot; each holds one row per rated player. */
const CACHE_ENTRIES = 32;
/** Ranked variants kept per parameter set: ranking 20k players costs more than a page. */
const RANKED_VARIANTS = 8;
/** Player histories kept per parameter set (each one more rating run). */
const HISTORIES = 16;

export interface PlayerRef {
  id: string;
  /** The shortest prefix of the id unique in the snapshot, at least 6 characters (short-ids.ts). */
  shortId: string;
  name: string | null;
  country: string | null;
}

/** One row of the leaderboard as answered; rank null when the player is left out of it. */
export interface LeaderboardRow extends Omit<PlayerStanding, 'player' | 'mainFaction'> {
  rank: number | null;
  player: PlayerRef;
  mainFaction: FactionRef | null;
}

export interface LeaderboardPage {
  players: LeaderboardRow[];
  total: number;
  page: number;
  pageSize: number;
  /**
   * Why provisional players are listed though not asked for: none of the players the filter
   * keeps is established (docs/ratings.md#conservative-order-and-provisional-players); null
   * when they are not.
   */
  provisionalFallback: string | null;
  /** With `player`: their row (null when unrated in scope) and their page. */
  player?: PlayerPage & {
    row: LeaderboardRow | null;
    player: PlayerRef;
    games: PlayerGames<PlayerRef>;
    /** The player the id asked for is merged into, whose page this is; null when not merged. */
    mergedInto: PlayerRef | null;
    /** The ids merged into this player (docs/data-model.md#player-merges), in id order. */
    merged: Array<{ id: string; name: string | null }>;
  };
  /** With `versus`: the forecast of the first player against the second. */
  versus?: HeadToHead & { player: PlayerRef; opponent: PlayerRef };
}

interface Computed {
  params: RankingParams;
  order: Int32Array;
  standings: PlayerStanding[];
  byPlayer: Map<number, PlayerStanding>;
  sample: Sample;
  ranked: Lru<RankedStanding[]>;
  histories: Lru<PlayerHistory>;
  /** Per player: the rating change each of their games made. */
  changes: Lru<Map<number, number>>;
  quality?: PredictionQuality | null;
}

const computedCache = new WeakMap<Snapshot, Lru<Computed>>();

/** The player behind a standing, with the name and country the snapshot carries. */
export function playerRef(snapshot: Snapshot, player: number): PlayerRef {
  return {
    id: snapshot.players[player],
    shortId: shortPlayerId(snapshot, player),
    name: snapshot.playerNames[player] ?? null,
    country: snapshot.playerCountries[player] ?? null,
  };
}

/** The games of the scope's rows whose event it keeps, in index order. */
function scopeGames(snapshot: Snapshot, scope: Scope): Int32Array {
  const { rowEvent } = snapshot;
  // A typed array rather than a growing list: pushing one number per game onto a list is slow
  // at the sizes the engine serves, and its final length is known to be at most this.
  const games = new Int32Array((scope.rowEnd - scope.rowStart + 1) >> 1);
  let n = 0;
  for (let r = scope.rowStart; r < scope.rowEnd; r += 2) {
    if (scope.eventMask[rowEvent[r]] === 1) games[n++] = r >> 1;
  }
  return games.subarray(0, n);
}

/** The ratings of the games in scope, computed once per (snapshot, filter, method parameters). */
function computedFor(snapshot: Snapshot, applied: AppliedOptions): Computed {
  const { filter, rated, scope, factionIndexes } = applied;
  const params: RankingParams = {
    method: filter.method,
    elo: filter.elo,
    glicko2: filter.glicko2,
    points: filter.points,
  };
  const methodParams = params[params.method];
  const key = JSON.stringify([rated, filter.asOf, params.method, methodParams, filter.factions]);
  let lru = computedCache.get(snapshot);
  if (lru === undefined) computedCache.set(snapshot, (lru = new Lru<Computed>(CACHE_ENTRIES)));
  return cached(lru, key, () => {
    const games = scopeGames(snapshot, scope);
    const facts = rankingFacts(snapshot);
    const factions = factionIndexes === null ? null : new Set(factionIndexes);
    const asOf = filter.asOf ?? undefined;
    const order = ratedOrder(facts, factions, games);
    const standings = standingsFromOrder(facts, order, params, factions, asOf);
    return {
      params,
      order,
      standings,
      byPlayer: new Map(standings.map((s) => [s.player, s])),
      sample: sampleOf(snapshot, scope),
      ranked: new Lru<RankedStanding[]>(RANKED_VARIANTS),
      histories: new Lru<PlayerHistory>(HISTORIES),
      changes: new Lru<Map<number, number>>(HISTORIES),
    };
  });
}

/** The players kept by provisional status, minGames and countries, ranked; cached per variant. */
function rankedFor(snapshot: Snapshot, computed: Computed, filter: LeaderboardFilter) {
  const countrySet = new Set(filter.countries);
  const key = [filter.minGames, filter.countries.join(','), filter.sort, filter.includeProvisional];
  return cached(computed.ranked, key.join('|'), () =>
    rankStandings(
      computed.standings,
      (s) => {
        if (s.games < filter.minGames) return false;
        if (s.provisional && !filter.includeProvisional) return false;
        if (countrySet.size === 0) return true;
        const country = snapshot.playerCountries[s.player];
        return country !== null && countrySet.has(country.toUpperCase());
      },
      filter.sort,
    ),
  );
}

/**
 * The ranked players, established ones only unless asked for provisional ones; when the filter
 * keeps no established player but some provisional ones, those, with the reason in one line
 * (docs/ratings.md#conservative-order-and-provisional-players). An empty list says nothing, and
 * the faction page's best players follow the same rule.
 */
function establishedOrAll(
  snapshot: Snapshot,
  computed: Computed,
  filter: LeaderboardFilter,
): { ranked: RankedStanding[]; fallback: string | null } {
  const ranked = rankedFor(snapshot, computed, filter);
  if (ranked.length > 0 || filter.includeProvisional) return { ranked, fallback: null };
  const all = rankedFor(snapshot, computed, { ...filter, includeProvisional: true });
  if (all.length === 0) return { ranked, fallback: null };
  let lowest = Infinity;
  for (const s of all) if (s.rd !== null && s.rd < lowest) lowest = s.rd;
  const fallback =
    `Every player here is provisional (rating deviation above ${PROVISIONAL_RD}; the lowest is ` +
    `${Math.round(lowest)}), so they are all shown, each marked provisional.`;
  return { ranked: all, fallback };
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
export function leaderboardRow(
  snapshot: Snapshot,
  s: PlayerStanding,
  rank: number | null,
): LeaderboardRow {
  return {
    ...s,
    rank,
    player: playerRef(snapshot, s.player),
    mainFaction: s.mainFaction >= 0 ? factionRef(snapshot, s.mainFaction) : null,
  };
}

/** The page of the player `id`: their row, history, factions and placements. */
function playerAnswer(
  snapshot: Snapshot,
  applied: AppliedOptions,
  computed: Computed,
  ranked: RankedStanding[],
  id: string,
): NonNullable<LeaderboardPage['player']> {
  const p = playerIndexOf(snapshot, id, '/player');
  const { filter, factionIndexes } = applied;
  const history = cached(computed.histories, String(p), () =>
    playerHistory(
      rankingFacts(snapshot),
      computed.order,
      computed.params,
      factionIndexes === null ? null : new Set(factionIndexes),
      p,
      filter.asOf ?? undefined,
    ),
  );
  const standing = computed.byPlayer.get(p);
  const rank = ranked.find((s) => s.player === p)?.rank ?? null;
  const factions = factionIndexes === null ? null : new Set(factionIndexes);
  const changes = cached(computed.changes, String(p), () =>
    ratingChanges(
      rankingFacts(snapshot),
      computed.order,
      computed.params,
      p,
      filter.asOf ?? undefined,
    ),
  );
  const ref = (q: number) => playerRef(snapshot, q);
  const keep = snapshot.players[p];
  return {
    player: playerRef(snapshot, p),
    mergedInto: id === keep ? null : playerRef(snapshot, p),
    merged: snapshot.merges
      .filter((m) => m.keep === keep)
      .map((m) => ({ id: m.other, name: m.name }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    row: standing === undefined ? null : leaderboardRow(snapshot, standing, rank),
    ...playerPage(snapshot, applied.scope, p, history),
    games: playerGames(snapshot, computed.order, factions, p, changes, filter.gamesPage, ref),
  };
}

/** The forecast of versus[0] against versus[1] and their past games in scope. */
function versusAnswer(
  snapshot: Snapshot,
  computed: Computed,
  versus: string[],
): NonNullable<LeaderboardPage['versus']> {
  const a = playerIndexOf(snapshot, versus[0], '/versus/0');
  const b = playerIndexOf(snapshot, versus[1], '/versus/1');
  const method = computed.params.method;
  return {
    player: playerRef(snapshot, a),
    opponent: playerRef(snapshot, b),
    expectedScore: expectedScore(method, computed.byPlayer.get(a), computed.byPlayer.get(b)),
    ...pastGames(snapshot, computed.order, a, b),
  };
}

/**
 * One page of the leaderboard over the games `common` selects (docs/ratings.md): Glicko-2
 * (Glickman 2012), Elo or best-N event points; equal values share a rank.
 */
export function leaderboard(
  snapshot: Snapshot,
  common: CommonFilter,
  options: LeaderboardOptions,
): EngineResult<LeaderboardPage, LeaderboardFilter> {
  const applied = applyOptions(snapshot, common, options);
  const { filter } = applied;
  if (filter.versus.length !== 0 && filter.versus.length !== 2) {
    throw new DomainError('invalid-query', 'versus names exactly two players', [
      { pointer: '/versus', detail: 'give exactly two player ids' },
    ]);
  }
  const computed = computedFor(snapshot, applied);
  const { ranked, fallback } = establishedOrAll(snapshot, computed, filter);
  const rows = searched(snapshot, ranked, filter.search);
  const slice = rows.slice((filter.page - 1) * filter.pageSize, filter.page * filter.pageSize);
  const data: LeaderboardPage = {
    players: slice.map((s) => leaderboardRow(snapshot, s, s.rank)),
    total: rows.length,
    page: filter.page,
    pageSize: filter.pageSize,
    provisionalFallback: fallback,
  };
  if (filter.player !== null) {
    data.player = playerAnswer(snapshot, applied, computed, ranked, filter.player);
  }
  if (filter.versus.length === 2) data.versus = versusAnswer(snapshot, computed, filter.versus);
  computed.quality ??= predictionQuality(
    rankingFacts(snapshot),
    computed.order,
    computed.params,
    filter.asOf ?? undefined,
  );
  const warnings: string[] = [];
  if (computed.sample.games === 0) warnings.push('no completed games match the filter');
  else if (computed.standings.length === 0) {
    warnings.push('no game in scope has two known players; nothing to rate');
  }
  return {
    data,
    filter,
    sample: computed.sample,
    warnings,
    meta: { predictionQuality: computed.quality },
  };
}
