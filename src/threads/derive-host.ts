/**
 * Runs a snapshot's derivation (snapshot-derivation.ts) on several threads at once: the loading
 * thread derives one part and a helper thread each of the others, every thread reading the same
 * columns on shared memory. The engine's caches are most of the time a start or a reload waits
 * for before it can serve at scale, and they divide well over threads
 * (docs/operations.md#scale-model).
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from './start-thread.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { DerivedPart, SnapshotDeriver } from '../snapshot/snapshot-derivation.ts';

/** Helper threads started ahead of the snapshot, so their start-up overlaps its load. */
export interface DeriveHelpers {
  readonly workers: readonly Worker[];
}

/**
 * Starts `count` helper threads that import `deriveModule` now and wait for their part. They
 * cost a thread's start-up each (a few tenths of a second of CPU) and nothing more until used.
 */
export function startDeriveHelpers(deriveModule: string, count: number): DeriveHelpers {
  const workers: Worker[] = [];
  for (let i = 0; i < count; i++) {
    try {
      workers.push(
        startThread(new URL('./derive-thread.ts', import.meta.url), {
          workerData: { deriveModule },
        }),
      );
    } catch {
      break; // fewer helpers: their parts run on the loading thread instead
    }
  }
  // An idle helper must not keep the loading thread's process alive if it is never used.
  for (const worker of workers) worker.unref();
  return { workers };
}

/** Part `part` derived on `worker`, or null when the helper failed (the caller derives it). */
function deriveOn(
  worker: Worker,
  snapshot: Snapshot,
  part: number,
  parts: number,
): Promise<DerivedPart | null> {
  return new Promise((resolve) => {
    worker.ref();
    worker.once('message', (derived: DerivedPart) => resolve(derived));
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
    worker.postMessage({ snapshot, part, parts });
  });
}

/**
 * Derives every part of `deriver` for `snapshot`: as many parts as there are threads (this one
 * and the helpers, within the deriver's `parts`), merged by key. A helper that fails has its
 * part derived here, so the result is the same whatever the threads did. The helpers end.
 */
export async function deriveInParts(
  snapshot: Snapshot,
  deriver: SnapshotDeriver,
  helpers: DeriveHelpers,
): Promise<DerivedPart> {
  const parts = Math.max(1, Math.min(deriver.parts, helpers.workers.length + 1));
  const used = helpers.workers.slice(0, parts - 1);
  for (const idle of helpers.workers.slice(parts - 1)) void idle.terminate();
  try {
    const elsewhere = used.map((worker, i) => deriveOn(worker, snapshot, i + 1, parts));
    const own = deriver.derive(snapshot, 0, parts);
    const others = await Promise.all(elsewhere);
    const merged: Record<string, unknown> = { ...own };
    others.forEach((derived, i) => {
      Object.assign(merged, derived ?? deriver.derive(snapshot, i + 1, parts));
    });
    return merged;
  } finally {
    for (const worker of used) void worker.terminate();
  }
}
