/**
 * army-matchup's pre-aggregates (docs/statistics.md#army-matchup): per (faction, opponent) cell the
 * row faction's results, summed over blocks of events. Single events are not stored: an event
 * has about as many cells as sides, so scanning its rows costs the same.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder } from './event-order.ts';
import type { EventOrder } from './event-order.ts';
import { snapshotCache } from '../snapshot-cache.ts';

export const GAMES = 0;
export const WINS = 1;
export const DRAWS = 2;
export const LOSSES = 3;
export const SCORE_N = 4;
export const SCORE_SUM = 5;
export const MATCHUP_STRIDE = 6;

const SPANS = [32, 1024];

export interface MatchupCube {
  readonly order: EventOrder;
  readonly cube: EventCube;
  readonly scan: EventScanner;
}

function scanner(snapshot: Snapshot, order: EventOrder): EventScanner {
  const nF = snapshot.factions.length;
  const { faction, opponent, score, result } = snapshot;
  return (from, to, [acc]) => {
    for (let r = order.rowStart[from], end = order.rowStart[to]; r < end; r++) {
      const f = faction[r];
      const o = opponent[r];
      const base = (f * nF + o) * MATCHUP_STRIDE;
      const res = result[r];
      // Mirror games are one game but two sides: count the game once, the results of both sides.
      if (f !== o || (r & 1) === 0) acc[base + GAMES]++;
      if (res === RESULT_WIN) acc[base + WINS]++;
      else if (res === RESULT_DRAW) acc[base + DRAWS]++;
      else acc[base + LOSSES]++;
      const sc = score[r];
      if (sc === sc) {
        acc[base + SCORE_N]++;
        acc[base + SCORE_SUM] += sc;
      }
    }
  };
}

/** The matchup cube of a snapshot (key faction * factions + opponent), built once per snapshot. */
export const matchupCube = snapshotCache({
  name: 'matchup-cube',
  build: (snapshot): EventCube => {
    const order = eventOrder(snapshot);
    const nF = snapshot.factions.length;
    const planes = [{ keys: nF * nF, stride: MATCHUP_STRIDE }];
    return buildCube(order, planes, SPANS, scanner(snapshot, order));
  },
  attach: (snapshot, cube): MatchupCube => {
    const order = eventOrder(snapshot);
    return { order, cube, scan: scanner(snapshot, order) };
  },
});
