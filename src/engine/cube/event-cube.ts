/**
 * Per-event pre-aggregates (docs/architecture.md#per-event-sums): every common-filter field is an
 * event attribute, so a statistic's additive accumulators can be summed per event (or per aligned
 * block of events) once per snapshot and a request adds the few cells of the events it keeps,
 * instead of scanning every side in scope. A cube has planes (each a dense key space of `stride`
 * slots), stored sparsely per block: only keys an event (block) touched are kept.
 */
import { TypedColumn } from '../../domain/typed-column.ts';
import type { Scope } from '../filter.ts';
import { visitScope } from './event-order.ts';
import type { EventOrder } from './event-order.ts';

export interface PlaneSpec {
  readonly keys: number;
  readonly stride: number;
  /** Slots merged by max instead of sum (0 is their neutral value). */
  readonly maxSlots?: readonly number[];
}

interface PlaneCells {
  /** Cells of block j are [start[j], start[j + 1]). */
  readonly start: Int32Array;
  readonly key: Int32Array;
  /** stride values per cell. */
  readonly values: Float64Array;
}

export interface EventCube {
  readonly planes: readonly PlaneSpec[];
  /** Block span (in events) of each level, ascending; a span of 1 stores single events. */
  readonly spans: readonly number[];
  readonly levels: readonly (readonly PlaneCells[])[];
}

/**
 * Adds the events at positions [from, to) of the event order into `targets` (one dense array
 * per plane, indexed key * stride + slot). The same function builds the cube and answers
 * whatever a request cannot take from it, so both paths define the numbers once.
 */
export type EventScanner = (from: number, to: number, targets: Float64Array[]) => void;

/** Zeroed dense targets, one per plane (key * stride + slot). */
export function newTargets(planes: readonly PlaneSpec[]): Float64Array[] {
  return planes.map((p) => new Float64Array(p.keys * p.stride));
}

/** Moves the touched keys of `scratch` into the level's cells and clears them. */
function flush(
  spec: PlaneSpec,
  scratch: Float64Array,
  key: TypedColumn<Int32Array>,
  values: TypedColumn<Float64Array>,
): void {
  const { keys, stride } = spec;
  for (let k = 0; k < keys; k++) {
    const base = k * stride;
    let touched = false;
    for (let s = 0; s < stride; s++) {
      if (scratch[base + s] !== 0) {
        touched = true;
        break;
      }
    }
    if (!touched) continue;
    key.push(k);
    for (let s = 0; s < stride; s++) {
      values.push(scratch[base + s]);
      scratch[base + s] = 0;
    }
  }
}

/** The item cube's stride (item-cube.ts ITEM_STRIDE), the one addCells unrolls. */
const UNROLLED_STRIDE = 10;

/**
 * Adds cells [from, to) of a plane into `target`. The item cube's planes, whose blocks hold
 * thousands of cells, are added unrolled: V8 does not unroll a loop whose bound is read at run
 * time, and item-use-stats spends most of its time in this sum (the gain:
 * bench/results/comment-figures-2026-11-28.md).
 */
function addCells(
  target: Float64Array,
  key: Int32Array,
  values: Float64Array,
  stride: number,
  from: number,
  to: number,
): void {
  if (stride === UNROLLED_STRIDE) {
    for (let c = from; c < to; c++) {
      const t = key[c] * UNROLLED_STRIDE;
      const v = c * UNROLLED_STRIDE;
      target[t] += values[v];
      target[t + 1] += values[v + 1];
      target[t + 2] += values[v + 2];
      target[t + 3] += values[v + 3];
      target[t + 4] += values[v + 4];
      target[t + 5] += values[v + 5];
      target[t + 6] += values[v + 6];
      target[t + 7] += values[v + 7];
      target[t + 8] += values[v + 8];
      target[t + 9] += values[v + 9];
    }
    return;
  }
  for (let c = from; c < to; c++) {
    const t = key[c] * stride;
    const v = c * stride;
    for (let s = 0; s < stride; s++) target[t + s] += values[v + s];
  }
}

/** Adds one block's cells of every plane into `targets`. */
export function addBlock(
  cube: EventCube,
  level: number,
  block: number,
  targets: Float64Array[],
): void {
  const cells = cube.levels[level];
  for (let p = 0; p < cube.planes.length; p++) {
    const { stride, maxSlots } = cube.planes[p];
    const { start, key, values } = cells[p];
    const target = targets[p];
    const end = start[block + 1];
    if (maxSlots === undefined) {
      addCells(target, key, values, stride, start[block], end);
    } else {
      for (let c = start[block]; c < end; c++) {
        const t = key[c] * stride;
        const v = c * stride;
        for (let s = 0; s < stride; s++) {
          target[t + s] = maxSlots.includes(s)
            ? Math.max(target[t + s], values[v + s])
            : target[t + s] + values[v + s];
        }
      }
    }
  }
}

/**
 * Builds a cube over the event order with one level per span (ascending): the first level by
 * scanning, each next one by merging the level below (docs/architecture.md#per-event-sums, built
 * once per snapshot).
 */
export function buildCube(
  order: EventOrder,
  planes: readonly PlaneSpec[],
  spans: readonly number[],
  scan: EventScanner,
): EventCube {
  const cube = { planes, spans, levels: [] as PlaneCells[][] };
  const scratch = newTargets(planes);
  for (let level = 0; level < spans.length; level++) {
    const span = spans[level];
    const blocks = Math.ceil(order.count / span);
    const starts = planes.map(() => new Int32Array(blocks + 1));
    const keys = planes.map(() => new TypedColumn(Int32Array, 1024));
    const values = planes.map(() => new TypedColumn(Float64Array, 1024));
    for (let j = 0; j < blocks; j++) {
      if (level === 0) scan(j * span, Math.min(order.count, (j + 1) * span), scratch);
      else {
        const ratio = span / spans[level - 1];
        const below = cube.levels[level - 1][0].start.length - 1;
        for (let i = j * ratio; i < Math.min(below, (j + 1) * ratio); i++) {
          addBlock(cube, level - 1, i, scratch);
        }
      }
      planes.forEach((spec, p) => {
        starts[p][j] = keys[p].length;
        flush(spec, scratch[p], keys[p], values[p]);
      });
    }
    cube.levels.push(
      planes.map((_, p) => {
        starts[p][blocks] = keys[p].length;
        return { start: starts[p], key: keys[p].done(), values: values[p].done() };
      }),
    );
  }
  return cube;
}

/**
 * Adds the scope's events into fresh targets (one per plane): whole blocks from the cube, the
 * rest from single-event cells when the cube stores them, else through `scan`. A cube of sums
 * (no max slots) also takes nearly-whole blocks and subtracts the few events the filter drops,
 * so a filter that keeps most events costs the events it drops. Counts are integers, so that is
 * exact; a sum of fractions (scores, Elo expectations) may differ from adding the kept events
 * one by one in its last bit, as any other order of addition would.
 */
export function sumScope(
  cube: EventCube,
  order: EventOrder,
  scope: Scope,
  scan: EventScanner,
): Float64Array[] {
  const targets = newTargets(cube.planes);
  const perEvent = cube.spans[0] === 1 ? 1 : 0;
  const subtractable = cube.planes.every((p) => p.maxSlots === undefined);
  const addEvent = (k: number, into: Float64Array[]) =>
    perEvent ? addBlock(cube, 0, k, into) : scan(k, k + 1, into);
  let dropped: Float64Array[] | null = null;
  visitScope(
    order,
    scope,
    cube.spans.slice(perEvent),
    (level, block) => addBlock(cube, level + perEvent, block, targets),
    (k) => addEvent(k, targets),
    subtractable ? (k) => addEvent(k, (dropped ??= newTargets(cube.planes))) : undefined,
  );
  if (dropped !== null) {
    const minus: Float64Array[] = dropped;
    targets.forEach((target, p) => {
      const d = minus[p];
      for (let i = 0; i < target.length; i++) target[i] -= d[i];
    });
  }
  return targets;
}

/** Bytes held by a cube's cells (for the benchmark's memory figure). */
export function cubeBytes(cube: EventCube): number {
  let bytes = 0;
  for (const level of cube.levels) {
    for (const p of level) bytes += p.start.byteLength + p.key.byteLength + p.values.byteLength;
  }
  return bytes;
}
