/**
 * The worker-thread side of an off-loop reload (docs/architecture.md#snapshot-reloads): opens
 * its own connection to the store, builds the snapshot and whatever its user derives from it
 * (snapshot-derivation.ts), and posts both back with their typed arrays on shared memory, so the
 * serving thread only adopts them and swaps a reference in, and the engine threads read the
 * same bytes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/store.ts';
import { loadSnapshot } from './load-snapshot.ts';
import { shareColumns } from './share-columns.ts';
import type { SnapshotDeriver } from './snapshot-derivation.ts';
import { transferablesOf } from './transferables.ts';

interface SnapshotWorkerData {
  databaseUrl: string;
  /** URL of the module whose `derive` runs on the loaded snapshot, or null. */
  deriveModule: string | null;
}

const { databaseUrl, deriveModule } = workerData as SnapshotWorkerData;
const store = await openStore(databaseUrl);
let snapshot;
try {
  // Columns on shared memory: the serving thread and the engine thread read them without a copy.
  snapshot = shareColumns(await loadSnapshot(store));
} finally {
  await store.close();
}
const deriver = deriveModule === null ? null : ((await import(deriveModule)) as SnapshotDeriver);
// The derived data (the engine's caches) on shared memory too: every engine thread reads it.
const derived: unknown = deriver?.derive(snapshot);
const message = {
  snapshot,
  derived: typeof derived === 'object' && derived !== null ? shareColumns(derived) : derived,
};
parentPort?.postMessage(message, transferablesOf(message));
