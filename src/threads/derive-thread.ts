/**
 * A helper thread of the loading thread (derive-host.ts): imports the derivation's module
 * while the snapshot is still being read, then derives the one part it is posted and posts the
 * result back with its typed arrays on shared memory, so the loading thread gets them uncopied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from './background-priority.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotDeriver } from '../snapshot/snapshot-derivation.ts';
import { shareColumns } from './share-columns.ts';

interface DeriveWorkerData {
  deriveModule: string;
}

interface DeriveTask {
  snapshot: Snapshot;
  part: number;
  parts: number;
}

const { deriveModule } = workerData as DeriveWorkerData;
runInBackground();
const deriver = (await import(deriveModule)) as SnapshotDeriver;
parentPort!.once('message', ({ snapshot, part, parts }: DeriveTask) => {
  parentPort!.postMessage(shareColumns({ ...deriver.derive(snapshot, part, parts) }));
});
