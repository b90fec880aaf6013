/**
 * A worker thread running one of our TypeScript modules. Node 24 runs TypeScript itself by
 * stripping the types (docs/operations.md#nodejs), in every thread, so a worker starts straight
 * from its .ts entry with no loader to register (Node "Worker threads", `new Worker(url)`).
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/** Starts `entry` (a .ts module URL) on a new worker thread, whatever flags started this one. */
export function typescriptWorker(entry: URL, options: WorkerOptions = {}): Worker {
  return new Worker(entry, { execArgv: [], ...options });
}
