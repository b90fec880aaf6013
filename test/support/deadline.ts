import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves with `value` after `ms`, for the losing side of a `Promise.race`: the timer is not
 * referenced, so once the race is decided it does not keep the test file's process alive for the
 * rest of its `ms` (node:timers/promises, option `ref`).
 */
export function deadline<T>(ms: number, value: T): Promise<T> {
  return sleep(ms, value, { ref: false });
}
