/**
 * An engine thread's side (docs/architecture.md#engine-thread): keeps the snapshots it is sent
 * (with their caches' data) under their tokens (the last two sent, so a request that began on the previous one finishes
 * on it) and runs each task against its snapshot, one after another, posting back the result or
 * the failure as plain data. A snapshot may come from the loading thread on a port of its own
 * (snapshot-handoff.ts): tasks for it wait until it has come.
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { DomainError } from '../../domain/domain-error.ts';
import { TaskCancelled, withCancellation } from '../../engine/cancellation.ts';
import { ENGINE_TASKS } from '../../engine/engine-tasks.ts';
import { adoptSnapshotCaches } from '../../engine/snapshot-cache.ts';
import type { SnapshotCacheData } from '../../engine/snapshot-cache.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { HandedSnapshot } from '../../snapshot/snapshot-handoff.ts';
import { CANCEL_CELLS, KEPT_SNAPSHOTS } from './engine-thread-messages.ts';
import type { FailureMessage, FromEngineThread, ToEngineThread } from './engine-thread-messages.ts';

type TaskMessage = Extract<ToEngineThread, { type: 'task' }>;

const snapshots = new Map<number, Snapshot>();
/** Tokens announced with a port whose snapshot has not come yet, with the tasks waiting on it. */
const expected = new Map<number, TaskMessage[]>();
/** Where the serving thread marks a task cancelled (engine-worker.ts); set before any task. */
let cancelCells: Int32Array<ArrayBufferLike> = new Int32Array(CANCEL_CELLS);

function failureOf(error: unknown): FailureMessage {
  if (error instanceof DomainError) {
    return { domain: true, kind: error.kind, message: error.message, fields: [...error.fields] };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { domain: false, message: e.message, stack: e.stack };
}

function run(message: TaskMessage): FromEngineThread {
  const { id, seq } = message;
  const cancelled = () => Atomics.load(cancelCells, seq % CANCEL_CELLS) === seq;
  // Nobody waits for it any more: never started (docs/architecture.md#engine-thread).
  if (cancelled()) return { id, cancelled: true };
  const snapshot = snapshots.get(message.token);
  if (snapshot === undefined) return { id, missing: true };
  try {
    const task = ENGINE_TASKS[message.task] as (s: Snapshot, ...args: unknown[]) => unknown;
    return { id, result: withCancellation(cancelled, () => task(snapshot, ...message.args)) };
  } catch (error) {
    if (error instanceof TaskCancelled) return { id, cancelled: true };
    return { id, failure: failureOf(error) };
  }
}

function keep(token: number, snapshot: Snapshot, caches: SnapshotCacheData): void {
  snapshots.delete(token);
  snapshots.set(token, snapshot);
  // The caches' heavy data was built once, on the loading thread: this thread only attaches.
  adoptSnapshotCaches(snapshot, caches);
  for (const old of [...snapshots.keys()].slice(0, -KEPT_SNAPSHOTS)) snapshots.delete(old);
}

/** Runs the tasks that waited for `token`; without its snapshot they answer `missing`. */
function release(token: number): void {
  const waiting = expected.get(token);
  if (waiting === undefined) return;
  expected.delete(token);
  for (const task of waiting) parentPort!.postMessage(run(task));
}

function receive(token: number, port: MessagePort): void {
  expected.set(token, []);
  port.once('message', ({ snapshot, derived }: HandedSnapshot) => {
    keep(token, snapshot, (derived ?? {}) as SnapshotCacheData);
    port.close();
    release(token);
  });
  // The load failed (its thread ended without posting): the waiting tasks are sent again.
  port.once('close', () => release(token));
}

parentPort!.on('message', (message: ToEngineThread) => {
  if (message.type === 'cells') cancelCells = message.cells;
  else if (message.type === 'snapshot') keep(message.token, message.snapshot, message.caches);
  else if (message.type === 'receive') receive(message.token, message.port);
  else if (expected.has(message.token)) expected.get(message.token)!.push(message);
  else parentPort!.postMessage(run(message));
});

// Loaded and listening: the serving thread's start() resolves.
parentPort!.postMessage({ ready: true } satisfies FromEngineThread);
