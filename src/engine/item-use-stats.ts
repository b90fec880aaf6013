/**
 * item-use-stats (DESIGN.md §5): what lists take and how it pays off, counted over lists as
 * played (one per game side that has a list). "Without" compares with same-faction lists in
 * scope that do not take the item.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN } from '../snapshot/snapshot.ts';
import { EMPTY_WARNING, LOW_SAMPLE_GAMES, mean, winRate, winRateInterval } from './common.ts';
import type { EngineResult } from './common.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';
import type { Interval } from './intervals.ts';

export const ITEM_SORTS = ['lists', 'picks', 'share', 'games', 'winRate', 'delta', 'name'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

export interface ItemUseStatsRequest extends CommonFilter {
  factions: string[];
  categories: string[];
  search: string | null;
  minLists: number;
  sort: ItemSort;
  page: number;
  pageSize: number;
}

export interface ItemRow {
  item: { name: string; category: string };
  factions: string[];
  picks: number;
  lists: number;
  share: number;
  games: number;
  winRate: number | null;
  winRateWithout: number | null;
  delta: number | null;
  winRateInterval: Interval | null;
  avgScore: number | null;
  avgScoreWithout: number | null;
  lowSample: boolean;
}

export interface ItemUseStatsData {
  lists: number;
  items: ItemRow[];
  total: number;
  page: number;
  pageSize: number;
}

// Pair (item, faction) and faction slots.
const LISTS = 0;
const PICKS = 1;
const GAMES = 2;
const WINS = 3;
const DRAWS = 4;
const SCORE_N = 5;
const SCORE_SUM = 6;
const S = 7;

/** Computes item-use-stats for a normalised request (DESIGN.md §5 "item-use-stats"). */
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
  const nL = localToGlobal.length;
  const nItems = snapshot.items.length;
  const categories = new Set(request.categories.map((c) => c.toLowerCase()));
  const search = request.search?.toLowerCase() ?? null;
  const allowed = new Uint8Array(nItems);
  for (let i = 0; i < nItems; i++) {
    const item = snapshot.items[i];
    if (categories.size > 0 && !categories.has(item.category.toLowerCase())) continue;
    if (search !== null && !item.name.toLowerCase().includes(search)) continue;
    allowed[i] = 1;
  }

  const pairSlot = new Int32Array(nItems * nL).fill(-1);
  const pairItem: number[] = [];
  const pairFaction: number[] = [];
  let pairs = new Float64Array(1024 * S);
  const totals = new Float64Array(nL * S);
  let listsInScope = 0;

  const { eventMask: mask, rowStart, rowEnd } = scope;
  const { rowEvent, faction, opponent, score, result, list, listStart, listItems, listPicks } =
    snapshot;
  for (let r = rowStart; r < rowEnd; r++) {
    if (mask[rowEvent[r]] === 0) continue;
    const l = list[r];
    if (l < 0) continue;
    const f = faction[r];
    const lf = local[f];
    if (lf < 0) continue;
    listsInScope++;
    const counted = opponent[r] !== f;
    const res = result[r];
    const sc = score[r];
    const hasScore = sc === sc;
    const tb = lf * S;
    totals[tb + LISTS]++;
    if (counted) {
      totals[tb + GAMES]++;
      if (res === RESULT_WIN) totals[tb + WINS]++;
      else if (res === RESULT_DRAW) totals[tb + DRAWS]++;
    }
    if (hasScore) {
      totals[tb + SCORE_N]++;
      totals[tb + SCORE_SUM] += sc;
    }
    for (let k = listStart[l], end = listStart[l + 1]; k < end; k++) {
      const item = listItems[k];
      if (allowed[item] === 0) continue;
      const key = item * nL + lf;
      let slot = pairSlot[key];
      if (slot < 0) {
        slot = pairItem.length;
        pairSlot[key] = slot;
        pairItem.push(item);
        pairFaction.push(lf);
        if ((slot + 1) * S > pairs.length) {
          const grown = new Float64Array(pairs.length * 2);
          grown.set(pairs);
          pairs = grown;
        }
      }
      const pb = slot * S;
      pairs[pb + LISTS]++;
      pairs[pb + PICKS] += listPicks[k];
      if (counted) {
        pairs[pb + GAMES]++;
        if (res === RESULT_WIN) pairs[pb + WINS]++;
        else if (res === RESULT_DRAW) pairs[pb + DRAWS]++;
      }
      if (hasScore) {
        pairs[pb + SCORE_N]++;
        pairs[pb + SCORE_SUM] += sc;
      }
    }
  }

  // Fold pairs into items: "with" sums the pairs, "without" sums faction totals minus pairs.
  const W = 2 * S;
  const itemAcc = new Map<number, { acc: Float64Array; factions: number[] }>();
  for (let slot = 0; slot < pairItem.length; slot++) {
    const item = pairItem[slot];
    let entry = itemAcc.get(item);
    if (entry === undefined) {
      entry = { acc: new Float64Array(W), factions: [] };
      itemAcc.set(item, entry);
    }
    const lf = pairFaction[slot];
    entry.factions.push(localToGlobal[lf]);
    for (let k = 0; k < S; k++) {
      const v = pairs[slot * S + k];
      entry.acc[k] += v;
      entry.acc[S + k] += totals[lf * S + k] - v;
    }
  }
  const rows: ItemRow[] = [];
  for (const [item, { acc, factions }] of itemAcc) {
    const lists = acc[LISTS];
    if (lists < request.minLists) continue;
    const games = acc[GAMES];
    const rate = winRate(acc[WINS], acc[DRAWS], games);
    const without = winRate(acc[S + WINS], acc[S + DRAWS], acc[S + GAMES]);
    rows.push({
      item: { name: snapshot.items[item].name, category: snapshot.items[item].category },
      factions: factions.map((f) => snapshot.factions[f].id).sort(),
      picks: acc[PICKS],
      lists,
      share: lists / listsInScope,
      games,
      winRate: rate,
      winRateWithout: without,
      delta: rate !== null && without !== null ? rate - without : null,
      winRateInterval: winRateInterval(acc[WINS], acc[DRAWS], games),
      avgScore: mean(acc[SCORE_N], acc[SCORE_SUM]),
      avgScoreWithout: mean(acc[S + SCORE_N], acc[S + SCORE_SUM]),
      lowSample: games < LOW_SAMPLE_GAMES,
    });
  }
  const byName = (a: ItemRow, b: ItemRow) =>
    a.item.name.localeCompare(b.item.name) || a.item.category.localeCompare(b.item.category);
  const num = (v: number | null) => (v === null ? -Infinity : v);
  const key: Record<ItemSort, (a: ItemRow, b: ItemRow) => number> = {
    lists: (a, b) => b.lists - a.lists,
    picks: (a, b) => b.picks - a.picks,
    share: (a, b) => b.share - a.share,
    games: (a, b) => b.games - a.games,
    winRate: (a, b) => num(b.winRate) - num(a.winRate),
    delta: (a, b) => num(b.delta) - num(a.delta),
    name: () => 0,
  };
  const cmp = key[request.sort];
  rows.sort((a, b) => cmp(a, b) || byName(a, b));
  const total = rows.length;
  const start = (request.page - 1) * request.pageSize;
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (listsInScope === 0) warnings.push('no game side in scope has a list');
  else if (total === 0) warnings.push('no item matches the filter');
  return {
    data: {
      lists: listsInScope,
      items: rows.slice(start, start + request.pageSize),
      total,
      page: request.page,
      pageSize: request.pageSize,
    },
    filter: request,
    sample,
    warnings,
  };
}
