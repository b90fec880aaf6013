/**
 * The worker-thread side of an off-loop reload (docs/architecture.md#snapshot-reloads): opens
 * its own connection to the store, builds the snapshot, and posts it back with its typed arrays
 * transferred, so the serving thread only swaps a reference in.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/store.ts';
import { loadSnapshot } from './load-snapshot.ts';
import { transferablesOf } from './transferables.ts';

interface SnapshotWorkerData {
  databaseUrl: string;
}

const { databaseUrl } = workerData as SnapshotWorkerData;
const store = await openStore(databaseUrl);
try {
  const snapshot = await loadSnapshot(store);
  parentPort?.postMessage(snapshot, transferablesOf(snapshot));
} finally {
  await store.close();
}
