/**
 * Loads a snapshot on a worker thread (docs/architecture.md#snapshot-reloads): reading and
 * building a million games takes seconds of CPU, which on the serving thread would stall every
 * request, health included. The worker's typed arrays are transferred, not copied.
 */
import { availableParallelism } from 'node:os';
import { startThread } from './start-thread.ts';
import { parseDatabaseUrl } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotDerivation } from '../snapshot/snapshot-derivation.ts';
import type { SnapshotReceivers } from './snapshot-handoff.ts';

/**
 * The loading thread's young generation (three semi-spaces in V8): reading a page of rows makes
 * millions of short-lived row arrays and strings, which with V8's default semi-space outlive a
 * scavenge and are promoted, then marked and compacted; larger semi-spaces cut the load's
 * garbage collection by about half at ten million games (docs/operations.md#scale-model).
 */
const LOADER_YOUNG_GENERATION_MB = 192;

/**
 * What the loading thread posts: the snapshot once, then notes of what it did after (such as a
 * snapshot file that could not be written).
 */
export type LoaderMessage =
  | { kind: 'part'; key: string; value: unknown }
  | { kind: 'snapshot'; snapshot: Record<string, unknown>; derived: unknown; notes: string[] }
  | { kind: 'note'; note: string };

/** Loading threads still running, some of them writing a snapshot file after answering. */
const loaders = new Set<Promise<void>>();

/**
 * Resolves once every loading thread has ended: one may still be writing the snapshot file
 * after its snapshot is served, and a process that exits at once would leave the file unwritten.
 */
export async function loadersEnded(): Promise<void> {
  while (loaders.size > 0) await Promise.all(loaders);
}

/** Whether another thread can open the same data (an in-memory SQLite database it cannot). */
export function canLoadInWorker(databaseUrl: string): boolean {
  const { dialect, target } = parseDatabaseUrl(databaseUrl);
  return dialect === 'postgres' || target !== ':memory:';
}

/** What a worker load does besides building the snapshot. */
export interface WorkerLoadOptions {
  /** Derived on the loading thread from each snapshot, adopted on this one. */
  derivation?: SnapshotDerivation;
  /** Posted each snapshot by the loading thread (snapshot-handoff.ts). */
  receivers?: SnapshotReceivers;
  /** The snapshot file read first and written after a build (snapshot-file.ts); none if null. */
  file?: string | null;
  /** Told what the load could not do but did without (e.g. why the snapshot file was not used). */
  onNote?: (note: string) => void;
  /**
   * Threads a load may keep busy at once, the loading thread included: the games are read in as
   * many key ranges (load-snapshot.ts) and the derivation split in as many parts
   * (derive-host.ts); by default one per core.
   */
  threads?: number;
}

/**
 * Builds (or reads from its file) the snapshot of the store at `databaseUrl` on a worker thread,
 * and there too what the derivation derives from it, which is adopted here before the snapshot
 * is returned. The worker first posts both to each of the receivers (snapshot-handoff.ts).
 */
export function loadSnapshotInWorker(
  databaseUrl: string,
  options: WorkerLoadOptions = {},
): Promise<Snapshot> {
  const { derivation, receivers, file = null, onNote } = options;
  const threads = options.threads ?? availableParallelism();
  return new Promise<Snapshot>((resolve, reject) => {
    const handoff = receivers?.handoff();
    const ports = handoff?.ports ?? [];
    let worker;
    try {
      worker = startThread(new URL('./load-snapshot-thread.ts', import.meta.url), {
        workerData: {
          databaseUrl,
          deriveModule: derivation?.module ?? null,
          ports,
          file,
          threads,
        },
        transferList: [...ports],
        resourceLimits: { maxYoungGenerationSizeMb: LOADER_YOUNG_GENERATION_MB },
      });
    } catch (error) {
      // Not handed over: closing them tells the receivers no snapshot will come.
      for (const port of ports) port.close();
      throw error;
    }
    let done = false;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    loaders.add(ended);
    void ended.then(() => loaders.delete(ended));
    // The snapshot comes a part at a time (load-snapshot-thread.ts): each is acknowledged after
    // this thread has taken it, and the next arrives after whatever was waiting here has run.
    const parts: Record<string, unknown> = {};
    worker.on('message', (message: LoaderMessage) => {
      if (message.kind === 'note') {
        onNote?.(message.note);
        return;
      }
      if (message.kind === 'part') {
        parts[message.key] = message.value;
        worker.postMessage('taken');
        return;
      }
      const snapshot = { ...message.snapshot, ...parts } as unknown as Snapshot;
      const { derived, notes } = message;
      done = true;
      for (const note of notes) onNote?.(note);
      try {
        derivation?.adopt(snapshot, derived);
        handoff?.received(snapshot);
        resolve(snapshot);
      } catch (error) {
        reject(error);
      }
    });
    worker.once('error', (error) => {
      done = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`the snapshot worker exited with code ${code} before answering`));
    });
  });
}

/**
 * The loader a SnapshotManager should use for the store at `databaseUrl`: a worker thread when
 * it can reach the same data (with `options` applied there), else the given in-thread loader.
 */
export function snapshotLoaderFor(
  databaseUrl: string,
  inThread: (store: Store) => Promise<Snapshot>,
  options: WorkerLoadOptions = {},
): (store: Store) => Promise<Snapshot> {
  if (!canLoadInWorker(databaseUrl)) return inThread;
  return () => loadSnapshotInWorker(databaseUrl, options);
}
