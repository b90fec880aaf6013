/**
 * Several engine threads over one snapshot (docs/architecture.md#engine-thread): `muster serve`
 * answers HTTP on its main thread and runs the engine calls on this pool. The snapshot's columns
 * and its caches' data live once on shared memory, so each thread adds only its own small parts
 * (docs/operations.md#engine-threads). A task goes to the thread with the fewest waiting, except
 * that ratings computed for one parameter set stay with the thread that keeps them.
 */
import type {
  EngineTaskArgs,
  EngineTaskName,
  EngineTaskResult,
} from '../../engine/engine-tasks.ts';
import { taskAffinity } from '../../engine/engine-tasks.ts';
import { ProblemError } from '../../errors/problem.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { SnapshotHandoff } from '../../snapshot/snapshot-handoff.ts';
import { EngineThread } from './engine-thread.ts';
import type { EngineRunner } from './engine-thread.ts';

export interface EnginePoolOptions {
  /** Engine threads, at least one. */
  readonly threads: number;
  /** Tasks that may wait at once over the whole pool; one more is refused with 503 `busy`. */
  readonly maxQueued: number;
}

/** A string's FNV-1a hash, to spread affinity keys over the threads. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class EnginePool implements EngineRunner {
  private readonly threads: EngineThread[];
  /** Tasks sent to each thread since start, in thread order. */
  private readonly sent: number[];
  private next = 0;

  constructor(private readonly options: EnginePoolOptions) {
    const count = Math.max(1, options.threads);
    // The pool bounds the queue; each thread takes whatever the pool lets through.
    this.threads = Array.from(
      { length: count },
      () => new EngineThread({ maxQueued: Number.POSITIVE_INFINITY }),
    );
    this.sent = this.threads.map(() => 0);
  }

  /** How many engine threads the pool runs. */
  get size(): number {
    return this.threads.length;
  }

  run<K extends EngineTaskName>(
    task: K,
    snapshot: Snapshot,
    ...args: EngineTaskArgs<K>
  ): Promise<EngineTaskResult<K>> {
    const queued = this.queued();
    if (queued >= this.options.maxQueued) {
      return Promise.reject(
        new ProblemError(
          'busy',
          `${queued} computations are waiting already; retry in a few seconds`,
          { headers: { 'retry-after': '2' } },
        ),
      );
    }
    const index = this.pick(task, args);
    this.sent[index]++;
    return this.threads[index].run(task, snapshot, ...args);
  }

  start(): Promise<void> {
    return Promise.all(this.threads.map((thread) => thread.start())).then(() => undefined);
  }

  /**
   * Every thread as a receiver of the next snapshot loaded: the loading thread posts it to each
   * (snapshot-handoff.ts), so this thread copies none of it (docs/architecture.md#engine-thread).
   */
  handoff(): SnapshotHandoff {
    const expected = this.threads.map((thread) => thread.expect());
    return {
      ports: expected.map((e) => e.port),
      received: (snapshot) => {
        for (const e of expected) e.received(snapshot);
      },
    };
  }

  /**
   * Resolves once every thread holds `snapshot` and has attached its caches: a reload swaps in
   * a snapshot that every thread already holds. A thread that was not handed it by the loading
   * thread is posted it here, one after another (each post copies the snapshot's small parts on
   * this thread).
   */
  async prepare(snapshot: Snapshot): Promise<void> {
    const attached: Promise<void>[] = [];
    for (const thread of this.threads) {
      attached.push(thread.prepare(snapshot));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(attached);
  }

  queued(): number {
    let total = 0;
    for (const thread of this.threads) total += thread.queued();
    return total;
  }

  /** Tasks sent to each thread since the pool was made, in thread order. */
  tasksPerThread(): number[] {
    return [...this.sent];
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  /** The index of the thread to run a task on. */
  private pick<K extends EngineTaskName>(task: K, args: EngineTaskArgs<K>): number {
    const count = this.threads.length;
    const affinity = taskAffinity(task, args);
    if (affinity !== null) return hashOf(affinity) % count;
    // The fewest waiting; among equals, the next in turn, so idle threads share the work.
    let best = this.next;
    for (let i = 1; i < count; i++) {
      const index = (this.next + i) % count;
      if (this.threads[index].queued() < this.threads[best].queued()) best = index;
    }
    this.next = (this.next + 1) % count;
    return best;
  }
}
