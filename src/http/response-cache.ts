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

/** Computes an answer; `signal` aborts once no request waits for it (request-signal.ts). */
export type Compute = (signal: AbortSignal | undefined) => string | Promise<string>;

/** One computation in flight, shared by every request that asked for its key meanwhile. */
interface Flight {
  readonly promise: Promise<CachedBody>;
  readonly controller: AbortController;
  waiters: number;
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
  private readonly lru: LRUCache<string, CachedBody> | null;
  private readonly flights = new Map<string, Flight>();
  private version: number | null = null;
  private source: object | null = null;
  private hits = 0;
  private misses = 0;

  constructor(readonly maxBytes: number) {
    this.lru =
      maxBytes <= 0
        ? null
        : new LRUCache<string, CachedBody>({
            maxSize: maxBytes,
            sizeCalculation: (value) => Math.max(1, value.bytes.length),
          });
  }

  /**
   * The serialised answer for `route` + `request` from `snapshot`, in `encoding` when it is
   * large enough to gain from it, computed by `compute` on a miss (concurrent misses on one key
   * share the computation) and compressed once per coding. A different snapshot (a reload)
   * empties the cache first. A hit is answered synchronously: no promise per cached request.
   * `waiter` is the request's signal: when it aborts, the request stops waiting, and a
   * computation that no request waits for any more is aborted (docs/operations.md#limits).
   */
  get(
    route: string,
    request: unknown,
    snapshot: { readonly dataVersion: number },
    compute: Compute,
    encoding: Encoding | null = null,
    waiter?: () => AbortSignal,
  ): CachedBody | Promise<CachedBody> {
    const lru = this.lru;
    if (lru === null) {
      const text = compute(waiter?.());
      return typeof text === 'string' ? plain(text) : text.then(plain);
    }
    const { dataVersion } = snapshot;
    if (this.source !== snapshot || this.version !== dataVersion) {
      lru.clear();
      // Computations of the old data still answer their waiters, but are no longer joined.
      this.flights.clear();
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
    const flight = this.flights.get(key) ?? this.fly(lru, key, compute);
    flight.waiters++;
    return this.await(flight, waiter?.()).then((value) => this.encoded(lru, key, value, encoding));
  }

  /** Starts the computation of `key`; its answer is kept when it fits (one larger than the whole cache is not). */
  private fly(lru: LRUCache<string, CachedBody>, key: string, compute: Compute): Flight {
    const controller = new AbortController();
    const promise = Promise.resolve()
      .then(() => compute(controller.signal))
      .then((text) => {
        const body = plain(text);
        // A reload may have emptied the cache meanwhile: an answer of the old data is not kept.
        if (this.flights.get(key) === flight) lru.set(key, body);
        return body;
      })
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    // Its waiters see its failure; a computation nobody waits for fails unheard.
    promise.catch(() => undefined);
    const flight: Flight = { promise, controller, waiters: 0 };
    this.flights.set(key, flight);
    return flight;
  }

  /** `flight`'s answer for one waiter, who leaves when `signal` aborts; the last to leave aborts it. */
  private await(flight: Flight, signal: AbortSignal | undefined): Promise<CachedBody> {
    if (signal === undefined) return flight.promise;
    return new Promise((resolve, reject) => {
      const leave = () => {
        flight.waiters--;
        if (flight.waiters === 0) {
          // Nobody waits for this answer any more: it is not computed for the cache alone.
          for (const [key, f] of this.flights) if (f === flight) this.flights.delete(key);
          flight.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  }

  /** `body` in `encoding`, kept beside it; the plain body when small or no coding is asked. */
  private encoded(
    lru: LRUCache<string, CachedBody>,
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
