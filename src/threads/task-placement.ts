/**
 * Which engine thread's own queue a task waits in (docs/operations.md#limits): a task that shares
 * what it keeps with others (taskAffinity: ratings of one parameter set, a joint model) waits for
 * the thread its key hashes to; a heavy task (taskIsHeavy: the pairing draft) has no key, yet the
 * pool starts an expensive task only from one thread's own queue, so it waits where the least
 * work is; any other task waits in the queue every thread takes from.
 */
import { taskAffinity, taskIsHeavy } from '../engine/engine-tasks.ts';
import type { EngineTaskArgs, EngineTaskName } from '../engine/engine-tasks.ts';

/** A string's FNV-1a hash, to spread affinity keys over the threads. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The index of the smallest of `loads`, the first from `from` on a tie, so that ties rotate
 * over the threads as `from` does.
 */
export function leastLoaded(loads: readonly number[], from: number): number {
  let best = 0;
  let least = Number.POSITIVE_INFINITY;
  for (let k = 0; k < loads.length; k++) {
    const index = (from + k) % loads.length;
    if (loads[index] < least) {
      best = index;
      least = loads[index];
    }
  }
  return best;
}

/**
 * The thread `task` must wait for, or null: any. `loads` gives each thread's tasks running and
 * waiting for it, read only for a heavy task; `from` is the thread whose turn it is.
 */
export function placement<K extends EngineTaskName>(
  task: K,
  args: EngineTaskArgs<K>,
  loads: () => readonly number[],
  from: number,
): number | null {
  const affinity = taskAffinity(task, args);
  const count = loads().length;
  if (affinity !== null) return hashOf(affinity) % count;
  return taskIsHeavy(task) ? leastLoaded(loads(), from) : null;
}
