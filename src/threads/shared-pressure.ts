/**
 * How well the main thread's engine pool keeps up, on shared memory for every server thread
 * (docs/operations.md#limits): the pool runs on the main thread, where the server threads send
 * their tasks with a warm key (engine-pool-host.ts), so the main thread publishes its pressure
 * here and health's engine:queue check on any thread reads it as its own. The oldest wait is
 * published as when that task was queued, so a reader's figure is as of its own clock.
 */
import type { EnginePressure } from '../http/engine-runner.ts';

const [WAITING, RUNNING, OLDEST_AT, REFUSED_AT, ABANDONED_AT] = [0, 1, 2, 3, 4];
const CELLS = 5;
/** How often the main thread publishes: well under health's one second of waiting. */
export const PUBLISH_EVERY_MS = 100;

/** A buffer for the pool's pressure, none published yet (nothing waits). */
export function sharedPressureBuffer(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(CELLS * 8);
  new Float64Array(buffer).fill(Number.NaN).fill(0, WAITING, OLDEST_AT);
  return buffer;
}

const orNaN = (at: number | null) => at ?? Number.NaN;
const orNull = (at: number) => (Number.isNaN(at) ? null : at);

/** Writes `pressure` as of `now` (epoch ms). */
export function publishPressure(
  buffer: SharedArrayBuffer,
  pressure: EnginePressure,
  now = Date.now(),
): void {
  const cells = new Float64Array(buffer);
  cells[WAITING] = pressure.waiting;
  cells[RUNNING] = pressure.running;
  cells[OLDEST_AT] = pressure.waiting > 0 ? now - pressure.oldestWaitMs : Number.NaN;
  cells[REFUSED_AT] = orNaN(pressure.lastRefusedAt);
  cells[ABANDONED_AT] = orNaN(pressure.lastAbandonedAt);
}

/**
 * The pressure last published, its oldest wait as of `now`. The cells are read one by one, not
 * under a lock: a figure a health check reads may be one publication older than its neighbour.
 */
export function readPressure(buffer: SharedArrayBuffer, now = Date.now()): EnginePressure {
  const cells = new Float64Array(buffer);
  const oldestAt = cells[OLDEST_AT];
  return {
    waiting: cells[WAITING],
    running: cells[RUNNING],
    oldestWaitMs: Number.isNaN(oldestAt) ? 0 : Math.max(0, now - oldestAt),
    lastRefusedAt: orNull(cells[REFUSED_AT]),
    lastAbandonedAt: orNull(cells[ABANDONED_AT]),
  };
}
