/**
 * A worker thread running one of our TypeScript modules. Muster runs its sources through tsx
 * (see bin/muster.js), and a worker does not inherit the loader: a tiny ES module registers tsx
 * in the new thread, then imports the entry (Node "Worker threads", `new Worker(url)`).
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/** Starts `entry` (a .ts module URL) on a new worker thread, whatever flags started this one. */
export function typescriptWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const source = [
    `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};`,
    'register();',
    `await import(${JSON.stringify(entry.href)});`,
  ].join('\n');
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    execArgv: [],
    ...options,
  });
}
