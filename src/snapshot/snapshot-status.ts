/** What a loaded snapshot reports about itself in health (docs/http-api.md#health). */
export interface SnapshotStatus {
  dataVersion: number;
  games: number;
  sides: number;
  lists: number;
  /** ISO timestamp of when the snapshot finished loading. */
  loadedAt: string;
  loadMs: number;
  /** Approximate bytes held by the typed-array columns. */
  bytes: number;
}

/** Anything that can say which snapshot is being served right now. */
export interface SnapshotStatusProvider {
  status(): SnapshotStatus | null;
}
