/**
 * An engine thread's code as one plain JavaScript module (docs/operations.md#engine-threads).
 * A worker that runs our TypeScript through tsx (typescript-worker.ts) registers tsx's module
 * hooks, which Node runs on a hooks thread of their own, several times the memory of the same
 * code bundled once with esbuild (the compiler tsx itself uses) and run without hooks
 * (docs/operations.md#threads). The engine imports nothing but its own modules and Node's, so
 * the bundle is self-contained; it is built once per process, the first time a thread starts.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';
import { buildSync } from 'esbuild';

/** Each entry's bundled source. */
const bundles = new Map<string, string>();

/** `entry` bundled; a module that cannot be bundled throws here, at its first start. */
function bundleOf(entry: URL): string {
  let code = bundles.get(entry.href);
  if (code === undefined) {
    const built = buildSync({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      write: false,
      logLevel: 'silent',
    });
    code = built.outputFiles[0].text;
    bundles.set(entry.href, code);
  }
  return code;
}

/** Starts `entry` (a .ts module URL) on a new worker thread as one bundled module. */
export function bundledWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const code = bundleOf(entry);
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    execArgv: [],
    ...options,
  });
}
