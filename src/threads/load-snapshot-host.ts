/**
 * Loads a snapshot on a worker thread (docs/architecture.md#snapshot-reloads): reading and
 * building a million games takes seconds of CPU, which on the serving thread would stall every
 * request, health included. The worker's typed arrays are transferred, not copied.
 */
import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { startThread } from './start-thread.ts';
import { parseDatabaseUrl } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import { markPhase } from '../snapshot/load-phases.ts';
import type { LoadPhases } from '../snapshot/load-phases.ts';
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
  | {
      kind: 'snapshot';
      snapshot: Record<string, unknown>;
      derived: unknown;
      notes: string[];
      phases: LoadPhases;
      /** The loading thread's CPU per step, in milliseconds. */
      cpuMs: Record<string, number>;
    }
  | { kind: 'note'; note: string };

/** What tells a waiting loading thread to load, with the receivers' ports (snapshot-handoff.ts). */
export interface LoaderGo {
  kind: 'go';
  ports: MessagePort[];
}

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

/** A loading thread started and waiting: `load` has it build (or read) one snapshot. */
interface LoadingThread {
  load(): Promise<Snapshot>;
  /** Ends it unused. */
  close(): void;
}

/**
 * Starts a loading thread that imports its modules and starts its helpers now, then waits to be
 * told to load: a fresh thread's start-up took a second or two of every reload on a
 * busy machine (docs/operations.md#watching-a-folder), which one started ahead of time skips.
 * An idle one keeps no process alive.
 */
function startLoadingThread(databaseUrl: string, options: WorkerLoadOptions): LoadingThread {
  const { derivation, receivers, file = null, onNote } = options;
  const threads = options.threads ?? availableParallelism();
  const worker = startThread(new URL('./load-snapshot-thread.ts', import.meta.url), {
    workerData: { databaseUrl, deriveModule: derivation?.module ?? null, file, threads },
    resourceLimits: { maxYoungGenerationSizeMb: LOADER_YOUNG_GENERATION_MB },
  });
  worker.unref();
  let done = false;
  let failed: ((error: Error) => void) | null = null;
  worker.once('error', (error) => {
    done = true;
    failed?.(error);
  });
  worker.once('exit', (code) => {
    if (!done) failed?.(new Error(`the snapshot worker exited with code ${code} before answering`));
  });
  const load = () => {
    const started = markPhase({}, 'loadStarted');
    return new Promise<Snapshot>((resolve, reject) => {
      failed = reject;
      if (done) {
        reject(new Error('the snapshot worker ended before it was asked to load'));
        return;
      }
      const handoff = receivers?.handoff();
      const ports = handoff?.ports ?? [];
      worker.ref();
      const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      loaders.add(ended);
      void ended.then(() => loaders.delete(ended));
      // The snapshot comes a part at a time (load-snapshot-thread.ts): each is acknowledged after this
      // thread has taken it, and the next arrives after whatever was waiting here has run.
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
        const { derived, notes } = message;
        const phases = markPhase({ ...started, ...message.phases }, 'received');
        const snapshot = {
          ...message.snapshot,
          ...parts,
          loadPhases: phases,
          loadCpuMs: message.cpuMs,
        } as unknown as Snapshot;
        done = true;
        for (const note of notes) onNote?.(note);
        try {
          derivation?.adopt(snapshot, derived);
          markPhase(phases, 'adopted');
          handoff?.received(snapshot);
          resolve(snapshot);
        } catch (error) {
          reject(error as Error);
        }
      });
      try {
        worker.postMessage({ kind: 'go', ports: [...ports] } satisfies LoaderGo, [...ports]);
      } catch (error) {
        // Not handed over: closing them tells the receivers no snapshot will come.
        for (const port of ports) port.close();
        throw error;
      }
    });
  };
  return { load, close: () => void worker.terminate() };
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
  return startLoadingThread(databaseUrl, options).load();
}

/** Loads snapshots, each on a loading thread started before it was asked for. */
export interface SpareLoader {
  load(): Promise<Snapshot>;
  /** Ends the thread waiting, if any; a later `load` starts another. */
  close(): void;
}

/**
 * A loader that keeps one loading thread started ahead: each load takes it and starts the next
 * once done (not before, so that its start-up does not compete with the load for the cores).
 */
export function spareLoader(databaseUrl: string, options: WorkerLoadOptions = {}): SpareLoader {
  let spare: LoadingThread | null = startLoadingThread(databaseUrl, options);
  let closed = false;
  return {
    load: async () => {
      const thread = spare ?? startLoadingThread(databaseUrl, options);
      spare = null;
      try {
        return await thread.load();
      } finally {
        if (!closed) spare = startLoadingThread(databaseUrl, options);
      }
    },
    close: () => {
      closed = true;
      spare?.close();
      spare = null;
    },
  };
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
