/**
 * The worker-thread side of an off-loop reload (docs/architecture.md#snapshot-reloads): opens
 * its own connection to the store, builds the snapshot and whatever its user derives from it
 * (snapshot-derivation.ts), and posts both back with their typed arrays on shared memory, so the
 * serving thread only adopts them and swaps a reference in, and the engine threads read the
 * same bytes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { openStore } from '../store/store.ts';
import { loadSnapshot } from './load-snapshot.ts';
import { shareColumns } from './share-columns.ts';
import type { SnapshotDeriver } from './snapshot-derivation.ts';
import type { HandedSnapshot } from './snapshot-handoff.ts';
import { transferablesOf } from './transferables.ts';

interface SnapshotWorkerData {
  databaseUrl: string;
  /** URL of the module whose `derive` runs on the loaded snapshot, or null. */
  deriveModule: string | null;
  /** Threads to post the snapshot to directly (snapshot-handoff.ts). */
  ports: MessagePort[];
}

const { databaseUrl, deriveModule, ports } = workerData as SnapshotWorkerData;
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
// Each receiver gets its copy of the small parts from this thread, not from the serving one;
// the serving thread is answered last, so the receivers already hold what it is told of.
for (const port of ports) {
  port.postMessage(message satisfies HandedSnapshot);
  port.close();
}
parentPort?.postMessage(message, transferablesOf(message));
