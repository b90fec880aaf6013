/**
 * The loading threads' scheduling priority (docs/architecture.md#the-snapshot-and-its-lifecycle).
 * A reload keeps every core busy for a long time at ten million games (on PostgreSQL its
 * server's processes too), and the threads that must answer meanwhile then waited for a core
 * (docs/architecture.md#the-snapshot-and-its-lifecycle). Linux keeps a nice value per thread (setpriority(2), NOTES), so a loading thread
 * can step back alone: the threads that answer take a core first when they have work,
 * and the load still has every idle core.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of a loading thread (0 is normal, 19 the lowest). */
export const LOADING_NICE = 10;

/**
 * Lowers this thread's priority to LOADING_NICE; returns whether it could. Where threads have no
 * priority of their own (not Linux) or it may not be changed, the load runs as before.
 */
export function runInBackground(): boolean {
  try {
    const tid = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1];
    if (tid === undefined) return false;
    setPriority(Number(tid), LOADING_NICE);
    return true;
  } catch {
    return false;
  }
}
