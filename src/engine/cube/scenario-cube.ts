/**
 * The scenario catalogue's pre-aggregates (docs/statistics.md#scenario): per event and scenario
 * part (every kind's dictionary, one key space), the games that played it and the first and
 * last start day, as max-merged slots so that blocks keep them too.
 */
import { SCENARIO_KINDS } from '../../domain/model.ts';
import type { ScenarioKind } from '../../domain/model.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { gamePartColumn, gameSecondaries } from '../scenario-parts.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder } from './event-order.ts';
import type { EventOrder } from './event-order.ts';
import { snapshotCache } from '../snapshot-cache.ts';

export const GAMES = 0;
/** DAY_BIAS - first day: the earliest day is the largest value, 0 is "never". */
export const FIRST = 1;
/** DAY_BIAS + last day. */
export const LAST = 2;
export const SCENARIO_STRIDE = 3;
export const DAY_BIAS = 100_000_000;

const SPANS = [1, 32, 1024];

export interface ScenarioCube {
  readonly order: EventOrder;
  readonly cube: EventCube;
  readonly scan: EventScanner;
  /** Key of kind's id 0. */
  readonly offsets: Readonly<Record<ScenarioKind, number>>;
}

/** Key offsets of every kind's dictionary in SCENARIO_KINDS order, and the key count. */
export function partOffsets(snapshot: Snapshot): [Record<ScenarioKind, number>, number] {
  const offsets = {} as Record<ScenarioKind, number>;
  let keys = 0;
  for (const kind of SCENARIO_KINDS) {
    offsets[kind] = keys;
    keys += snapshot.scenarioDicts[kind].values.length;
  }
  return [offsets, keys];
}

function scanner(snapshot: Snapshot, order: EventOrder): EventScanner {
  const [offsets] = partOffsets(snapshot);
  const columns: Int32Array[] = [];
  const bases: number[] = [];
  for (const kind of SCENARIO_KINDS) {
    const column = gamePartColumn(snapshot, kind);
    if (column === null) continue;
    columns.push(column);
    bases.push(offsets[kind]);
  }
  const secondaryBase = offsets.secondary;
  const buffer = new Int32Array(16);
  return (from, to, [acc]) => {
    for (let k = from; k < to; k++) {
      const day = snapshot.events.startDay[order.event[k]];
      const first = DAY_BIAS - day;
      const last = DAY_BIAS + day;
      const add = (key: number) => {
        const a = key * SCENARIO_STRIDE;
        acc[a + GAMES]++;
        if (first > acc[a + FIRST]) acc[a + FIRST] = first;
        if (last > acc[a + LAST]) acc[a + LAST] = last;
      };
      for (let g = order.rowStart[k] >> 1, end = order.rowStart[k + 1] >> 1; g < end; g++) {
        for (let c = 0; c < columns.length; c++) {
          const id = columns[c][g];
          if (id >= 0) add(bases[c] + id);
        }
        const n = gameSecondaries(snapshot, g, buffer);
        for (let i = 0; i < n; i++) add(secondaryBase + buffer[i]);
      }
    }
  };
}

/** The scenario catalogue cube of a snapshot, built once per snapshot. */
export const scenarioCube = snapshotCache({
  name: 'scenario-cube',
  build: (snapshot): EventCube => {
    const order = eventOrder(snapshot);
    const [, keys] = partOffsets(snapshot);
    const planes = [{ keys, stride: SCENARIO_STRIDE, maxSlots: [FIRST, LAST] }];
    return buildCube(order, planes, SPANS, scanner(snapshot, order));
  },
  attach: (snapshot, cube): ScenarioCube => {
    const order = eventOrder(snapshot);
    return { order, cube, scan: scanner(snapshot, order), offsets: partOffsets(snapshot)[0] };
  },
});
