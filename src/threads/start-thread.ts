/**
 * The one way a thread of Muster starts (docs/architecture.md#threads): a worker thread running
 * one of our TypeScript modules, whatever flags started this one. Node 24 runs TypeScript itself
 * by stripping its types, in every thread (docs/operations.md#nodejs), so the module reaches the
 * worker in one of two forms, chosen by the caller for its entry and never swapped behind its
 * back:
 * - as it is (the default): `new Worker(url)` on the .ts entry (Node "Worker threads"). The
 *   server and loading threads start so: they import modules named at run time (the
 *   derivation's) and the whole Fastify app;
 * - bundled: the entry and everything it imports as one plain JavaScript module, built once per
 *   with esbuild and kept on disk while its sources are unchanged (bundle-cache.ts). A thread then parses one module instead of stripping and linking each
 *   of a hundred: four engine threads started in 0.6-0.8 s of CPU bundled against 1.7-1.9 s as
 *   they are, for the same memory (39-42 MiB each), and the engine threads are started with every
 *   pool. An entry that cannot be bundled is a ThreadStartError, every time it is started:
 *   nothing falls back to the other form.
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';
import { cachedBundle } from './bundle-cache.ts';

/** A thread that could not be started: which module, and why. */
export class ThreadStartError extends Error {
  readonly entry: string;
  constructor(entry: string, reason: string) {
    super(`cannot start a thread on ${entry}: ${reason}`);
    this.entry = entry;
    this.name = 'ThreadStartError';
  }
}

export interface StartThreadOptions extends WorkerOptions {
  /** Run the entry bundled into one module rather than as it is (see above). */
  readonly bundled?: boolean;
}

/** Each bundled entry's source, or the error that bundling it gave (kept: it gives it again). */
const bundles = new Map<string, string | ThreadStartError>();

/** `entry` bundled with everything it imports; throws ThreadStartError when it cannot be. */
function bundleOf(entry: URL): string {
  let code = bundles.get(entry.href);
  if (code === undefined) {
    try {
      code = cachedBundle(entry);
    } catch (error) {
      code = new ThreadStartError(entry.href, `bundling failed: ${(error as Error).message}`);
    }
    bundles.set(entry.href, code);
  }
  if (code instanceof ThreadStartError) throw code;
  return code;
}

/**
 * Starts `entry` (a .ts module URL) on a new worker thread, as it is or bundled
 * (docs/architecture.md#threads); throws ThreadStartError when a bundled entry cannot be built.
 */
export function startThread(entry: URL, options: StartThreadOptions = {}): Worker {
  const { bundled = false, ...workerOptions } = options;
  const url = bundled
    ? new URL(`data:text/javascript,${encodeURIComponent(bundleOf(entry))}`)
    : entry;
  return new Worker(url, { execArgv: [], ...workerOptions });
}
