/**
 * An engine thread's side (docs/architecture.md#engine-thread): keeps the snapshots it is sent
 * (with their caches' data) under their tokens (the last two sent, so a request that began on the previous one finishes
 * on it) and runs each task against its snapshot, one after another, posting back the result or
 * the failure as plain data. A snapshot may come from the loading thread on a port of its own
 * (snapshot-handoff.ts): tasks for it wait until it has come.
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { DomainError } from '../domain/domain-error.ts';
import { TaskCancelled, withCancellation } from '../engine/cancellation.ts';
import type { EngineResult } from '../engine/engine-result.ts';
import { ENGINE_TASKS } from '../engine/engine-tasks.ts';
import { adoptSnapshotCaches } from '../engine/snapshot-cache.ts';
import type { SnapshotCacheData } from '../engine/snapshot-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { HandedSnapshot } from './snapshot-handoff.ts';
import { AnswerSerialisers, answerBytes, transferListOf } from '../http/answer-bytes.ts';
import type { AnswerBytes, AnswerFormat } from '../http/answer-bytes.ts';
import { CANCEL_CELLS, KEPT_SNAPSHOTS } from './engine-thread-messages.ts';
import type { FailureMessage, FromEngineThread, ToEngineThread } from './engine-thread-messages.ts';

type TaskMessage = Extract<ToEngineThread, { type: 'task' }>;

const snapshots = new Map<number, Snapshot>();
/** Tokens announced with a port whose snapshot has not come yet, with the tasks waiting on it. */
const expected = new Map<number, TaskMessage[]>();
/** Where the serving thread marks a task cancelled (engine-host.ts); set before any task. */
let cancelCells: Int32Array<ArrayBufferLike> = new Int32Array(CANCEL_CELLS);
/** How each route's answers are written, as the serving thread sent them, by route. */
const formats = new Map<string, AnswerFormat>();
const serialisers = new AnswerSerialisers();

function failureOf(error: unknown): FailureMessage {
  if (error instanceof DomainError) {
    return { domain: true, kind: error.kind, message: error.message, fields: [...error.fields] };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { domain: false, message: e.message, stack: e.stack };
}

/** A task's message to the serving thread, with the buffers it transfers. */
type Outcome = [FromEngineThread, ArrayBuffer[]];

function run(message: TaskMessage): Outcome {
  const outcome = runTask(message);
  const answered = 'result' in outcome && message.answer !== undefined;
  return [outcome, answered ? transferListOf(outcome.result as AnswerBytes) : []];
}

function runTask(message: TaskMessage): FromEngineThread {
  const { id, seq } = message;
  const cancelled = () => Atomics.load(cancelCells, seq % CANCEL_CELLS) === seq;
  // Nobody waits for it any more: never started (docs/architecture.md#engine-thread).
  if (cancelled()) return { id, cancelled: true };
  const snapshot = snapshots.get(message.token);
  if (snapshot === undefined) return { id, missing: true };
  try {
    const task = ENGINE_TASKS[message.task] as (s: Snapshot, ...args: unknown[]) => unknown;
    const result = withCancellation(cancelled, () => task(snapshot, ...message.args));
    if (message.answer === undefined) return { id, result };
    // The answer's bytes are made here, not on the serving thread (answer-bytes.ts).
    const format = formats.get(message.answer.route);
    if (format === undefined) throw new Error(`no answer format for ${message.answer.route}`);
    const bytes = answerBytes(
      snapshot,
      result as EngineResult<unknown, unknown>,
      serialisers.of(format),
      message.answer.encodings,
      message.answer.plain !== false,
    );
    return { id, result: bytes };
  } catch (error) {
    if (error instanceof TaskCancelled) return { id, cancelled: true };
    return { id, failure: failureOf(error) };
  }
}

/** Posts a task's outcome; an answer's buffers are transferred, so the serving thread copies none. */
function post([message, transfer]: Outcome): void {
  parentPort!.postMessage(message, transfer);
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
  for (const task of waiting) post(run(task));
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
  else if (message.type === 'format') formats.set(message.format.route, message.format);
  else if (expected.has(message.token)) expected.get(message.token)!.push(message);
  else post(run(message));
});

// Loaded and listening: the serving thread's start() resolves.
parentPort!.postMessage({ ready: true } satisfies FromEngineThread);
