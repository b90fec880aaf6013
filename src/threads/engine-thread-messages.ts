/** The messages between the serving thread and the engine thread (engine-thread.ts). */
import type { MessagePort } from 'node:worker_threads';
import { DomainError } from '../domain/domain-error.ts';
import type { DomainErrorKind, FieldError } from '../domain/domain-error.ts';
import type { EngineTaskName } from '../engine/engine-tasks.ts';
import type { SnapshotCacheData } from '../engine/snapshot-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { Encoding } from '../http/content-coding.ts';
import type { AnswerFormat } from '../http/answer-bytes.ts';

/**
 * Snapshots the engine thread keeps, newest posted last: a request that began on the previous
 * snapshot finishes on it. The serving thread tracks the same window to know what to resend.
 */
export const KEPT_SNAPSHOTS = 2;

/**
 * Cells of the shared array in which the serving thread marks a task cancelled, indexed by the
 * task's dispatch number modulo this; a worker holds at most two tasks, so two never share one.
 */
export const CANCEL_CELLS = 4;

/**
 * Serving thread to engine thread: a snapshot to keep under a token, with the data of the
 * engine caches built for it (on shared memory when built on the loading thread, so every
 * engine thread reads one copy); a port on which the loading thread will post the snapshot to
 * keep under a token (snapshot-handoff.ts), tasks for which wait until it has come; the shared
 * cells that mark a task cancelled (sent first); how a route's answers are written (sent once,
 * before its first answer); or a task, with its dispatch number and, for an answer, the route
 * whose format writes it and the content codings to make (answer-bytes.ts).
 */
export type ToEngineThread =
  | { type: 'snapshot'; token: number; snapshot: Snapshot; caches: SnapshotCacheData }
  | { type: 'receive'; token: number; port: MessagePort }
  | { type: 'cells'; cells: Int32Array }
  | { type: 'format'; format: AnswerFormat }
  | {
      type: 'task';
      id: number;
      seq: number;
      token: number;
      task: EngineTaskName;
      args: unknown[];
      answer?: { route: string; encodings: readonly Encoding[]; plain?: false };
    };

/** A refusal of the engine (DomainError) or any other failure, as plain data. */
export type FailureMessage =
  | { domain: true; kind: DomainErrorKind; message: string; fields: FieldError[] }
  | { domain: false; message: string; stack?: string };

/**
 * Engine thread to serving thread: that it has loaded, a task's result (for an answer, its
 * AnswerBytes, their buffers transferred), its failure, that its
 * snapshot is gone, or that it was dropped, cancelled before or while it ran.
 */
export type FromEngineThread =
  | { ready: true }
  | { id: number; result: unknown }
  | { id: number; failure: FailureMessage }
  | { id: number; missing: true }
  | { id: number; cancelled: true };

/** The error the pool rejects a task with for `failure`: a DomainError stays one. */
export function failureError(failure: FailureMessage): Error {
  if (failure.domain) return new DomainError(failure.kind, failure.message, failure.fields);
  const error = new Error(`engine thread: ${failure.message}`);
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}
