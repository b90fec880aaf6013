/**
 * item-use-stats' pre-aggregates (docs/statistics.md#item-use-stats): per (faction, item) pair the
 * lists that take it, copies, results and scores, and per faction the same over all its lists
 * (the "without" side is faction total minus pair), summed over blocks of events. Single events
 * are scanned through the rows that have a list.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder } from './event-order.ts';
import { sideExpectedScores } from '../ratings/snapshot-facts.ts';
import type { EventOrder } from './event-order.ts';
import { snapshotCache } from '../snapshot-cache.ts';

export const LISTS = 0;
export const PICKS = 1;
export const GAMES = 2;
export const WINS = 3;
export const DRAWS = 4;
export const SCORE_N = 5;
export const SCORE_SUM = 6;
/** Counted sides with both players rated, their Elo expectation and actual score (skill). */
export const SKILL_N = 7;
export const SKILL_EXPECTED = 8;
export const SKILL_ACTUAL = 9;
export const ITEM_STRIDE = 10;

/** Item cells are many per event: keep only coarse blocks (memory), scan the rest. */
const SPANS = [256, 4096];

export interface ItemCube {
  readonly order: EventOrder;
  /** Plane 0: pairs (key = pair id); plane 1: factions (key = faction). */
  readonly cube: EventCube;
  readonly scan: EventScanner;
  /** (faction * items + item) -> pair id, -1 when never played. */
  readonly pairIndex: Int32Array;
  readonly pairItem: Int32Array;
  readonly pairFaction: Int32Array;
}

/** What the item cube's scanner reads beside the snapshot, built once per snapshot. */
interface ItemRows {
  /** Rows with a list, grouped by event position: position k's are rows[rowStart[k] .. [k + 1]). */
  readonly rowStart: Int32Array;
  readonly rows: Int32Array;
  /** (faction * items + item) -> pair id, -1 when never played. */
  readonly pairIndex: Int32Array;
  readonly pairItem: Int32Array;
  readonly pairFaction: Int32Array;
}

function itemRows(snapshot: Snapshot): ItemRows {
  const order = eventOrder(snapshot);
  const { faction, list, listStart, listItems } = snapshot;
  const nItems = snapshot.items.length;
  const rowStart = new Int32Array(order.count + 1);
  const rows: number[] = [];
  const pairIndex = new Int32Array(snapshot.factions.length * nItems).fill(-1);
  const pairItem: number[] = [];
  const pairFaction: number[] = [];
  for (let k = 0; k < order.count; k++) {
    rowStart[k] = rows.length;
    for (let r = order.rowStart[k], end = order.rowStart[k + 1]; r < end; r++) {
      const l = list[r];
      if (l < 0) continue;
      rows.push(r);
      const f = faction[r];
      for (let i = listStart[l]; i < listStart[l + 1]; i++) {
        const key = f * nItems + listItems[i];
        if (pairIndex[key] >= 0) continue;
        pairIndex[key] = pairItem.length;
        pairItem.push(listItems[i]);
        pairFaction.push(f);
      }
    }
  }
  rowStart[order.count] = rows.length;
  return {
    rowStart,
    rows: Int32Array.from(rows),
    pairIndex,
    pairItem: Int32Array.from(pairItem),
    pairFaction: Int32Array.from(pairFaction),
  };
}

function scanner(snapshot: Snapshot, { rowStart, rows, pairIndex }: ItemRows): EventScanner {
  const { faction, opponent, score, result, list, listStart, listItems, listPicks } = snapshot;
  const nItems = snapshot.items.length;
  const expected = sideExpectedScores(snapshot);
  return (from, to, [pairs, totals]) => {
    for (let i = rowStart[from], end = rowStart[to]; i < end; i++) {
      const r = rows[i];
      const l = list[r];
      const f = faction[r];
      const counted = opponent[r] !== f;
      const res = result[r];
      const sc = score[r];
      const hasScore = sc === sc;
      const tb = f * ITEM_STRIDE;
      // As faction-stats' skill: counted sides whose players both have pre-game ratings.
      const x = counted ? expected[r] : Number.NaN;
      const rated = x === x;
      totals[tb + LISTS]++;
      if (counted) {
        totals[tb + GAMES]++;
        if (res === RESULT_WIN) totals[tb + WINS]++;
        else if (res === RESULT_DRAW) totals[tb + DRAWS]++;
      }
      if (rated) {
        totals[tb + SKILL_N]++;
        totals[tb + SKILL_EXPECTED] += x;
        totals[tb + SKILL_ACTUAL] += res / 2;
      }
      if (hasScore) {
        totals[tb + SCORE_N]++;
        totals[tb + SCORE_SUM] += sc;
      }
      const fb = f * nItems;
      for (let k = listStart[l], kEnd = listStart[l + 1]; k < kEnd; k++) {
        const pb = pairIndex[fb + listItems[k]] * ITEM_STRIDE;
        pairs[pb + LISTS]++;
        pairs[pb + PICKS] += listPicks[k];
        if (counted) {
          pairs[pb + GAMES]++;
          if (res === RESULT_WIN) pairs[pb + WINS]++;
          else if (res === RESULT_DRAW) pairs[pb + DRAWS]++;
        }
        if (rated) {
          pairs[pb + SKILL_N]++;
          pairs[pb + SKILL_EXPECTED] += x;
          pairs[pb + SKILL_ACTUAL] += res / 2;
        }
        if (hasScore) {
          pairs[pb + SCORE_N]++;
          pairs[pb + SCORE_SUM] += sc;
        }
      }
    }
  };
}

/** The item cube of a snapshot, built once per snapshot (docs/architecture.md#per-event-sums). */
export const itemCube = snapshotCache({
  name: 'item-cube',
  build: (snapshot) => {
    const rows = itemRows(snapshot);
    const planes = [
      { keys: rows.pairItem.length, stride: ITEM_STRIDE },
      { keys: snapshot.factions.length, stride: ITEM_STRIDE },
    ];
    return { rows, cube: buildCube(eventOrder(snapshot), planes, SPANS, scanner(snapshot, rows)) };
  },
  attach: (snapshot, { rows, cube }): ItemCube => ({
    order: eventOrder(snapshot),
    cube,
    scan: scanner(snapshot, rows),
    pairIndex: rows.pairIndex,
    pairItem: rows.pairItem,
    pairFaction: rows.pairFaction,
  }),
});

/**
 * Folds pair cells into items (docs/statistics.md#item-use-stats): "with" sums an item's pairs of
 * the kept factions (`local[f] >= 0`), "without" sums those factions' totals minus the pairs.
 * Each item's accumulator holds ITEM_STRIDE "with" slots, then ITEM_STRIDE "without" slots.
 */
export function foldItems(
  built: ItemCube,
  pairs: Float64Array,
  totals: Float64Array,
  allowed: Uint8Array,
  local: Int32Array,
): Map<number, { acc: Float64Array; factions: number[] }> {
  const S = ITEM_STRIDE;
  const { pairItem, pairFaction } = built;
  const items = new Map<number, { acc: Float64Array; factions: number[] }>();
  for (let pair = 0; pair < pairItem.length; pair++) {
    const pb = pair * S;
    if (pairs[pb + LISTS] === 0) continue;
    const item = pairItem[pair];
    const f = pairFaction[pair];
    if (allowed[item] === 0 || local[f] < 0) continue;
    let entry = items.get(item);
    if (entry === undefined) {
      entry = { acc: new Float64Array(2 * S), factions: [] };
      items.set(item, entry);
    }
    entry.factions.push(f);
    for (let k = 0; k < S; k++) {
      const v = pairs[pb + k];
      entry.acc[k] += v;
      entry.acc[S + k] += totals[f * S + k] - v;
    }
  }
  return items;
}
