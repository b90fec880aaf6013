/**
 * Loads a snapshot on a worker thread (docs/architecture.md#snapshot-reloads): reading and
 * building a million games takes seconds of CPU, which on the serving thread would stall every
 * request, health included. The worker's typed arrays are transferred, not copied.
 */
import { Worker } from 'node:worker_threads';
import { parseDatabaseUrl } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import type { Snapshot } from './snapshot.ts';
import type { SnapshotDerivation } from './snapshot-derivation.ts';

// The worker runs the TypeScript sources through tsx, as the bin does, whatever flags started
// us: a tiny ES module registers tsx, then imports the worker's TypeScript entry.
const WORKER_SOURCE = [
  `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};`,
  'register();',
  `await import(${JSON.stringify(new URL('./snapshot-worker.ts', import.meta.url).href)});`,
].join('\n');
const WORKER_URL = new URL(`data:text/javascript,${encodeURIComponent(WORKER_SOURCE)}`);

/** Whether another thread can open the same data (an in-memory SQLite database it cannot). */
export function canLoadInWorker(databaseUrl: string): boolean {
  const { dialect, target } = parseDatabaseUrl(databaseUrl);
  return dialect === 'postgres' || target !== ':memory:';
}

/**
 * Builds the snapshot of the store at `databaseUrl` on a worker thread, and there too what
 * `derivation` derives from it, which is adopted here before the snapshot is returned.
 */
export function loadSnapshotInWorker(
  databaseUrl: string,
  derivation?: SnapshotDerivation,
): Promise<Snapshot> {
  return new Promise<Snapshot>((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { databaseUrl, deriveModule: derivation?.module ?? null },
      execArgv: [],
    });
    let done = false;
    worker.once('message', ({ snapshot, derived }: { snapshot: Snapshot; derived: unknown }) => {
      done = true;
      try {
        derivation?.adopt(snapshot, derived);
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
 * it can reach the same data (with `derivation` done there too), else the given in-thread loader.
 */
export function snapshotLoaderFor(
  databaseUrl: string,
  inThread: (store: Store) => Promise<Snapshot>,
  derivation?: SnapshotDerivation,
): (store: Store) => Promise<Snapshot> {
  if (!canLoadInWorker(databaseUrl)) return inThread;
  return () => loadSnapshotInWorker(databaseUrl, derivation);
}
