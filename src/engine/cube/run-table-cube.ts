/**
 * "Run the table" pre-aggregates (docs/statistics.md#run-the-table): per event, for each
 * standings entry with a faction, the games it played and how many it lost, counted per
 * (faction, games played) as entries, entries without a loss and entries with at most one.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RESULT_LOSS } from '../../snapshot/snapshot.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder } from './event-order.ts';
import type { EventOrder } from './event-order.ts';
import { snapshotCache } from '../snapshot-cache.ts';

/** Entries that played more games than this are left out (coin-flip shares become ~0). */
export const MAX_RUN_GAMES = 15;
export const RT_ENTRIES = 0;
export const RT_UNDEFEATED = 1;
export const RT_ONE_LOSS = 2;
export const RUN_STRIDE = 3;
const SPANS = [1, 32, 1024];

export interface RunTableCube {
  readonly order: EventOrder;
  readonly cube: EventCube;
  readonly scan: EventScanner;
}

/** Key of (faction, games played). */
export function runKey(faction: number, games: number): number {
  return faction * (MAX_RUN_GAMES + 1) + games;
}

function scanner(snapshot: Snapshot, order: EventOrder): EventScanner {
  const st = snapshot.standings;
  // Standings rows of event e are [stStart[e], stStart[e + 1]) (written event by event).
  const stStart = new Int32Array(snapshot.events.count + 1);
  for (let i = 0; i < st.count; i++) stStart[st.event[i] + 1]++;
  for (let e = 0; e < snapshot.events.count; e++) stStart[e + 1] += stStart[e];
  const { player, result } = snapshot;
  const games = new Map<number, number>();
  const losses = new Map<number, number>();
  return (from, to, [acc]) => {
    for (let k = from; k < to; k++) {
      games.clear();
      losses.clear();
      for (let r = order.rowStart[k], end = order.rowStart[k + 1]; r < end; r++) {
        const p = player[r];
        if (p < 0) continue;
        games.set(p, (games.get(p) ?? 0) + 1);
        if (result[r] === RESULT_LOSS) losses.set(p, (losses.get(p) ?? 0) + 1);
      }
      const e = order.event[k];
      for (let i = stStart[e]; i < stStart[e + 1]; i++) {
        const f = st.faction[i];
        const g = games.get(st.player[i]) ?? 0;
        if (f < 0 || g === 0 || g > MAX_RUN_GAMES) continue;
        const lost = losses.get(st.player[i]) ?? 0;
        const b = runKey(f, g) * RUN_STRIDE;
        acc[b + RT_ENTRIES]++;
        if (lost === 0) acc[b + RT_UNDEFEATED]++;
        if (lost <= 1) acc[b + RT_ONE_LOSS]++;
      }
    }
  };
}

/** The run-the-table cube of a snapshot, built once per snapshot. */
export const runTableCube = snapshotCache({
  name: 'run-table-cube',
  build: (snapshot): EventCube => {
    const order = eventOrder(snapshot);
    const planes = [{ keys: runKey(snapshot.factions.length, 0), stride: RUN_STRIDE }];
    return buildCube(order, planes, SPANS, scanner(snapshot, order));
  },
  attach: (snapshot, cube): RunTableCube => {
    const order = eventOrder(snapshot);
    return { order, cube, scan: scanner(snapshot, order) };
  },
});
