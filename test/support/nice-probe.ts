/**
 * Runs on a worker thread (test/snapshot/background-priority.test.ts): steps this thread back as
 * a loading thread does and posts what it could and the nice value the kernel then reports for
 * this thread alone.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort } from 'node:worker_threads';
import { runInBackground } from '../../src/threads/background-priority.ts';

/** Field 19 of /proc/thread-self/stat (proc(5)): after the command's closing parenthesis. */
export function threadNice(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

// Imported by the test for threadNice too: only a worker thread steps back.
if (!isMainThread) parentPort?.postMessage({ lowered: runInBackground(), nice: threadNice() });
