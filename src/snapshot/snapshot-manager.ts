/**
 * Holds the snapshot being served: loads it at start, polls the store's data version and swaps
 * a freshly loaded snapshot in with one assignment, so a request that already holds the old
 * object finishes on it (docs/architecture.md#scaling-out).
 */
import type { Store } from '../store/store.ts';
import { markPhase } from './load-phases.ts';
import { loadSnapshot } from './load-snapshot.ts';
import type { Snapshot } from './snapshot.ts';
import type { SnapshotStatus, SnapshotStatusProvider } from './snapshot-status.ts';

export interface SnapshotManagerOptions {
  pollMs: number;
  /** Called when a reload fails; the previous snapshot keeps being served. */
  onError?: (error: unknown) => void;
  /** Called after each swap (for logs, metrics) with the time from the start of the load. */
  onLoad?: (status: SnapshotStatus, readyMs: number) => void;
  load?: (store: Store) => Promise<Snapshot>;
  /**
   * Runs on a freshly loaded snapshot before it is swapped in (e.g. building the engine's
   * per-snapshot caches), so requests keep the old snapshot until the new one is ready. May
   * resolve later, so long work can be split into steps that let requests in between.
   */
  prepare?: (snapshot: Snapshot) => unknown;
  /** Called on stop: ends what `load` keeps ready (a loading thread started ahead). */
  close?: () => void;
}

export class SnapshotManager implements SnapshotStatusProvider {
  private snapshot: Snapshot | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private readonly load: (store: Store) => Promise<Snapshot>;
  private readonly swapListeners = new Set<(snapshot: Snapshot) => void>();

  private readonly store: Store;
  private readonly options: SnapshotManagerOptions;
  constructor(store: Store, options: SnapshotManagerOptions) {
    this.store = store;
    this.options = options;
    this.load = options.load ?? loadSnapshot;
  }

  /** Loads the first snapshot and starts polling. */
  async start(): Promise<void> {
    await this.reload();
    this.schedule();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.options.close?.();
  }

  /** The snapshot to answer a request with; null until the first load finished. */
  current(): Snapshot | null {
    return this.snapshot;
  }

  /** Calls `listener` after each swap with the new snapshot; returns how to stop. */
  onSwap(listener: (snapshot: Snapshot) => void): () => void {
    this.swapListeners.add(listener);
    return () => this.swapListeners.delete(listener);
  }

  status(): SnapshotStatus | null {
    const s = this.snapshot;
    if (s === null) return null;
    return {
      dataVersion: s.dataVersion,
      games: s.games,
      sides: s.sides,
      lists: s.lists,
      loadedAt: s.loadedAt,
      loadMs: s.loadMs,
      bytes: s.bytes,
    };
  }

  /** Reloads now if the data version moved (or nothing is loaded); concurrent calls share one load. */
  async refresh(): Promise<boolean> {
    const version = await this.store.dataVersion();
    if (this.snapshot !== null && this.snapshot.dataVersion === version) return false;
    await this.reload();
    return true;
  }

  /** Unconditionally loads and swaps in a new snapshot. */
  async reload(): Promise<void> {
    if (this.reloading === null) {
      this.reloading = (async () => {
        try {
          const started = performance.now();
          const startedAt = Date.now();
          const next = await this.load(this.store);
          const phases = (next.loadPhases ??= {});
          phases.reloadStarted = startedAt;
          markPhase(phases, 'loaded');
          await this.options.prepare?.(next);
          this.snapshot = next;
          markPhase(phases, 'swapped');
          const status = this.status();
          if (status !== null) this.options.onLoad?.(status, performance.now() - started);
          for (const listener of this.swapListeners) listener(next);
        } finally {
          this.reloading = null;
        }
      })();
    }
    return this.reloading;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.refresh()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          if (this.timer !== null) this.schedule();
        });
    }, this.options.pollMs);
    this.timer.unref();
  }
}
