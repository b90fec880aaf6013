/**
 * A worker thread running one of our TypeScript modules. Muster runs its sources through tsx
 * (see bin/muster.js), and a worker does not inherit the loader: a tiny ES module registers tsx
 * in the new thread, then imports the entry (Node "Worker threads", `new Worker(url)`).
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * Resolved once, when this module loads: under tsx's module hooks `import.meta.resolve` waits
 * for the hooks thread, which held the serving thread for a fifth of a second on a busy
 * machine each time a reload started its loading worker.
 */
const TSX_API = import.meta.resolve('tsx/esm/api');

/** Starts `entry` (a .ts module URL) on a new worker thread, whatever flags started this one. */
export function typescriptWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const source = [
    `import { register } from ${JSON.stringify(TSX_API)};`,
    'register();',
    `await import(${JSON.stringify(entry.href)});`,
  ].join('\n');
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    execArgv: [],
    ...options,
  });
}
