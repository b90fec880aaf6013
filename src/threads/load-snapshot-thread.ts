/**
 * The worker-thread side of an off-loop reload (docs/architecture.md#snapshot-reloads): opens
 * its own connection to the store, builds the snapshot and whatever its user derives from it
 * (snapshot-derivation.ts), and posts both back with their typed arrays on shared memory, so the
 * serving thread only adopts them and swaps a reference in, and the engine threads read the
 * same bytes. With a snapshot file (snapshot-file.ts) whose key matches the store, both are read
 * from it instead of built; after a build they are written to it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { runInBackground } from './background-priority.ts';
import { openStore, readMeta } from '../store/store.ts';
import type { Store } from '../store/store.ts';
import { deriveInParts, startDeriveHelpers } from './derive-host.ts';
import { loadSnapshot } from '../snapshot/load-snapshot.ts';
import { readPartInWorker } from './read-part-host.ts';
import { shareColumns } from './share-columns.ts';
import type { SnapshotDeriver } from '../snapshot/snapshot-derivation.ts';
import { markPhase } from '../snapshot/load-phases.ts';
import { readSnapshotFile, writeSnapshotFile } from '../snapshot/snapshot-file.ts';
import { snapshotFileKey } from '../snapshot/snapshot-file-key.ts';
import type { HandedSnapshot } from './snapshot-handoff.ts';
import type { LoaderGo, LoaderMessage } from './load-snapshot-host.ts';
import { transferablesOf } from './transferables.ts';

interface SnapshotWorkerData {
  databaseUrl: string;
  /** URL of the module whose `derive` runs on the loaded snapshot, or null. */
  deriveModule: string | null;
  /** The snapshot file to read first and write after a build, or null for none. */
  file: string | null;
  /** Threads the load may keep busy at once, this one included (load-snapshot-host.ts). */
  threads: number;
}

const { databaseUrl, deriveModule, file, threads } = workerData as SnapshotWorkerData;
runInBackground();
// Imported and started before the go, so a thread started ahead has them ready
// (load-snapshot-host.ts): the engine's modules are most of a thread's start-up.
const deriver = deriveModule === null ? null : ((await import(deriveModule)) as SnapshotDeriver);
const helpers = startDeriveHelpers(
  deriveModule ?? '',
  deriver === null ? 0 : Math.min(deriver.parts, threads) - 1,
);
/** The go, with the threads to post the snapshot to directly (snapshot-handoff.ts). */
const { ports } = await new Promise<LoaderGo>((resolve) =>
  parentPort?.once('message', (go: LoaderGo) => resolve(go)),
);
const phases = markPhase({}, 'goTaken');
/**
 * The CPU this thread spent on each step, in milliseconds: on a busy machine a step's wall
 * time is mostly waiting for a core, and this says what it cost.
 */
const cpuMs: Record<string, number> = {};
let cpuBefore = process.threadCpuUsage();
const spent = (step: string) => {
  const used = process.threadCpuUsage(cpuBefore);
  cpuMs[step] = Math.round((used.user + used.system) / 1000);
  cpuBefore = process.threadCpuUsage();
};

/** The snapshot and its derived data built from the store, with their typed arrays shared. */
async function build(store: Store): Promise<HandedSnapshot> {
  // Columns on shared memory: the serving thread and the engine thread read them without a copy.
  const snapshot = shareColumns(
    await loadSnapshot(store, {
      readers: { count: threads, read: (range) => readPartInWorker(databaseUrl, range) },
    }),
  );
  markPhase(phases, 'read');
  spent('read');
  // The derived data (the engine's caches) on shared memory too: every engine thread reads it.
  const derived = deriver === null ? null : await deriveInParts(snapshot, deriver, helpers);
  markPhase(phases, 'derived');
  spent('derived');
  return { snapshot, derived: derived === null ? null : shareColumns(derived) };
}

const store = await openStore(databaseUrl);
let message: HandedSnapshot;
const notes: string[] = [];
/** Where to write the snapshot once it is posted, when it was built rather than read. */
let toWrite: { file: string; key: string } | null = null;
try {
  const started = performance.now();
  const cache =
    file === null
      ? null
      : {
          file,
          key: snapshotFileKey({
            storeId: (await readMeta(store, 'store_id')) ?? 'none',
            dataVersion: await store.dataVersion(),
            deriveModule,
          }),
        };
  const read = cache === null ? null : readSnapshotFile(cache.file, cache.key);
  if (read !== null && 'value' in read) {
    message = read.value as HandedSnapshot;
    // The snapshot says when this process loaded it and how long that took, as a built one does.
    Object.assign(message.snapshot, {
      loadedAt: new Date().toISOString(),
      loadMs: performance.now() - started,
      restoredFrom: file,
    });
  } else {
    if (read !== null && !read.absent) notes.push(`snapshot file ${file} not used: ${read.unused}`);
    message = await build(store);
    toWrite = cache;
  }
} finally {
  await store.close();
}
// Each receiver gets its copy of the small parts from this thread, not from the serving one;
// the serving thread is answered last, so the receivers already hold what it is told of.
for (const port of ports) {
  port.postMessage(message satisfies HandedSnapshot);
  port.close();
}
/**
 * Posts the snapshot to the serving thread a part at a time, each once the serving thread has
 * taken the one before: the parts that are not on shared memory (the events' ids and names, the
 * calendar, the players) are copied, and taking them in one message would hold the serving
 * thread long enough to stall its answers at scale. Between parts it answers what is waiting.
 */
async function postInParts(port: MessagePort, handed: HandedSnapshot): Promise<void> {
  const rest: Record<string, unknown> = { ...handed.snapshot };
  for (const [key, value] of Object.entries(handed.snapshot)) {
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) continue;
    delete rest[key];
    const taken = new Promise((resolve) => port.once('message', resolve));
    port.postMessage({ kind: 'part', key, value } satisfies LoaderMessage);
    await taken;
  }
  // Memory that is not shared would be moved away by a transfer: kept here when the file is
  // still to be written from it (shareColumns leaves none, so nothing is copied either way).
  markPhase(phases, 'posted');
  spent('posted');
  const last = {
    kind: 'snapshot',
    snapshot: rest,
    derived: handed.derived,
    notes,
    phases,
    cpuMs,
  } as const;
  port.postMessage(last satisfies LoaderMessage, toWrite === null ? transferablesOf(last) : []);
}

if (parentPort !== null) await postInParts(parentPort, message);
// Written after the snapshot is served, not before: at ten million games the file takes
// seconds that a start or a reload need not wait for. The process waits for it on exit.
if (toWrite !== null) {
  try {
    writeSnapshotFile(toWrite.file, toWrite.key, message);
  } catch (error) {
    const note = `snapshot file ${toWrite.file} not written: ${(error as Error).message}`;
    parentPort?.postMessage({ kind: 'note', note } satisfies LoaderMessage);
  }
}
