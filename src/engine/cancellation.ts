/**
 * Cooperative cancellation of a long engine call (docs/architecture.md#engine-thread): an engine
 * thread installs a probe for the task it runs, and the engine's long loops (rating every game
 * of a scope) ask it now and then, so a computation whose every waiter has gone (timed out or
 * disconnected) stops within milliseconds instead of holding its thread for seconds. Off an
 * engine thread no probe is installed and the check costs one comparison.
 */

/** Thrown by {@link throwIfCancelled} when the running task has been cancelled. */
export class TaskCancelled extends Error {
  constructor() {
    super('the computation was cancelled: nobody waits for it any more');
    this.name = 'TaskCancelled';
  }
}

let probe: (() => boolean) | null = null;

/** Runs `run` with `cancelled` as the probe that long loops consult (docs/architecture.md#engine-thread). */
export function withCancellation<T>(cancelled: () => boolean, run: () => T): T {
  const previous = probe;
  probe = cancelled;
  try {
    return run();
  } finally {
    probe = previous;
  }
}

/**
 * Throws {@link TaskCancelled} when the task running on this thread has been cancelled; long
 * loops call it every few thousand steps (docs/architecture.md#engine-thread).
 */
export function throwIfCancelled(): void {
  if (probe !== null && probe()) throw new TaskCancelled();
}

/**
 * Steps between two checks of {@link throwIfCancelledEvery}: at a million games, a loop over
 * every game checks some sixty times, well under 100 ms apart (docs/operations.md#limits).
 */
export const CHECK_EVERY = 0x4000;

/**
 * {@link throwIfCancelled} on every {@link CHECK_EVERY}th step `i` of a loop over games or rows
 * (`every`, a power of two, for steps that cost more), so that no pass over a large scope runs
 * unchecked (docs/operations.md#limits).
 */
export function throwIfCancelledEvery(i: number, every = CHECK_EVERY): void {
  if ((i & (every - 1)) === 0 && probe !== null && probe()) throw new TaskCancelled();
}
