/** The messages between the main thread and a server thread (server-host.ts). */
import type { MessagePort } from 'node:worker_threads';
import type { Config } from '../config/config.ts';
import type { DomainErrorKind, FieldError } from '../domain/domain-error.ts';
import type { EngineTaskName } from '../engine/engine-tasks.ts';
import type { ProblemKind } from '../errors/problem.ts';
import type { SnapshotCacheData } from '../engine/snapshot-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotStatus } from '../snapshot/snapshot-status.ts';
import type { AnswerBytes, AnswerOrder } from '../http/answer-bytes.ts';
import type { MetricsData } from '../http/metrics.ts';

/** What a server thread is started with. */
export interface ServerThreadData {
  readonly config: Config;
  /** Its place among the threads, from 0: how health and the metrics name it. */
  readonly index: number;
  /** How many server threads there are. */
  readonly threads: number;
  /** The shared memory behind what is kept for the whole service (shared-limits.ts). */
  readonly limits: SharedArrayBuffer;
  /**
   * The response cache's one store for every thread (shared-response-cache.ts); null when the
   * cache is off.
   */
  readonly cache: SharedArrayBuffer | null;
  /** The main thread's engine pool's pressure, as it publishes it (shared-pressure.ts). */
  readonly pressure: SharedArrayBuffer;
  /** Its end of the channel to the main thread's engine pool (ToEnginePoolHost). */
  readonly pool: MessagePort;
}

/**
 * Main thread to a server thread: a snapshot to keep under a token, with the data of its engine
 * caches (on shared memory: every thread reads one copy); which kept snapshot to answer with;
 * to listen on a port (0: any, for the first thread; then the port it got, for the others); to
 * stop accepting and close within a grace; to send its metrics (for a scrape).
 */
export type ToServerThread =
  | { type: 'snapshot'; token: number; snapshot: Snapshot; caches: SnapshotCacheData }
  | { type: 'serve'; token: number; status: SnapshotStatus }
  | { type: 'listen'; port: number }
  | { type: 'close'; graceMs: number }
  | { type: 'metrics'; id: number };

/**
 * A server thread to the main thread: its app is built; it holds a snapshot; it listens (at the
 * address Fastify names); it could not listen; it has closed; its metrics, asked for by id.
 */
export type FromServerThread =
  | { type: 'built' }
  | { type: 'attached'; token: number }
  | { type: 'listening'; address: string; port: number }
  | { type: 'refused'; code: string; message: string }
  | { type: 'closed' }
  | { type: 'metrics'; id: number; data: MetricsData };

/**
 * A failure of a task run on the main thread's engine pool, as it crosses back: a problem of the
 * catalogue (429 `too-many-computations`, 503 `busy`, `timeout`: rendered the same as in the
 * one-serving-thread mode, headers included), an engine's DomainError, or any other error.
 */
export type PoolFailure =
  | {
      kind: 'problem';
      problem: ProblemKind;
      detail: string;
      headers: Record<string, string>;
      errors?: FieldError[];
    }
  | { kind: 'domain'; domain: DomainErrorKind; detail: string; fields: FieldError[] }
  | { kind: 'error'; detail: string; stack?: string };

/**
 * A server thread to the main thread's engine pool, on the port it was started with
 * (engine-pool-thread.ts, engine-pool-host.ts): a task that has a warm key, under an id, on the
 * snapshot kept under `token`, counted against `client`, its answer's bytes made as `order` says
 * (null: the engine's result itself); or that nobody waits for task `id` any more.
 */
export type ToEnginePoolHost =
  | {
      type: 'task';
      id: number;
      token: number;
      task: EngineTaskName;
      args: readonly unknown[];
      client: string | null;
      order: AnswerOrder | null;
    }
  | { type: 'cancel'; id: number };

/** The main thread's engine pool to a server thread: a task's answer bytes, result or failure. */
export type FromEnginePoolHost =
  | { type: 'answer'; id: number; bytes: AnswerBytes }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'failure'; id: number; failure: PoolFailure };
