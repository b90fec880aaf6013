/**
 * item-use-stats (docs/statistics.md#item-use-stats): what lists take and how it pays off, counted
 * over lists as played (one per game side that has a list). "Without" compares with same-faction
 * lists in scope that do not take the item.
 */
import type { ItemKind } from '../domain/item-kinds.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { EMPTY_WARNING, LOW_SAMPLE_GAMES } from './engine-result.ts';
import { mean, winRate, winRateInterval } from './win-rate.ts';
import type { EngineResult } from './engine-result.ts';
import { distinctLists } from './distinct-lists.ts';
import { sumScope } from './cube/event-cube.ts';
import {
  DRAWS,
  GAMES,
  ITEM_STRIDE as S,
  LISTS,
  PICKS,
  SCORE_N,
  SCORE_SUM,
  SKILL_ACTUAL,
  SKILL_EXPECTED,
  SKILL_N,
  WINS,
  foldItems,
  itemCube,
} from './cube/item-cube.ts';
import type { ItemCube } from './cube/item-cube.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import { firstInOrder } from './first-in-order.ts';
import type { CommonFilter } from './filter.ts';
import { Z95, benjaminiHochberg, newcombe, twoProportionP } from './intervals.ts';
import type { Interval } from './intervals.ts';
import {
  EMPHASIS_MIN_GAMES,
  NO_GAMES,
  adjustComparisons,
  compareTallies,
  emphasisable,
} from './compare.ts';
import { PriorFit, shrunkRate } from './shrinkage.ts';
import { clusteredRateInterval } from './win-rate.ts';
import type { IntervalKind } from './win-rate.ts';
import { CLUSTER_STRIDE, sumClusters } from './cube/cluster-cube.ts';
import { snapshotData } from './snapshot-cache.ts';
import { itemClusters } from './cube/cluster-cubes.ts';
import type { Comparison, Tally } from './compare.ts';

export const ITEM_SORTS = [
  'lists',
  'picks',
  'share',
  'games',
  'winRate',
  'delta',
  'evidence',
  'name',
] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

export interface ItemUseStatsRequest extends CommonFilter {
  factions: string[];
  categories: string[];
  /** Only items of these kinds (units, options, configuration choices); empty or absent: all. */
  kinds?: ItemKind[];
  search: string | null;
  minLists: number;
  sort: ItemSort;
  page: number;
  pageSize: number;
  /** A second filter whose figures each row carries (docs/statistics.md#compareto). */
  compareTo?: CommonFilter | null;
  /** Wilson (default) or event-clustered winRateInterval (docs/statistics.md). */
  interval?: IntervalKind;
}

export interface ItemRow {
  item: { name: string; category: string; kind: ItemKind };
  factions: string[];
  picks: number;
  lists: number;
  share: number;
  games: number;
  winRate: number | null;
  winRateWithout: number | null;
  delta: number | null;
  /** Newcombe's interval of delta (docs/statistics.md#difference-of-win-rates). */
  deltaInterval: Interval | null;
  /** delta's p-value, Benjamini–Hochberg adjusted over every candidate (docs/statistics.md#emphasis). */
  deltaAdjustedPValue: number | null;
  /** EMPHASIS_MIN_GAMES lists with the item and as many without (docs/statistics.md#emphasis). */
  deltaEnoughLists: boolean;
  /** Whether delta may be emphasised (docs/statistics.md#emphasis). */
  deltaEmphasised: boolean;
  /** delta over what the players' ratings predicted (docs/statistics.md#skill-adjusted-delta). */
  skillAdjustedDelta: number | null;
  /** Its 95% interval (docs/statistics.md#skill-adjusted-delta). */
  skillAdjustedInterval: Interval | null;
  winRateInterval: Interval | null;
  /** winRate pulled toward its factions' overall rate (docs/statistics.md#shrunk-win-rate). */
  shrunkWinRate: number | null;
  avgScore: number | null;
  avgScoreWithout: number | null;
  lowSample: boolean;
  compare?: Comparison;
}

export interface ItemUseStatsData {
  lists: number;
  /** The distinct lists behind those list-games (distinct-lists.ts). */
  distinctLists: number;
  items: ItemRow[];
  total: number;
  page: number;
  pageSize: number;
}

const EMPTY_CLUSTER = new Float64Array(CLUSTER_STRIDE);

/**
 * An item's cluster sums over its pairs of the kept factions: the clusters are events within
 * each faction taking it (docs/statistics.md#event-clustered-interval).
 */
function foldClusters(
  built: ItemCube,
  sums: Float64Array,
  allowed: Uint8Array,
  local: Int32Array,
): Map<number, Float64Array> {
  const out = new Map<number, Float64Array>();
  for (let pair = 0; pair < built.pairItem.length; pair++) {
    const b = pair * CLUSTER_STRIDE;
    if (sums[b + 3] === 0) continue;
    const item = built.pairItem[pair];
    if (allowed[item] === 0 || local[built.pairFaction[pair]] < 0) continue;
    let acc = out.get(item);
    if (acc === undefined) {
      acc = new Float64Array(CLUSTER_STRIDE);
      out.set(item, acc);
    }
    for (let s = 0; s < CLUSTER_STRIDE; s++) acc[s] += sums[b + s];
  }
  return out;
}

/** wins + draws/2 of the "with" (offset 0) or "without" (offset S) half of an accumulator. */
function successes(acc: Float64Array, offset: number): number {
  return acc[offset + WINS] + acc[offset + DRAWS] / 2;
}

/** The win rate of the row factions' lists with and without the item together. */
function overall(acc: Float64Array): number | null {
  const games = acc[GAMES] + acc[S + GAMES];
  return games > 0 ? (successes(acc, 0) + successes(acc, S)) / games : null;
}

/** Mean residual (actual − expected) of one half of an accumulator and a bound of its variance. */
function residual(acc: Float64Array, o: number): { mean: number; variance: number } | null {
  const n = acc[o + SKILL_N];
  if (n === 0) return null;
  const actual = acc[o + SKILL_ACTUAL] / n;
  const expected = acc[o + SKILL_EXPECTED] / n;
  // A score in [0, 1] of mean m has variance at most m(1 − m), and the mean of the sides' bounds
  // is at most that of their mean (concavity); the larger of the observed and the expected mean
  // keeps a half that won (or lost) every game from a width of 0.
  const bound = Math.max(actual * (1 - actual), expected * (1 - expected));
  return { mean: actual - expected, variance: bound / n };
}

/**
 * (actual − expected) of the lists with the item minus the same of the lists without it, over
 * counted sides whose players both had pre-game ratings (faction-stats' skill model), with its
 * 95% Wald interval from a variance bound of each half; null when either side has none
 * (docs/statistics.md#skill-adjusted-delta).
 */
function skillAdjusted(acc: Float64Array): { delta: number; interval: Interval } | null {
  const withIt = residual(acc, 0);
  const without = residual(acc, S);
  if (withIt === null || without === null) return null;
  const delta = withIt.mean - without.mean;
  const half = Z95 * Math.sqrt(withIt.variance + without.variance);
  return { delta, interval: { low: delta - half, high: delta + half } };
}

/** The with-item results of an item accumulator (foldItems). */
function tallyOf(acc: Float64Array): Tally {
  const games = acc[GAMES];
  return { games, wins: acc[WINS], draws: acc[DRAWS], losses: games - acc[WINS] - acc[DRAWS] };
}

/**
 * Each item's place in name order (then category), as localeCompare orders them (the default
 * locale and options); items that compare equal share a place. Built once per snapshot, so a
 * request orders its rows by integers.
 */
export const itemNameRank = snapshotData('item-name-rank', ({ items }) => {
  const collator = new Intl.Collator();
  const byName = (a: number, b: number) =>
    collator.compare(items[a].name, items[b].name) ||
    collator.compare(items[a].category, items[b].category);
  const sorted = Array.from(items, (_, i) => i).sort(byName);
  const rank = new Int32Array(items.length);
  for (let i = 1; i < sorted.length; i++) {
    rank[sorted[i]] = rank[sorted[i - 1]] + (byName(sorted[i - 1], sorted[i]) === 0 ? 0 : 1);
  }
  return rank;
});

/** An item that passes minLists, with what its order needs; its row is built for its page only. */
interface Candidate {
  item: number;
  acc: Float64Array;
  factions: number[];
  winRate: number | null;
  delta: number | null;
  /** Only for sort evidence: how far deltaInterval lies from 0 (0 when it spans 0). */
  evidence: number;
  /** Enough lists on both sides for delta to be emphasised (docs/statistics.md#emphasis). */
  enough: boolean;
  /** delta's two-sided p-value, then adjusted over every candidate (Benjamini–Hochberg). */
  pValue: number | null;
}

/**
 * The smallest difference deltaInterval allows: its bound nearer 0 when the interval lies wholly
 * on one side of 0, else 0. Ordering by it puts clear effects first without rewarding a large
 * delta from a handful of lists, whose interval is wide (docs/statistics.md#item-with-without).
 */
function evidenceOf(acc: Float64Array): number {
  const interval = newcombe(successes(acc, 0), acc[GAMES], successes(acc, S), acc[S + GAMES]);
  if (interval === null) return -1;
  if (interval.low > 0) return interval.low;
  if (interval.high < 0) return -interval.high;
  return 0;
}

/** The order of `sort`, ties by name then category (docs/statistics.md#item-use-stats). */
function candidateOrder(sort: ItemSort, rank: Int32Array): (a: Candidate, b: Candidate) => number {
  const num = (v: number | null) => (v === null ? -Infinity : v);
  const key: Record<ItemSort, (a: Candidate, b: Candidate) => number> = {
    // share is lists over one total: the same order as lists.
    lists: (a, b) => b.acc[LISTS] - a.acc[LISTS],
    share: (a, b) => b.acc[LISTS] - a.acc[LISTS],
    picks: (a, b) => b.acc[PICKS] - a.acc[PICKS],
    games: (a, b) => b.acc[GAMES] - a.acc[GAMES],
    winRate: (a, b) => num(b.winRate) - num(a.winRate),
    // A large delta from a handful of lists does not lead (docs/statistics.md#emphasis).
    delta: (a, b) => Number(b.enough) - Number(a.enough) || num(b.delta) - num(a.delta),
    // Ties (every interval spanning 0 is 0) go to the item with more games.
    evidence: (a, b) => b.evidence - a.evidence || b.acc[GAMES] - a.acc[GAMES],
    name: () => 0,
  };
  const cmp = key[sort];
  return (a, b) => cmp(a, b) || rank[a.item] - rank[b.item];
}

/** The answered row of a candidate (docs/statistics.md#item-use-stats). */
function itemRow(
  snapshot: Snapshot,
  { item, acc, factions, winRate: rate, delta, enough, pValue }: Candidate,
  listsInScope: number,
  priorStrength: number | null,
  clusters: Map<number, Float64Array> | null,
): ItemRow {
  const lists = acc[LISTS];
  const skill = skillAdjusted(acc);
  const games = acc[GAMES];
  const interval = newcombe(successes(acc, 0), games, successes(acc, S), acc[S + GAMES]);
  return {
    item: {
      name: snapshot.items[item].name,
      category: snapshot.items[item].category,
      kind: snapshot.items[item].kind,
    },
    factions: factions.map((f) => snapshot.factions[f].id).sort(),
    picks: acc[PICKS],
    lists,
    share: lists / listsInScope,
    games,
    winRate: rate,
    winRateWithout: winRate(acc[S + WINS], acc[S + DRAWS], acc[S + GAMES]),
    delta,
    deltaInterval: interval,
    deltaAdjustedPValue: pValue,
    deltaEnoughLists: enough,
    deltaEmphasised: emphasisable(
      enough,
      interval === null ? null : interval.low > 0 || interval.high < 0,
      pValue,
    ),
    skillAdjustedDelta: skill?.delta ?? null,
    skillAdjustedInterval: skill?.interval ?? null,
    winRateInterval:
      clusters === null
        ? winRateInterval(acc[WINS], acc[DRAWS], games)
        : clusteredRateInterval(clusters.get(item) ?? EMPTY_CLUSTER, 0, successes(acc, 0), games),
    shrunkWinRate: shrunkRate(successes(acc, 0), games, overall(acc), priorStrength),
    avgScore: mean(acc[SCORE_N], acc[SCORE_SUM]),
    avgScoreWithout: mean(acc[S + SCORE_N], acc[S + SCORE_SUM]),
    lowSample: games < LOW_SAMPLE_GAMES,
  };
}

/** Computes item-use-stats for a normalised request (docs/statistics.md#item-use-stats). */
export function itemUseStats(
  snapshot: Snapshot,
  request: ItemUseStatsRequest,
): EngineResult<ItemUseStatsData, ItemUseStatsRequest> {
  const scope = resolveScope(snapshot, request);
  const selected = resolveFactions(snapshot, scope.system, request.factions, '/factions');
  const systemFactions = snapshot.systems[scope.system].factions;
  const nF = snapshot.factions.length;
  const local = new Int32Array(nF).fill(-1);
  const localToGlobal: number[] = [];
  for (const f of selected ?? systemFactions) {
    local[f] = localToGlobal.length;
    localToGlobal.push(f);
  }
  const nItems = snapshot.items.length;
  const categories = new Set(request.categories.map((c) => c.toLowerCase()));
  const kinds = new Set(request.kinds ?? []);
  const search = request.search?.toLowerCase() ?? null;
  const allowed = new Uint8Array(nItems);
  for (let i = 0; i < nItems; i++) {
    const item = snapshot.items[i];
    if (kinds.size > 0 && !kinds.has(item.kind)) continue;
    if (categories.size > 0 && !categories.has(item.category.toLowerCase())) continue;
    if (search !== null && !item.name.toLowerCase().includes(search)) continue;
    allowed[i] = 1;
  }

  const built = itemCube(snapshot);
  const [pairs, totals] = sumScope(built.cube, built.order, scope, built.scan);
  let listsInScope = 0;
  for (const f of localToGlobal) listsInScope += totals[f * S + LISTS];

  const itemAcc = foldItems(built, pairs, totals, allowed, local);
  // The compareTo window folds the same cube the same way (one more sumScope and fold).
  const compareScope = request.compareTo ? resolveScope(snapshot, request.compareTo) : null;
  let otherAcc: ReturnType<typeof foldItems> | null = null;
  if (compareScope !== null) {
    const [p2, t2] = sumScope(built.cube, built.order, compareScope, built.scan);
    otherAcc = foldItems(built, p2, t2, allowed, local);
  }
  const clusters =
    request.interval === 'event-clustered'
      ? foldClusters(built, sumClusters(itemClusters(snapshot), scope), allowed, local)
      : null;
  // Prior mean: the row factions' lists with and without the item together; one strength
  // fitted over every item the categories and search keep, before minLists.
  const fit = new PriorFit();
  for (const { acc } of itemAcc.values()) fit.add(successes(acc, 0), acc[GAMES], overall(acc));
  const shrinkage = fit.result();
  const candidates: Candidate[] = [];
  for (const [item, { acc, factions }] of itemAcc) {
    if (acc[LISTS] < request.minLists) continue;
    const rate = winRate(acc[WINS], acc[DRAWS], acc[GAMES]);
    const without = winRate(acc[S + WINS], acc[S + DRAWS], acc[S + GAMES]);
    const delta = rate !== null && without !== null ? rate - without : null;
    const evidence = request.sort === 'evidence' ? evidenceOf(acc) : 0;
    const enough = acc[LISTS] >= EMPHASIS_MIN_GAMES && acc[S + LISTS] >= EMPHASIS_MIN_GAMES;
    const pValue = twoProportionP(successes(acc, 0), acc[GAMES], successes(acc, S), acc[S + GAMES]);
    candidates.push({ item, acc, factions, winRate: rate, delta, evidence, enough, pValue });
  }
  // Every item kept is one comparison, whichever page shows it: corrected for their number.
  const adjusted = benjaminiHochberg(candidates.map((c) => c.pValue));
  candidates.forEach((c, i) => (c.pValue = adjusted[i]));
  // Only the pages up to the one asked for are put in order, not every candidate.
  const start = (request.page - 1) * request.pageSize;
  const order = candidateOrder(request.sort, itemNameRank(snapshot));
  const shown = firstInOrder(candidates, start + request.pageSize, order).slice(start);
  const rows = shown.map((c) => {
    const row = itemRow(snapshot, c, listsInScope, shrinkage.priorStrength, clusters);
    if (otherAcc !== null) {
      const other = otherAcc.get(c.item)?.acc;
      row.compare = compareTallies(tallyOf(c.acc), other === undefined ? NO_GAMES : tallyOf(other));
    }
    return row;
  });
  adjustComparisons(rows.flatMap((r) => (r.compare === undefined ? [] : [r.compare])));
  const total = candidates.length;
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (listsInScope === 0) warnings.push('no game side in scope has a list');
  else if (total === 0) warnings.push('no item matches the filter');
  return {
    data: {
      lists: listsInScope,
      distinctLists: distinctLists(snapshot, scope, local),
      items: rows,
      total,
      page: request.page,
      pageSize: request.pageSize,
    },
    filter: request,
    sample,
    warnings,
    meta: {
      shrinkage,
      ...(compareScope === null ? {} : { compareSample: sampleOf(snapshot, compareScope) }),
    },
  };
}
