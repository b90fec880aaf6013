/**
 * Serialised answers kept in a byte-bounded LRU (docs/operations.md#response-cache), keyed by
 * route, normalised request and data version. Identical concurrent requests share one
 * computation, and the whole cache is emptied when the snapshot's data version moves, so an
 * answer is never older than the snapshot that would compute it.
 */
import { LRUCache } from 'lru-cache';

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  maxBytes: number;
  dataVersion: number | null;
}

/** Canonical JSON: object keys sorted, so key order in a request body does not split entries. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

interface Context {
  compute: () => string | Promise<string>;
}

/** A cached answer: its bytes, encoded once, so a hit costs no JSON or UTF-8 work. */
export type CachedBody = Buffer;

export class ResponseCache {
  private readonly lru: LRUCache<string, CachedBody, Context> | null;
  private version: number | null = null;
  private source: object | null = null;
  private hits = 0;
  private misses = 0;

  constructor(readonly maxBytes: number) {
    this.lru =
      maxBytes <= 0
        ? null
        : new LRUCache<string, CachedBody, Context>({
            maxSize: maxBytes,
            sizeCalculation: (value) => Math.max(1, value.length),
            fetchMethod: async (_key, _stale, { context }) => Buffer.from(await context.compute()),
          });
  }

  /**
   * The serialised answer for `route` + `request` from `snapshot`, computed by `compute` on a
   * miss (concurrent misses on one key share the computation). A different snapshot (a reload)
   * empties the cache first. A hit is answered synchronously: no promise per cached request.
   */
  get(
    route: string,
    request: unknown,
    snapshot: { readonly dataVersion: number },
    compute: () => string | Promise<string>,
  ): string | CachedBody | Promise<string | CachedBody> {
    const lru = this.lru;
    if (lru === null) return compute();
    const { dataVersion } = snapshot;
    if (this.source !== snapshot || this.version !== dataVersion) {
      lru.clear();
      this.source = snapshot;
      this.version = dataVersion;
    }
    const key = `${route}\u0000${dataVersion}\u0000${canonicalJson(request)}`;
    const hit = lru.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    // An answer larger than the whole cache is not kept; it is still the answer.
    return lru.fetch(key, { context: { compute } }).then((value) => value ?? compute());
  }

  /** Hit, miss and size figures for health. */
  stats(): ResponseCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.lru?.size ?? 0,
      bytes: this.lru?.calculatedSize ?? 0,
      maxBytes: this.maxBytes,
      dataVersion: this.version,
    };
  }
}
