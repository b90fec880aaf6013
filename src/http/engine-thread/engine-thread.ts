/**
 * One engine thread (docs/architecture.md#engine-thread): the pool of engine-pool.ts with a
 * single thread, scheduled the same way, so that the serving thread keeps answering every other
 * request while the engine computes. `buildApp` makes one when it is given none; `muster serve`
 * runs a pool of several. The worker starts on first use.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { EnginePool } from './engine-pool.ts';

export type { EnginePressure, EngineRunner } from './engine-runner.ts';

export interface EngineThreadOptions {
  /** Cheap tasks that may wait at once; one more is refused with 503 `busy`. */
  readonly maxQueued: number;
  /** Expensive tasks that may wait at once (engine-pool.ts). */
  readonly maxExpensiveQueued?: number;
}

export class EngineThread extends EnginePool {
  constructor(options: EngineThreadOptions = { maxQueued: 64 }) {
    super({ threads: 1, ...options });
  }

  /**
   * Announces a snapshot the loading thread will post to the engine thread on the returned port
   * (snapshot-handoff.ts); once `received` names this thread's copy of it, tasks on it are sent
   * without the snapshot.
   */
  expect(): { port: MessagePort; received: (snapshot: Snapshot) => void } {
    return this.workers[0].expect();
  }
}
