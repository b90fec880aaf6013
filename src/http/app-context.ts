import type { Config } from '../config/config.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotStatusProvider } from '../snapshot/snapshot-status.ts';
import type { Store } from '../store/store.ts';
import type { EngineRunner } from './engine-runner.ts';
import type { ServiceMetrics, ThreadEntry } from './metrics.ts';
import type { ResponseCache } from './response-cache.ts';
import type { ConnectionCounts } from './connection-guard.ts';
import type { RateCounts } from './plugins/rate-limit.ts';

/** Serves the current snapshot (SnapshotManager does) and reports on it for health. */
export interface SnapshotSource extends SnapshotStatusProvider {
  /** The snapshot to answer with; null until the first load finished. */
  current(): Snapshot | null;
  /**
   * Calls `listener` after each snapshot swap with the snapshot now served (GET /api/live);
   * returns the function that stops calling it.
   */
  onSwap?(listener: (snapshot: Snapshot) => void): () => void;
}

/** What the HTTP layer is built from: configuration, the store and the snapshot holder. */
export interface AppContext {
  readonly config: Config;
  readonly store: Store;
  readonly snapshots?: SnapshotSource;
  /** Serialised answers by route, request and data version; buildApp makes one from config. */
  readonly responseCache?: ResponseCache;
  /**
   * Where the statistics routes' engine calls run (src/threads makes it: a pool of engine
   * threads, or a server thread's engine); the HTTP edge never asks which thread computes.
   */
  readonly engineThread: EngineRunner;
  /** The service's Prometheus metrics, when served (docs/operations.md#metrics). */
  readonly metrics?: ServiceMetrics;
  /** The rate limit's counts shared by the server threads, when several serve (shared-limits.ts). */
  readonly rateCounts?: RateCounts;
  /** The open connections of every server thread, when several serve (connection-guard.ts). */
  readonly connectionCounts?: ConnectionCounts;
  /** Every server thread's state and answers, when several serve (health lists them). */
  readonly roster?: { list(): ThreadEntry[] };
  /** The rate limit's Redis when MUSTER_REDIS_URL is set (health pings it); buildApp adds it. */
  readonly redis?: { ping(): Promise<unknown> };
}
