/**
 * An engine thread's side (docs/architecture.md#engine-thread): keeps the snapshots it is sent
 * (with their caches' data) under their tokens (the last two sent, so a request that began on the previous one finishes
 * on it) and runs each task against its snapshot, one after another, posting back the result or
 * the failure as plain data.
 */
import { parentPort } from 'node:worker_threads';
import { DomainError } from '../../domain/domain-error.ts';
import { ENGINE_TASKS } from '../../engine/engine-tasks.ts';
import { adoptSnapshotCaches } from '../../engine/snapshot-cache.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { KEPT_SNAPSHOTS } from './engine-thread-messages.ts';
import type { FailureMessage, FromEngineThread, ToEngineThread } from './engine-thread-messages.ts';

const snapshots = new Map<number, Snapshot>();

function failureOf(error: unknown): FailureMessage {
  if (error instanceof DomainError) {
    return { domain: true, kind: error.kind, message: error.message, fields: [...error.fields] };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { domain: false, message: e.message, stack: e.stack };
}

function run(message: Extract<ToEngineThread, { type: 'task' }>): FromEngineThread {
  const snapshot = snapshots.get(message.token);
  if (snapshot === undefined) return { id: message.id, missing: true };
  try {
    const task = ENGINE_TASKS[message.task] as (s: Snapshot, ...args: unknown[]) => unknown;
    return { id: message.id, result: task(snapshot, ...message.args) };
  } catch (error) {
    return { id: message.id, failure: failureOf(error) };
  }
}

parentPort!.on('message', (message: ToEngineThread) => {
  if (message.type === 'snapshot') {
    snapshots.delete(message.token);
    snapshots.set(message.token, message.snapshot);
    // The caches' heavy data was built once, on the loading thread: this thread only attaches.
    adoptSnapshotCaches(message.snapshot, message.caches);
    for (const token of [...snapshots.keys()].slice(0, -KEPT_SNAPSHOTS)) snapshots.delete(token);
    return;
  }
  parentPort!.postMessage(run(message));
});

// Loaded and listening: the serving thread's start() resolves.
parentPort!.postMessage({ ready: true } satisfies FromEngineThread);
