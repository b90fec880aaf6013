/**
 * The snapshots a server thread holds (docs/architecture.md#threads): each is posted to it once
 * under a token, with its engine caches' data on shared memory, and answered with only once the
 * main thread says every thread holds it, so all threads move to a new snapshot together. The
 * last two are kept, so a request that began on the previous one finishes on it.
 */
import { adoptSnapshotCaches } from '../engine/snapshot-cache.ts';
import type { SnapshotCacheData } from '../engine/snapshot-cache.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { SnapshotStatus } from '../snapshot/snapshot-status.ts';
import type { SnapshotSource } from '../http/app-context.ts';
import { KEPT_SNAPSHOTS } from './engine-thread-messages.ts';

export class ThreadSnapshots implements SnapshotSource {
  private readonly kept = new Map<number, Snapshot>();
  private serving: { snapshot: Snapshot; status: SnapshotStatus } | null = null;
  private readonly swapListeners = new Set<(snapshot: Snapshot) => void>();

  /** Keeps `snapshot` under `token`, its caches attached from the data built once for all. */
  keep(token: number, snapshot: Snapshot, caches: SnapshotCacheData): void {
    adoptSnapshotCaches(snapshot, caches);
    this.kept.set(token, snapshot);
  }

  /** Answers with the snapshot kept under `token` from now on. */
  serve(token: number, status: SnapshotStatus): void {
    const snapshot = this.kept.get(token);
    if (snapshot === undefined) throw new Error(`no snapshot kept under token ${token}`);
    this.serving = { snapshot, status };
    for (const old of [...this.kept.keys()].slice(0, -KEPT_SNAPSHOTS)) this.kept.delete(old);
    // Each thread tells its own live subscribers (src/http/live/live-hub.ts).
    for (const listener of this.swapListeners) listener(snapshot);
  }

  /** Calls `listener` after each swap with the snapshot now served; returns how to stop. */
  onSwap(listener: (snapshot: Snapshot) => void): () => void {
    this.swapListeners.add(listener);
    return () => this.swapListeners.delete(listener);
  }

  /** The token `snapshot` was kept under: how the main thread's engine pool names it. */
  tokenOf(snapshot: Snapshot): number {
    for (const [token, kept] of this.kept) if (kept === snapshot) return token;
    throw new Error('the snapshot of the request is no longer kept on this thread');
  }

  current(): Snapshot | null {
    return this.serving?.snapshot ?? null;
  }

  status(): SnapshotStatus | null {
    return this.serving?.status ?? null;
  }
}
