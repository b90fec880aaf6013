/**
 * What each player's record in a system says, for the duplicate-player pass
 * (docs/statistics.md#duplicate-players): their opponents, events, event start days and
 * factions, as sorted lists over player indexes (CSR), built once per snapshot and system so that
 * a pass compares two players by merging two short sorted lists instead of scanning games.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';

/** Per player index p, the sorted distinct values items[start[p]] .. items[start[p + 1] - 1]. */
export interface SortedLists {
  start: Int32Array;
  items: Int32Array;
}

export interface PlayerFacts {
  /** 1 where the player has a game (a side) or an entry in the system. */
  present: Uint8Array;
  opponents: SortedLists;
  events: SortedLists;
  days: SortedLists;
  factions: SortedLists;
  /** The system's events with a game, and its games: the answer's sample. */
  sampleEvents: number;
  sampleGames: number;
}

/** Items by owner as CSR, in the order given (owners[i] owns items[i]; negative owners none). */
function grouped(count: number, owners: Int32Array, values: Int32Array): SortedLists {
  const start = new Int32Array(count + 1);
  for (let i = 0; i < owners.length; i++) if (owners[i] >= 0) start[owners[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count);
  const items = new Int32Array(start[count]);
  for (let i = 0; i < owners.length; i++) if (owners[i] >= 0) items[fill[owners[i]]++] = values[i];
  return { start, items };
}

/** Appends one owner's values to a list being built, sorted and without repeats. */
class ListBuilder {
  readonly start: Int32Array;
  items: Int32Array;
  length = 0;
  constructor(count: number, capacity: number) {
    this.start = new Int32Array(count + 1);
    this.items = new Int32Array(capacity);
  }
  /** Closes owner p's list from the values in scratch[0 .. size). */
  add(p: number, scratch: Int32Array, size: number): void {
    const own = scratch.subarray(0, size).sort();
    for (let i = 0; i < size; i++) {
      if (i === 0 || own[i] !== own[i - 1]) this.items[this.length++] = own[i];
    }
    this.start[p + 1] = this.length;
  }
  done(): SortedLists {
    return { start: this.start, items: this.items.slice(0, this.length) };
  }
}

function buildFacts(snapshot: Snapshot, system: number): PlayerFacts {
  const n = snapshot.players.length;
  const { rowStart, rowEnd } = snapshot.systems[system];
  const rowIndexes = new Int32Array(rowEnd - rowStart);
  for (let i = 0; i < rowIndexes.length; i++) rowIndexes[i] = rowStart + i;
  const sides = grouped(n, snapshot.player.subarray(rowStart, rowEnd), rowIndexes);
  const st = snapshot.standings;
  const entryOwners = new Int32Array(st.count);
  for (let i = 0; i < st.count; i++) {
    entryOwners[i] = snapshot.events.system[st.event[i]] === system ? st.player[i] : -1;
  }
  const entries = grouped(n, entryOwners, st.event.subarray(0, st.count));
  const present = new Uint8Array(n);
  const [opponents, factions] = [1, 2].map(() => new ListBuilder(n, sides.items.length));
  const [events, days] = [1, 2].map(
    () => new ListBuilder(n, sides.items.length + entries.items.length),
  );
  let scratch = new Int32Array(64);
  let scratchDays = new Int32Array(64);
  for (let p = 0; p < n; p++) {
    const rows = sides.items.subarray(sides.start[p], sides.start[p + 1]);
    const own = entries.items.subarray(entries.start[p], entries.start[p + 1]);
    if (rows.length + own.length > 0) present[p] = 1;
    if (rows.length + own.length > scratch.length) {
      scratch = new Int32Array(2 * (rows.length + own.length));
      scratchDays = new Int32Array(scratch.length);
    }
    for (let i = 0; i < rows.length; i++) scratch[i] = snapshot.player[rows[i] ^ 1];
    opponents.add(p, scratch, rows.length);
    for (let i = 0; i < rows.length; i++) scratch[i] = snapshot.faction[rows[i]];
    factions.add(p, scratch, rows.length);
    for (let i = 0; i < rows.length; i++) scratch[i] = snapshot.gameEvent[rows[i] >> 1];
    scratch.set(own, rows.length);
    const size = rows.length + own.length;
    for (let i = 0; i < size; i++) scratchDays[i] = snapshot.events.startDay[scratch[i]];
    events.add(p, scratch, size);
    days.add(p, scratchDays, size);
  }
  const seen = new Uint8Array(snapshot.events.system.length);
  let sampleEvents = 0;
  for (let r = rowStart; r < rowEnd; r += 2) {
    const e = snapshot.gameEvent[r >> 1];
    if (seen[e] === 0) sampleEvents++;
    seen[e] = 1;
  }
  return {
    present,
    opponents: opponents.done(),
    events: events.done(),
    days: days.done(),
    factions: factions.done(),
    sampleEvents,
    sampleGames: (rowEnd - rowStart) / 2,
  };
}

const facts = new WeakMap<Snapshot, Map<number, PlayerFacts>>();

/** The records of a system's players, built once per snapshot (docs/statistics.md#duplicate-players). */
export function playerFacts(snapshot: Snapshot, system: number): PlayerFacts {
  let bySystem = facts.get(snapshot);
  if (bySystem === undefined) facts.set(snapshot, (bySystem = new Map()));
  let own = bySystem.get(system);
  if (own === undefined) bySystem.set(system, (own = buildFacts(snapshot, system)));
  return own;
}

/** How many values p's list holds. */
export const listSize = (lists: SortedLists, p: number) => lists.start[p + 1] - lists.start[p];

/** Whether p's and q's sorted lists share a value (a merge of the two). */
export function sharesValue(lists: SortedLists, p: number, q: number): boolean {
  const { start, items } = lists;
  let i = start[p];
  let j = start[q];
  const endI = start[p + 1];
  const endJ = start[q + 1];
  while (i < endI && j < endJ) {
    if (items[i] === items[j]) return true;
    if (items[i] < items[j]) i++;
    else j++;
  }
  return false;
}

/** Whether p's sorted list holds `value` (binary search). */
export function holdsValue(lists: SortedLists, p: number, value: number): boolean {
  let lo = lists.start[p];
  let hi = lists.start[p + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = lists.items[mid];
    if (x === value) return true;
    if (x < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
