/**
 * The one way a thread of Muster starts (docs/architecture.md#threads): a worker thread running
 * one of our TypeScript modules, whatever flags started this one. Muster runs its sources through
 * tsx (see bin/muster.js), and a worker does not inherit the loader, so the module's code reaches
 * the worker in one of two forms, chosen by the caller for its entry and never swapped behind its
 * back:
 * - through tsx (the default): a tiny ES module registers tsx in the new thread, then imports
 *   the entry (Node "Worker threads", `new Worker(url)`). The server and loading threads start
 *   so: they import modules named at run time (the derivation's) and the whole Fastify app;
 * - bundled: the entry and everything it imports as one plain JavaScript module, built once per
 *   process with esbuild (the compiler tsx itself uses) and run without hooks. tsx's module
 *   hooks run on a hooks thread of their own, several times the memory of the bundled code, and
 *   the engine threads live as long as the process (docs/operations.md#threads). An entry that
 *   cannot be bundled is a ThreadStartError, every time it is started: nothing falls back to tsx.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';
import { buildSync } from 'esbuild';

/**
 * Resolved once, when this module loads: under tsx's module hooks `import.meta.resolve` waits
 * for the hooks thread, which held the serving thread for a fifth of a second on a busy
 * machine each time a reload started its loading worker.
 */
const TSX_API = import.meta.resolve('tsx/esm/api');

/** A thread that could not be started: which module, and why. */
export class ThreadStartError extends Error {
  constructor(
    readonly entry: string,
    reason: string,
  ) {
    super(`cannot start a thread on ${entry}: ${reason}`);
    this.name = 'ThreadStartError';
  }
}

export interface StartThreadOptions extends WorkerOptions {
  /** Run the entry bundled into one module rather than through tsx (see above). */
  readonly bundled?: boolean;
}

/** Each bundled entry's source, or the error that bundling it gave (kept: it gives it again). */
const bundles = new Map<string, string | ThreadStartError>();

/** `entry` bundled with everything it imports; throws ThreadStartError when it cannot be. */
function bundleOf(entry: URL): string {
  let code = bundles.get(entry.href);
  if (code === undefined) {
    try {
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
    } catch (error) {
      code = new ThreadStartError(entry.href, `bundling failed: ${(error as Error).message}`);
    }
    bundles.set(entry.href, code);
  }
  if (code instanceof ThreadStartError) throw code;
  return code;
}

/** The source of a module that registers tsx, then imports `entry`. */
function throughTsx(entry: URL): string {
  return [
    `import { register } from ${JSON.stringify(TSX_API)};`,
    'register();',
    `await import(${JSON.stringify(entry.href)});`,
  ].join('\n');
}

/**
 * Starts `entry` (a .ts module URL) on a new worker thread, through tsx or bundled
 * (docs/architecture.md#threads); throws ThreadStartError when a bundled entry cannot be built.
 */
export function startThread(entry: URL, options: StartThreadOptions = {}): Worker {
  const { bundled = false, ...workerOptions } = options;
  const source = bundled ? bundleOf(entry) : throughTsx(entry);
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    execArgv: [],
    ...workerOptions,
  });
}
