/**
 * A helper thread of the loading thread (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * opens its own connection to the store, reads one key range of games into a builder of its
 * own and posts what it read (snapshot-part.ts) with the columns' memory transferred.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from './background-priority.ts';
import type { GameKeyRange } from '../store/read-facts.ts';
import { openStore } from '../store/store.ts';
import { addGameRange, gameBuilder } from '../snapshot/load-snapshot.ts';
import { transferablesOf } from './transferables.ts';

interface ReadPartWorkerData {
  databaseUrl: string;
  range: GameKeyRange;
}

const { databaseUrl, range } = workerData as ReadPartWorkerData;
runInBackground();
const store = await openStore(databaseUrl);
try {
  const builder = await gameBuilder(store);
  await addGameRange(store, builder, range);
  const part = builder.exportPart();
  parentPort!.postMessage(part, transferablesOf(part));
} finally {
  await store.close();
}
