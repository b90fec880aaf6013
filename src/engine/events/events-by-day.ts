/**
 * The events of each system in start-day order (docs/architecture.md#per-event-sums), so that
 * resolving a filter visits the events of its date window, not every event of the snapshot: at
 * ten million games a year's window is a third of the 105,000 events.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { snapshotData } from '../snapshot-cache.ts';

export interface EventsByDay {
  /** Event indexes by system, then start day, then index. */
  readonly events: Int32Array;
  /** The start day of each entry of `events`. */
  readonly days: Int32Array;
  /** System s's events are events[systemStart[s] .. systemStart[s + 1]). */
  readonly systemStart: Int32Array;
}

/** Built once per snapshot (a sort of its events). */
export const eventsByDay = snapshotData('events-by-day', (snapshot: Snapshot): EventsByDay => {
  const { count, system, startDay } = snapshot.events;
  const order = Array.from({ length: count }, (_, e) => e);
  order.sort((a, b) => system[a] - system[b] || startDay[a] - startDay[b] || a - b);
  const events = Int32Array.from(order);
  const days = Int32Array.from(order, (e) => startDay[e]);
  const systemStart = new Int32Array(snapshot.systems.length + 1);
  for (let e = 0; e < count; e++) systemStart[system[e] + 1]++;
  for (let s = 0; s < snapshot.systems.length; s++) systemStart[s + 1] += systemStart[s];
  return { events, days, systemStart };
});

/** The first index in [lo, hi) of `days` whose day is at least `day` (days ascending there). */
export function firstDayAtLeast(days: Int32Array, lo: number, hi: number, day: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
