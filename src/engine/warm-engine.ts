/**
 * Builds everything the engine caches per snapshot (event order, the cubes, the pre-game
 * ratings behind `skill`, the filter values), so a freshly loaded snapshot answers its first request as fast as
 * its thousandth. The snapshot manager runs it before the swap, while the old one still serves.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { eventOrder } from './cube/event-order.ts';
import { eventsByDay } from './events/events-by-day.ts';
import { filterOptions } from './filter-options.ts';
import type { WarmStep } from './statistic.ts';
import { STATISTICS } from './statistics.ts';

/**
 * The caches every statistic reads through the common filter (the event order and the events
 * by day, filter.ts), and the filter values the filters route answers with.
 */
const SHARED: readonly (readonly WarmStep[])[] = [
  [eventOrder],
  [eventOrder, eventsByDay, filterOptions],
];

/**
 * The warm-up in two parts of about the same cost, each holding every cache its own caches
 * read (a statistic lists a cache with those it reads, statistics.ts), so the two can be built
 * on two threads at once (engine-derivation.ts); the event order, which nearly every cache
 * reads, is built by both. What each part costs is measured by the benchmark's load section
 * (docs/operations.md#scale-model).
 */
export const WARM_PARTS: readonly (readonly WarmStep[])[] = SHARED.map((shared, part) => [
  ...new Set([...shared, ...STATISTICS.flatMap((s) => s.caches[part])]),
]);

/** Every warm-up step once, each after the caches it reads. */
const WARM_STEPS = [...new Set(WARM_PARTS.flat())];

/**
 * Fills the per-snapshot caches (docs/architecture.md: statistics never wait on set-up at request
 * time).
 */
export function warmEngine(snapshot: Snapshot): void {
  for (const step of WARM_STEPS) step(snapshot);
}

/**
 * Fills the same caches one at a time, letting queued requests run between steps, so a reload
 * holds the event loop at most as long as its longest step (docs/architecture.md#snapshot-reloads).
 * When the caches' data was built on the loading thread (engine-derivation.ts), each step only
 * attaches to it. Resolves to the longest step in milliseconds.
 */
export async function warmEngineInSteps(snapshot: Snapshot): Promise<number> {
  let longest = 0;
  for (const step of WARM_STEPS) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const started = performance.now();
    step(snapshot);
    longest = Math.max(longest, performance.now() - started);
  }
  return longest;
}
