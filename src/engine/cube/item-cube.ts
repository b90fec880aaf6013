/**
 * item-use-stats' pre-aggregates (docs/statistics.md#item-use-stats): per (faction, item) pair the
 * lists that take it, copies, results and scores, and per faction the same over all its lists
 * (the "without" side is faction total minus pair), summed over blocks of events. Single events
 * are scanned through their list cells (sides summed per list content and faction).
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import { TypedColumn } from '../../domain/typed-column.ts';
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

/**
 * Item cells are many per event, so single events are scanned, not stored. The 16-event level
 * is the smallest block whose memory pays for itself: it halves the scan of a quarter's window.
 * On a large data set a 256-event block already holds nearly every (faction, item) pair, so the
 * 1024-event level costs little memory and halves the cells a long window adds (figures:
 * bench/results/comment-figures-2026-11-28.md).
 */
const SPANS = [16, 256, 1024, 4096];

export interface ItemCube {
  readonly order: EventOrder;
  /** Plane 0: pairs (key = pair id); plane 1: factions (key = faction). */
  readonly cube: EventCube;
  readonly scan: EventScanner;
  /** The sides of each event summed per list content and faction (what `scan` expands). */
  readonly cells: ListCells;
  /** (faction * items + item) -> pair id, -1 when never played. */
  readonly pairIndex: Int32Array;
  readonly pairItem: Int32Array;
  readonly pairFaction: Int32Array;
}

/**
 * The sides with a list of each event, summed per (list content, faction): a player usually
 * brings one list to every game of an event (often stored once per game), so expanding each
 * distinct list's items once per event instead of once per side divides the work of a scan by
 * the games each player plays.
 */
export interface ListCells {
  /** Cells of event position k are [start[k], start[k + 1]). */
  readonly start: Int32Array;
  /** A list with the cell's content (items and picks). */
  readonly list: Int32Array;
  readonly faction: Int32Array;
  /** ITEM_STRIDE sums per cell over its sides; PICKS is 0 (copies are LISTS × the list's picks). */
  readonly values: Float64Array;
}

/** Per list, the first list with the same items and picks (content-equal lists share it). */
function listContentIds(snapshot: Snapshot): Int32Array {
  const { listStart, listItems, listPicks } = snapshot;
  const nLists = listStart.length - 1;
  const same = (a: number, b: number): boolean => {
    if (listStart[a + 1] - listStart[a] !== listStart[b + 1] - listStart[b]) return false;
    for (let i = listStart[a], j = listStart[b]; i < listStart[a + 1]; i++, j++) {
      if (listItems[i] !== listItems[j] || listPicks[i] !== listPicks[j]) return false;
    }
    return true;
  };
  const content = new Int32Array(nLists);
  const byHash = new Map<number, number[]>();
  for (let l = 0; l < nLists; l++) {
    // FNV-1a over (item, picks): equal lists hash equal; a collision is settled by comparing.
    let h = 0x811c9dc5;
    for (let i = listStart[l]; i < listStart[l + 1]; i++) {
      h = Math.imul(h ^ listItems[i], 0x01000193);
      h = Math.imul(h ^ listPicks[i], 0x01000193);
    }
    const candidates = byHash.get(h);
    const match = candidates?.find((c) => same(c, l));
    content[l] = match ?? l;
    if (match === undefined) {
      if (candidates === undefined) byHash.set(h, [l]);
      else candidates.push(l);
    }
  }
  return content;
}

/** Sums one side row into a cell's ITEM_STRIDE values (as item-use-stats counts a side). */
function addSide(
  snapshot: Snapshot,
  expected: Float64Array,
  r: number,
  v: Float64Array,
  b: number,
) {
  const f = snapshot.faction[r];
  const counted = snapshot.opponent[r] !== f;
  const res = snapshot.result[r];
  const sc = snapshot.score[r];
  v[b + LISTS]++;
  if (counted) {
    v[b + GAMES]++;
    if (res === RESULT_WIN) v[b + WINS]++;
    else if (res === RESULT_DRAW) v[b + DRAWS]++;
    // As faction-stats' skill: counted sides whose players both have pre-game ratings.
    const x = expected[r];
    if (x === x) {
      v[b + SKILL_N]++;
      v[b + SKILL_EXPECTED] += x;
      v[b + SKILL_ACTUAL] += res / 2;
    }
  }
  if (sc === sc) {
    v[b + SCORE_N]++;
    v[b + SCORE_SUM] += sc;
  }
}

/** The list cells of every event, and a dense id per (faction, item) played. */
function listCells(snapshot: Snapshot): { cells: ListCells; pairs: ItemPairs } {
  const order = eventOrder(snapshot);
  const { faction, list, listStart, listItems } = snapshot;
  const expected = sideExpectedScores(snapshot);
  const content = listContentIds(snapshot);
  const nF = snapshot.factions.length;
  const nItems = snapshot.items.length;
  const start = new Int32Array(order.count + 1);
  const cellList = new TypedColumn(Int32Array, 1024);
  const cellFaction = new TypedColumn(Int32Array, 1024);
  const values = new TypedColumn(Float64Array, 1024 * ITEM_STRIDE);
  const pairIndex = new Int32Array(nF * nItems).fill(-1);
  const pairItem = new TypedColumn(Int32Array, 1024);
  const pairFaction = new TypedColumn(Int32Array, 1024);
  const inEvent = new Map<number, number>();
  for (let k = 0; k < order.count; k++) {
    start[k] = cellList.length;
    inEvent.clear();
    for (let r = order.rowStart[k], end = order.rowStart[k + 1]; r < end; r++) {
      const l = list[r];
      if (l < 0) continue;
      const f = faction[r];
      const key = content[l] * nF + f;
      let cell = inEvent.get(key);
      if (cell === undefined) {
        cell = cellList.length;
        inEvent.set(key, cell);
        cellList.push(content[l]);
        cellFaction.push(f);
        for (let s = 0; s < ITEM_STRIDE; s++) values.push(0);
        for (let i = listStart[l]; i < listStart[l + 1]; i++) {
          const pair = f * nItems + listItems[i];
          if (pairIndex[pair] >= 0) continue;
          pairIndex[pair] = pairItem.length;
          pairItem.push(listItems[i]);
          pairFaction.push(f);
        }
      }
      addSide(snapshot, expected, r, values.data, cell * ITEM_STRIDE);
    }
  }
  start[order.count] = cellList.length;
  return {
    cells: { start, list: cellList.done(), faction: cellFaction.done(), values: values.done() },
    pairs: { pairIndex, pairItem: pairItem.done(), pairFaction: pairFaction.done() },
  };
}

/** A dense id per (faction, item) that some list in the data takes. */
interface ItemPairs {
  /** (faction * items + item) -> pair id, -1 when never played. */
  readonly pairIndex: Int32Array;
  readonly pairItem: Int32Array;
  readonly pairFaction: Int32Array;
}

/** Adds the list cells of events [from, to): the pairs of each cell's items, and its faction. */
function scanner(snapshot: Snapshot, cells: ListCells, pairIndex: Int32Array): EventScanner {
  const { listStart, listItems, listPicks } = snapshot;
  const nItems = snapshot.items.length;
  const { start, list, faction, values } = cells;
  const S = ITEM_STRIDE;
  return (from, to, [pairs, totals]) => {
    for (let c = start[from], end = start[to]; c < end; c++) {
      const f = faction[c];
      const cb = c * S;
      const tb = f * S;
      for (let s = 0; s < S; s++) totals[tb + s] += values[cb + s];
      // The cell's sums in locals: the item loop below is the hottest of item-use-stats, and
      // V8 cannot keep them in registers itself (pairs and values might alias, for all it knows).
      const lists = values[cb + LISTS];
      const games = values[cb + GAMES];
      const wins = values[cb + WINS];
      const draws = values[cb + DRAWS];
      const scoreN = values[cb + SCORE_N];
      const scoreSum = values[cb + SCORE_SUM];
      const skillN = values[cb + SKILL_N];
      const skillExpected = values[cb + SKILL_EXPECTED];
      const skillActual = values[cb + SKILL_ACTUAL];
      const fb = f * nItems;
      const l = list[c];
      for (let k = listStart[l], kEnd = listStart[l + 1]; k < kEnd; k++) {
        const pb = pairIndex[fb + listItems[k]] * S;
        pairs[pb + LISTS] += lists;
        pairs[pb + PICKS] += lists * listPicks[k];
        pairs[pb + GAMES] += games;
        pairs[pb + WINS] += wins;
        pairs[pb + DRAWS] += draws;
        pairs[pb + SCORE_N] += scoreN;
        pairs[pb + SCORE_SUM] += scoreSum;
        pairs[pb + SKILL_N] += skillN;
        pairs[pb + SKILL_EXPECTED] += skillExpected;
        pairs[pb + SKILL_ACTUAL] += skillActual;
      }
    }
  };
}

/** The item cube of a snapshot, built once per snapshot (docs/architecture.md#per-event-sums). */
export const itemCube = snapshotCache({
  name: 'item-cube',
  build: (snapshot) => {
    const { cells, pairs } = listCells(snapshot);
    const planes = [
      { keys: pairs.pairItem.length, stride: ITEM_STRIDE },
      { keys: snapshot.factions.length, stride: ITEM_STRIDE },
    ];
    const scan = scanner(snapshot, cells, pairs.pairIndex);
    return { cells, pairs, cube: buildCube(eventOrder(snapshot), planes, SPANS, scan) };
  },
  attach: (snapshot, { cells, pairs, cube }): ItemCube => ({
    order: eventOrder(snapshot),
    cube,
    scan: scanner(snapshot, cells, pairs.pairIndex),
    cells,
    ...pairs,
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
  // One buffer for every item's accumulator, handed out as views: a typed array of its own per
  // item cost more than the fold itself (1,361 items on the T9A set).
  let buffer: Float64Array | null = null;
  let used = 0;
  for (let pair = 0; pair < pairItem.length; pair++) {
    const pb = pair * S;
    if (pairs[pb + LISTS] === 0) continue;
    const item = pairItem[pair];
    const f = pairFaction[pair];
    if (allowed[item] === 0 || local[f] < 0) continue;
    let entry = items.get(item);
    if (entry === undefined) {
      buffer ??= new Float64Array(2 * S * Math.min(allowed.length, pairItem.length));
      entry = { acc: buffer.subarray(used, (used += 2 * S)), factions: [] };
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
