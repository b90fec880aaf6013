/**
 * What each player's record in a system says, for the duplicate-player pass
 * (docs/statistics.md#duplicate-players): their opponents, events, event start days and
 * factions, each a sorted list without repeats, built once per snapshot for a player the pass
 * asks about, so that it compares two players by merging short sorted lists instead of
 * scanning games. Only players with an alike name are asked about, often few of a system's.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';

/** Per player index p, the items items[start[p]] .. items[start[p + 1] - 1]. */
interface Grouped {
  start: Int32Array;
  items: Int32Array;
}

/** A player's record in the system, each list sorted without repeats. */
export interface PlayerRecord {
  opponents: Int32Array;
  events: Int32Array;
  days: Int32Array;
  factions: Int32Array;
}

export interface PlayerFacts {
  /** 1 where the player has a game (a side) or an entry in the system. */
  present: Uint8Array;
  /** The system's events with a game, and its games: the answer's sample. */
  sampleEvents: number;
  sampleGames: number;
  /** The player's record, built on first use and kept. */
  record(p: number): PlayerRecord;
}

/** Items by owner as CSR, in the order given (owners[i] owns items[i]; negative owners none). */
function grouped(count: number, owners: Int32Array, values: Int32Array): Grouped {
  const start = new Int32Array(count + 1);
  for (let i = 0; i < owners.length; i++) if (owners[i] >= 0) start[owners[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count);
  const items = new Int32Array(start[count]);
  for (let i = 0; i < owners.length; i++) if (owners[i] >= 0) items[fill[owners[i]]++] = values[i];
  return { start, items };
}

/** The values sorted, without repeats. */
function sortedDistinct(values: Int32Array): Int32Array {
  values.sort();
  let out = 0;
  for (let i = 0; i < values.length; i++) {
    if (i === 0 || values[i] !== values[i - 1]) values[out++] = values[i];
  }
  return values.slice(0, out);
}

function buildRecord(snapshot: Snapshot, rows: Int32Array, entries: Int32Array): PlayerRecord {
  const events = new Int32Array(rows.length + entries.length);
  for (let i = 0; i < rows.length; i++) events[i] = snapshot.gameEvent[rows[i] >> 1];
  events.set(entries, rows.length);
  return {
    opponents: sortedDistinct(rows.map((r) => snapshot.player[r ^ 1])),
    factions: sortedDistinct(rows.map((r) => snapshot.faction[r])),
    days: sortedDistinct(events.map((e) => snapshot.events.startDay[e])),
    events: sortedDistinct(events),
  };
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
  for (let p = 0; p < n; p++) {
    if (sides.start[p + 1] > sides.start[p] || entries.start[p + 1] > entries.start[p]) {
      present[p] = 1;
    }
  }
  const seen = new Uint8Array(snapshot.events.system.length);
  let sampleEvents = 0;
  for (let r = rowStart; r < rowEnd; r += 2) {
    const e = snapshot.gameEvent[r >> 1];
    if (seen[e] === 0) sampleEvents++;
    seen[e] = 1;
  }
  const records = new Map<number, PlayerRecord>();
  const record = (p: number) => {
    let own = records.get(p);
    if (own === undefined) {
      const rows = sides.items.subarray(sides.start[p], sides.start[p + 1]);
      const played = entries.items.subarray(entries.start[p], entries.start[p + 1]);
      records.set(p, (own = buildRecord(snapshot, rows, played)));
    }
    return own;
  };
  return { present, sampleEvents, sampleGames: (rowEnd - rowStart) / 2, record };
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

/** Whether two sorted lists share a value (a merge of the two). */
export function sharesValue(a: Int32Array, b: Int32Array): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) return true;
    if (a[i] < b[j]) i++;
    else j++;
  }
  return false;
}

/** Whether a sorted list holds `value` (binary search). */
export function holdsValue(list: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] === value) return true;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
