/**
 * Serialised answers kept in a byte-bounded LRU (docs/operations.md#response-cache), keyed by
 * route, normalised request and data version. Identical concurrent requests share one
 * computation, and the whole cache is emptied when the snapshot's data version moves, so an
 * answer is never older than the snapshot that would compute it. An answer is kept in each
 * content coding asked for (docs/http-api.md#compression) beside its plain bytes, so a cached
 * answer is compressed once, not on every hit.
 */
import { LRUCache } from 'lru-cache';
import { COMPRESS_THRESHOLD_BYTES, encodeBody } from './plugins/compression.ts';
import type { Encoding } from './plugins/compression.ts';

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

/**
 * A cached answer: its bytes, encoded once (so a hit costs no JSON, UTF-8 or compression work),
 * and their content coding (null: none).
 */
export interface CachedBody {
  readonly bytes: Buffer;
  readonly encoding: Encoding | null;
}

function plain(text: string): CachedBody {
  return { bytes: Buffer.from(text), encoding: null };
}

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
            sizeCalculation: (value) => Math.max(1, value.bytes.length),
            fetchMethod: async (_key, _stale, { context }) => plain(await context.compute()),
          });
  }

  /**
   * The serialised answer for `route` + `request` from `snapshot`, in `encoding` when it is
   * large enough to gain from it, computed by `compute` on a miss (concurrent misses on one key
   * share the computation) and compressed once per coding. A different snapshot (a reload)
   * empties the cache first. A hit is answered synchronously: no promise per cached request.
   */
  get(
    route: string,
    request: unknown,
    snapshot: { readonly dataVersion: number },
    compute: () => string | Promise<string>,
    encoding: Encoding | null = null,
  ): CachedBody | Promise<CachedBody> {
    const lru = this.lru;
    if (lru === null) {
      const text = compute();
      return typeof text === 'string' ? plain(text) : text.then(plain);
    }
    const { dataVersion } = snapshot;
    if (this.source !== snapshot || this.version !== dataVersion) {
      lru.clear();
      this.source = snapshot;
      this.version = dataVersion;
    }
    const key = `${route}\u0000${dataVersion}\u0000${canonicalJson(request)}`;
    const hit = lru.get(encoding === null ? key : `${key}\u0000${encoding}`);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    const found = lru.get(key);
    if (found !== undefined) {
      // The answer is here, only not yet in this coding: a hit all the same.
      this.hits++;
      return this.encoded(lru, key, found, encoding);
    }
    this.misses++;
    // An answer larger than the whole cache is not kept; it is still the answer.
    return lru
      .fetch(key, { context: { compute } })
      .then(async (value) => this.encoded(lru, key, value ?? plain(await compute()), encoding));
  }

  /** `body` in `encoding`, kept beside it; the plain body when small or no coding is asked. */
  private encoded(
    lru: LRUCache<string, CachedBody, Context>,
    key: string,
    body: CachedBody,
    encoding: Encoding | null,
  ): CachedBody {
    if (encoding === null || body.bytes.length < COMPRESS_THRESHOLD_BYTES) return body;
    const variant: CachedBody = { bytes: encodeBody(body.bytes, encoding), encoding };
    lru.set(`${key}\u0000${encoding}`, variant);
    return variant;
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
