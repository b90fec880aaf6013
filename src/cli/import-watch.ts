/**
 * `muster import --watch PATH...` (docs/operations.md#watching-a-folder): imports what is there,
 * then keeps watching; a file that appears or changes is imported again once it has been quiet
 * for a moment (changed records updated, unchanged ones untouched, a bad record rejected alone,
 * as every import does). Imports run one at a time, in arrival order. SIGINT or SIGTERM stops the
 * watching at once and the process exits after the import under way has finished: an import
 * writes each batch in one transaction, and the watcher never stops one half-way.
 */
import { statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import { importSources } from '../ingest/import-sources.ts';
import type { ImportFormatSpec } from '../ingest/import-format.ts';
import type { Store } from '../store/store.ts';
import type { CliIo } from './cli-io.ts';
import { printReport } from './print-report.ts';
import { signalled } from './stop-signal.ts';

type ImportOptions = Parameters<typeof importSources>[2];

export interface WatchOptions {
  readonly spec: ImportFormatSpec;
  readonly maxRejects: number;
  /** How long a file must be quiet before it is imported again (a writer may write in parts). */
  readonly settleMs?: number;
  /** Resolves to stop watching; default: the first SIGINT or SIGTERM. */
  readonly stop?: Promise<void>;
}

/**
 * What to import again when `file` changed under the watched `root`: the file itself for a
 * format read file by file (and only its files), else the whole watched path (a folder format
 * reads its files together).
 */
function target(spec: ImportFormatSpec, root: string, file: string): string | null {
  if (file === root || spec.extension === null) return root;
  return file.toLowerCase().endsWith(spec.extension) ? file : null;
}

/** Imports `paths`, then each change under them, until stopped; returns the exit code. */
export async function watchImports(
  store: Store,
  paths: string[],
  options: ImportOptions,
  io: CliIo,
  watchOptions: WatchOptions,
): Promise<number> {
  const { spec, maxRejects } = watchOptions;
  const settleMs = watchOptions.settleMs ?? 200;
  let rejected = false;
  const run = async (targets: string[]) => {
    const report = await importSources(store, targets, options);
    printReport(report, io.out, maxRejects);
    if (report.rejects.length > 0) rejected = true;
  };
  await run(paths);
  const pending = new Map<string, NodeJS.Timeout>();
  const queue: string[] = [];
  let wake: (() => void) | null = null;
  const watchers: FSWatcher[] = [];
  for (const path of paths.map((p) => resolve(p))) {
    const folder = statSync(path).isDirectory();
    const watcher = watch(path, { recursive: folder }, (_kind, name) => {
      const file = folder && name !== null ? join(path, name.toString()) : path;
      const what = target(spec, path, file);
      if (what === null) return;
      clearTimeout(pending.get(what));
      pending.set(
        what,
        setTimeout(() => {
          pending.delete(what);
          if (!queue.includes(what)) queue.push(what);
          wake?.();
        }, settleMs),
      );
    });
    watchers.push(watcher);
  }
  io.out(`watching ${paths.join(', ')} (SIGINT or SIGTERM stops)`);
  let stopped = false;
  void (watchOptions.stop ?? signalled(io, 'stopping after the import under way')).then(() => {
    stopped = true;
    wake?.();
  });
  while (!stopped) {
    if (queue.length === 0) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      continue;
    }
    const next = queue.splice(0);
    // A file removed before its turn is no import: the others still go.
    const present = next.filter((p) => {
      try {
        return statSync(p).isFile() || statSync(p).isDirectory();
      } catch {
        return false;
      }
    });
    if (present.length > 0) await run(present);
  }
  for (const watcher of watchers) watcher.close();
  for (const timer of pending.values()) clearTimeout(timer);
  io.out('stopped watching');
  return rejected ? 1 : 0;
}
