/** A bounded least-recently-used map for the per-snapshot caches of the ratings. */

/** Map keeps insertion order, so re-inserting marks an entry as fresh. */
export class Lru<V> {
  private readonly map = new Map<string, V>();

  private readonly capacity: number;
  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

/** The value cached under `key`, computed by `make` on a miss. */
export function cached<V>(lru: Lru<V>, key: string, make: () => V): V {
  let value = lru.get(key);
  if (value === undefined) {
    value = make();
    lru.set(key, value);
  }
  return value;
}
