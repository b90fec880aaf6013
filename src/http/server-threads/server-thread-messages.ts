/** The messages between the main thread and a server thread (server-threads.ts). */
import type { Config } from '../../config/config.ts';
import type { SnapshotCacheData } from '../../engine/snapshot-cache.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { SnapshotStatus } from '../../snapshot/snapshot-status.ts';
import type { MetricsData } from '../metrics.ts';

/** What a server thread is started with. */
export interface ServerThreadData {
  readonly config: Config;
  /** Its place among the threads, from 0: how health and the metrics name it. */
  readonly index: number;
  /** How many server threads there are. */
  readonly threads: number;
  /** The shared memory behind what is kept for the whole service (shared-limits.ts). */
  readonly limits: SharedArrayBuffer;
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
