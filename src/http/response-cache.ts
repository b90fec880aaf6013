/**
 * Serialised answers kept in a byte-bounded LRU (docs/operations.md#response-cache), keyed by
 * route, normalised request and data version. Identical concurrent requests share one
 * computation, and the whole cache is emptied when the snapshot's data version moves, so an
 * answer is never older than the snapshot that would compute it. An answer is kept in each
 * content coding asked for (docs/http-api.md#compression) beside its plain bytes, so a cached
 * answer is compressed once, not on every hit. The bytes come made: an engine thread serialises
 * and compresses an answer in the coding its first request asked for
 * (docs/architecture.md#engine-thread); a coding asked for later is compressed on libuv's thread
 * pool, so the serving thread never runs zlib itself. The bodies are kept in this thread's LRU,
 * or, when several server threads serve, in one store on shared memory for all of them
 * (src/threads/shared-response-cache.ts).
 */
import { LRUCache } from 'lru-cache';
import { COMPRESS_THRESHOLD_BYTES, encodeBodyOffThread } from './content-coding.ts';
import type { Encoding } from './content-coding.ts';
import type { AnswerBytes } from './answer-bytes.ts';

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  maxBytes: number;
  dataVersion: number | null;
}

/** What a store of bodies reports for health: the outcomes it counted, what it holds. */
export interface BodyStoreStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  dataVersion: number | null;
}

/**
 * Where a ResponseCache keeps its bodies (docs/operations.md#response-cache): this thread's LRU
 * (LocalBodies), or shared memory for every server thread (shared-response-cache.ts).
 */
export interface BodyStore {
  /**
   * Keeps bodies of `snapshot` from now on, forgetting those of the one before; returns what
   * every key of its bodies begins with, so no body of other data answers for it.
   */
  turn(snapshot: { readonly dataVersion: number }): string;
  get(key: string): CachedBody | undefined;
  set(key: string, body: CachedBody): void;
  /** Counts a request answered from the cache (hit) or computed (miss). */
  count(hit: boolean): void;
  stats(): BodyStoreStats;
}

/** A store of bodies for this thread alone: a byte-bounded LRU, emptied at each new snapshot. */
class LocalBodies implements BodyStore {
  private readonly lru: LRUCache<string, CachedBody>;
  private readonly outcomes = { hits: 0, misses: 0 };
  private version: number | null = null;

  constructor(maxBytes: number, maxEntryBytes: number) {
    this.lru = new LRUCache<string, CachedBody>({
      maxSize: maxBytes,
      maxEntrySize: maxEntryBytes,
      sizeCalculation: (value) => Math.max(1, value.bytes.length),
    });
  }

  turn(snapshot: { readonly dataVersion: number }): string {
    this.lru.clear();
    this.version = snapshot.dataVersion;
    return String(snapshot.dataVersion);
  }

  get(key: string): CachedBody | undefined {
    return this.lru.get(key);
  }

  set(key: string, body: CachedBody): void {
    this.lru.set(key, body);
  }

  count(hit: boolean): void {
    this.outcomes[hit ? 'hits' : 'misses']++;
  }

  stats(): BodyStoreStats {
    const { size: entries, calculatedSize: bytes } = this.lru;
    return { ...this.outcomes, entries, bytes, dataVersion: this.version };
  }
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

/** An answer as computed: its bytes as made (answer-bytes.ts), or its text (then plain only). */
export type Answer = string | AnswerBytes;

/**
 * Computes an answer, in `encoding` too when it is not null; `signal` aborts once no request
 * waits for it (request-signal.ts). `kept` false: the answer is sent once and not kept, so its
 * plain bytes are not needed where it is made in `encoding` (AnswerOrder.plain).
 */
export type Compute = (
  signal: AbortSignal | undefined,
  encoding: Encoding | null,
  kept: boolean,
) => Answer | Promise<Answer>;

/** One computation in flight, shared by every request that asked for its key meanwhile. */
interface Flight {
  readonly key: string;
  readonly promise: Promise<Made>;
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

/** An answer's plain body (null when not made: answerBytes) and those of its codings made. */
interface Made {
  readonly plain: CachedBody | null;
  readonly encoded: readonly CachedBody[];
}

/** A Buffer over `bytes`' memory: a transferred buffer is used where it lies, not copied. */
const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function madeOf(answer: Answer): Made {
  if (typeof answer === 'string') {
    return { plain: { bytes: Buffer.from(answer), encoding: null }, encoded: [] };
  }
  return {
    plain: answer.plain === null ? null : { bytes: view(answer.plain), encoding: null },
    encoded: answer.encoded.map((e) => ({ bytes: view(e.bytes), encoding: e.encoding })),
  };
}

/** The body of `made` to send in `encoding`: plain when small or no coding is asked. */
function pick(made: Made, encoding: Encoding | null): CachedBody | undefined {
  const { plain } = made;
  if (plain !== null && (encoding === null || plain.bytes.length < COMPRESS_THRESHOLD_BYTES))
    return plain;
  return made.encoded.find((e) => e.encoding === encoding);
}

/** `made`'s plain body, which an answer made to be kept always has. */
function plainOf(made: Made): CachedBody {
  if (made.plain === null) throw new Error('an answer without its plain bytes');
  return made.plain;
}

/**
 * The body to send for `compute`'s answer without a cache (docs/operations.md#response-cache):
 * in `encoding` as made, compressed off the serving thread if it was not.
 */
export function uncachedBody(
  compute: Compute,
  encoding: Encoding | null,
  signal: AbortSignal | undefined,
): CachedBody | Promise<CachedBody> {
  const bodyOf = (answer: Answer): CachedBody | Promise<CachedBody> => {
    const made = madeOf(answer);
    return pick(made, encoding) ?? encodeOffThread(plainOf(made), encoding!);
  };
  const answer = compute(signal, encoding, false);
  return answer instanceof Promise ? answer.then(bodyOf) : bodyOf(answer);
}

async function encodeOffThread(body: CachedBody, encoding: Encoding): Promise<CachedBody> {
  return { bytes: await encodeBodyOffThread(body.bytes, encoding), encoding };
}

/**
 * The share of the cache one body may take: a larger one is sent but never kept, so one large
 * answer (a CSV page) cannot evict most of the others (docs/operations.md#response-cache).
 */
export const MAX_ENTRY_SHARE = 1 / 16;

export class ResponseCache {
  private readonly store: BodyStore | null;
  /** The largest body kept, in bytes (MAX_ENTRY_SHARE of the cache); larger ones are not. */
  readonly maxEntryBytes: number;
  private readonly flights = new Map<string, Flight>();
  /** Codings being compressed off the serving thread, by key and coding. */
  private readonly encodings = new Map<string, Promise<CachedBody>>();
  private version: number | null = null;
  private source: object | null = null;
  /** What every key of the snapshot answered with begins with (BodyStore.turn). */
  private prefix = '';
  /** This thread's misses: how sendCached tells a hit from a miss, whatever other threads do. */
  private misses = 0;

  readonly maxBytes: number;
  /**
   * `maxEntryBytes` defaults to MAX_ENTRY_SHARE of `maxBytes` (docs/operations.md#response-cache);
   * `shared`: the bodies are kept there (every server thread's one store), not on this thread.
   */
  constructor(
    maxBytes: number,
    maxEntryBytes = Math.floor(maxBytes * MAX_ENTRY_SHARE),
    shared?: BodyStore,
  ) {
    this.maxBytes = maxBytes;
    this.maxEntryBytes = Math.max(1, maxEntryBytes);
    this.store = maxBytes <= 0 ? null : (shared ?? new LocalBodies(maxBytes, this.maxEntryBytes));
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
    const store = this.store;
    if (store === null) return uncachedBody(compute, encoding, waiter?.());
    const { dataVersion } = snapshot;
    if (this.source !== snapshot || this.version !== dataVersion) {
      this.prefix = store.turn(snapshot);
      // Computations of the old data still answer their waiters, but are no longer joined.
      this.flights.clear();
      this.encodings.clear();
      this.source = snapshot;
      this.version = dataVersion;
    }
    const key = `${route}\u0000${this.prefix}\u0000${canonicalJson(request)}`;
    const hit = store.get(encoding === null ? key : `${key}\u0000${encoding}`);
    if (hit !== undefined) {
      store.count(true);
      return hit;
    }
    const found = store.get(key);
    if (found !== undefined) {
      // The answer is here, only not yet in this coding: a hit all the same.
      store.count(true);
      return this.encoded(store, key, { plain: found, encoded: [] }, encoding);
    }
    this.misses++;
    store.count(false);
    const flight = this.flights.get(key) ?? this.fly(store, key, compute, encoding);
    flight.waiters++;
    return this.await(flight, waiter?.()).then((made) => this.encoded(store, key, made, encoding));
  }

  /** Computations missed since the cache was made (what health reports as misses). */
  get missCount(): number {
    return this.misses;
  }

  /** Starts the computation of `key`; each of its bodies is kept when it is at most maxEntryBytes. */
  private fly(store: BodyStore, key: string, compute: Compute, encoding: Encoding | null): Flight {
    const controller = new AbortController();
    const promise = Promise.resolve()
      .then(() => compute(controller.signal, encoding, true))
      .then((answer) => {
        const made = madeOf(answer);
        // A reload may have emptied the cache meanwhile: an answer of the old data is not kept.
        if (this.flights.get(key) === flight) {
          this.keep(store, key, plainOf(made));
          for (const e of made.encoded) this.keep(store, `${key}\u0000${e.encoding}`, e);
        }
        return made;
      })
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    // Its waiters see its failure; a computation nobody waits for fails unheard.
    promise.catch(() => undefined);
    const flight: Flight = { key, promise, controller, waiters: 0 };
    this.flights.set(key, flight);
    return flight;
  }

  /** `flight`'s answer for one waiter, who leaves when `signal` aborts; the last to leave aborts it. */
  private await(flight: Flight, signal: AbortSignal | undefined): Promise<Made> {
    if (signal === undefined) return flight.promise;
    return new Promise((resolve, reject) => {
      const leave = () => {
        flight.waiters--;
        if (flight.waiters === 0) {
          // Nobody waits for this answer any more: it is not computed for the cache alone.
          if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
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

  /**
   * `made` in `encoding`: as made, or compressed off the serving thread once per key and coding
   * (concurrent requests share it) and kept beside it; the plain body when small or no coding
   * is asked.
   */
  private encoded(
    store: BodyStore,
    key: string,
    made: Made,
    encoding: Encoding | null,
  ): CachedBody | Promise<CachedBody> {
    const body = pick(made, encoding);
    if (body !== undefined) return body;
    const variantKey = `${key}\u0000${encoding}`;
    let pending = this.encodings.get(variantKey);
    if (pending === undefined) {
      const source = this.source;
      pending = encodeOffThread(plainOf(made), encoding!)
        .then((variant) => {
          // Not kept when a reload emptied the cache meanwhile.
          if (this.source === source) this.keep(store, variantKey, variant);
          return variant;
        })
        .finally(() => this.encodings.delete(variantKey));
      this.encodings.set(variantKey, pending);
    }
    return pending;
  }

  /** Keeps `body` under `key` when it is at most maxEntryBytes. */
  private keep(store: BodyStore, key: string, body: CachedBody): void {
    if (body.bytes.length <= this.maxEntryBytes) store.set(key, body);
  }

  /** Hit, miss and size figures for health: the whole service's when the store is shared. */
  stats(): ResponseCacheStats {
    const empty = { hits: 0, misses: 0, entries: 0, bytes: 0, dataVersion: null };
    return { ...(this.store?.stats() ?? empty), maxBytes: this.maxBytes };
  }
}
