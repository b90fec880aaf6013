/**
 * Events in snapshot row order (docs/architecture.md#the-snapshot-and-its-lifecycle): rows are
 * grouped by event and ordered
 * by system and start day, so every common filter's date window is a contiguous range of this
 * order, and per-event pre-aggregates (event-cube.ts) can be addressed by position in it.
 */
import type { Scope } from '../scope.ts';
import { snapshotData } from '../snapshot-cache.ts';

export interface EventOrder {
  /** Events that have at least one game. */
  readonly count: number;
  /** Position -> event index. */
  readonly event: Int32Array;
  /** Position -> first row of the event; rowStart[count] = snapshot.sides. */
  readonly rowStart: Int32Array;
}

/**
 * The snapshot's events in row order, built once per snapshot
 * (docs/architecture.md#per-event-sums).
 */
export const eventOrder = snapshotData('event-order', ({ rowEvent, sides }): EventOrder => {
  const starts: number[] = [];
  const events: number[] = [];
  for (let r = 0; r < sides; r += 2) {
    if (r === 0 || rowEvent[r] !== rowEvent[r - 2]) {
      starts.push(r);
      events.push(rowEvent[r]);
    }
  }
  starts.push(sides);
  return {
    count: events.length,
    event: Int32Array.from(events),
    rowStart: Int32Array.from(starts),
  };
});

/** First position whose event starts at or after `row` (binary search). */
function positionOfRow(order: EventOrder, row: number): number {
  let lo = 0;
  let hi = order.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (order.rowStart[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The positions [start, end) of the events inside the scope's row range
 * (docs/architecture.md#per-event-sums).
 */
export function scopePositions(order: EventOrder, scope: Scope): [number, number] {
  return [positionOfRow(order, scope.rowStart), positionOfRow(order, scope.rowEnd)];
}

/**
 * Walks the scope's events (docs/http-api.md#the-common-filter), handing whole aligned blocks of
 * `spans` (largest first) to `onBlock` when every event in them passes the mask, and every
 * other passing event to `onEvent`. Without spans every passing event goes to `onEvent`.
 *
 * With `onExcluded`, a block where at most a quarter of the events fail is taken whole too and
 * its failing events go to `onExcluded`, for an additive cube to subtract: a filter that keeps
 * most events (say, 16+ players) then costs the events it drops, not the events it keeps.
 */
export function visitScope(
  order: EventOrder,
  scope: Scope,
  spans: readonly number[],
  onBlock: (level: number, block: number) => void,
  onEvent: (position: number) => void,
  onExcluded?: (position: number) => void,
): void {
  const [start, end] = scopePositions(order, scope);
  const mask = scope.eventMask;
  const event = order.event;
  if (spans.length === 0) {
    for (let k = start; k < end; k++) if (mask[event[k]] !== 0) onEvent(k);
    return;
  }
  // passed[i] = passing events in [start, start + i): a block is whole when it passes all.
  const passed = new Int32Array(end - start + 1);
  for (let k = start; k < end; k++) passed[k - start + 1] = passed[k - start] + mask[event[k]];
  let k = start;
  outer: while (k < end) {
    for (let level = spans.length - 1; level >= 0; level--) {
      const span = spans[level];
      if (k % span !== 0 || k + span > end) continue;
      const missing = span - (passed[k + span - start] - passed[k - start]);
      if (missing !== 0 && (onExcluded === undefined || missing * 4 > span)) continue;
      onBlock(level, k / span);
      if (missing !== 0 && onExcluded !== undefined) {
        for (let j = k; j < k + span; j++) if (mask[event[j]] === 0) onExcluded(j);
      }
      k += span;
      continue outer;
    }
    if (mask[event[k]] !== 0) onEvent(k);
    k++;
  }
}
