/**
 * Per-snapshot engine caches that one thread can build and another adopt
 * (docs/architecture.md#snapshot-reloads). A cache is declared in two halves: `build` does the
 * heavy work once per snapshot and returns plain data (typed arrays, numbers, strings, plain
 * objects and arrays: what the HTML structured clone algorithm carries between threads), and
 * `attach` turns that data into what requests use (closures over the snapshot's columns,
 * scratch space). `attach` runs on the serving thread, so it must stay cheap: linear in events
 * or keys at most, never in games.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';

export interface SnapshotCacheSpec<D, V> {
  /** Unique among the engine's caches: the key its data travels under. */
  readonly name: string;
  readonly build: (snapshot: Snapshot) => D;
  readonly attach: (snapshot: Snapshot, data: D) => V;
}

/** The built data of a snapshot's caches, by cache name, as one thread hands it to another. */
export type SnapshotCacheData = Readonly<Record<string, unknown>>;

const names = new Set<string>();
/** Per snapshot, the data built on this thread or adopted from another one, by cache name. */
const built = new WeakMap<Snapshot, Map<string, unknown>>();

function dataOf(snapshot: Snapshot): Map<string, unknown> {
  let data = built.get(snapshot);
  if (data === undefined) {
    data = new Map();
    built.set(snapshot, data);
  }
  return data;
}

/**
 * Declares a cache and returns its getter: the attached value for a snapshot, built on first
 * use unless its data was adopted (docs/architecture.md#per-event-sums).
 */
export function snapshotCache<D, V>(spec: SnapshotCacheSpec<D, V>): (snapshot: Snapshot) => V {
  if (names.has(spec.name)) throw new Error(`two snapshot caches are named "${spec.name}"`);
  names.add(spec.name);
  const values = new WeakMap<Snapshot, V>();
  return (snapshot) => {
    const hit = values.get(snapshot);
    if (hit !== undefined) return hit;
    const data = dataOf(snapshot);
    let own = data.get(spec.name) as D | undefined;
    if (own === undefined) {
      own = spec.build(snapshot);
      data.set(spec.name, own);
    }
    const value = spec.attach(snapshot, own);
    values.set(snapshot, value);
    return value;
  };
}

/** The data of every cache built for `snapshot` so far, ready to post to another thread. */
export function exportSnapshotCaches(snapshot: Snapshot): SnapshotCacheData {
  return Object.fromEntries(dataOf(snapshot));
}

/**
 * Takes the data another thread built for (its copy of) `snapshot`, so that this thread's
 * caches only attach to it. Names this thread does not declare are ignored.
 */
export function adoptSnapshotCaches(snapshot: Snapshot, caches: SnapshotCacheData): void {
  const data = dataOf(snapshot);
  for (const [name, value] of Object.entries(caches)) {
    if (names.has(name) && !data.has(name)) data.set(name, value);
  }
}

/** A cache whose built data is what requests use as it is (nothing to attach). */
export function snapshotData<D>(name: string, build: (snapshot: Snapshot) => D) {
  return snapshotCache<D, D>({ name, build, attach: (_snapshot, data) => data });
}
