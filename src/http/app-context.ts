import type { Config } from '../config/config.ts';
import type { SnapshotStatusProvider } from '../snapshot/snapshot-status.ts';
import type { Store } from '../store/store.ts';

/** What the HTTP layer is built from: configuration, the store and the snapshot holder. */
export interface AppContext {
  readonly config: Config;
  readonly store: Store;
  readonly snapshots?: SnapshotStatusProvider;
}
