/**
 * The response cache's bodies on shared memory (docs/operations.md#response-cache): one store for
 * every server thread, so an answer computed on one thread is a hit on every other and the
 * cache's bound is the service's, not one share per thread. Bodies lie in a ring, oldest first,
 * each with its key (checked on a hit, so two keys of one hash never answer for each other) and
 * its content coding; an open-addressing index of the keys' hashes finds them. A new body evicts
 * the oldest until it fits. One lock (Atomics) guards both; it records its holder, so when a
 * thread dies holding it the main thread frees it (releaseDeadThread) and empties the store,
 * whose state the dead thread may have left half written.
 */
import { ENCODINGS } from '../http/content-coding.ts';
import type { CachedBody, BodyStore, BodyStoreStats } from '../http/response-cache.ts';

/** Int32 cells of the header, at the buffer's start. */
const [LOCK, TOKEN, HEAD, TAIL, USED, ENTRIES, HITS, MISSES, VERSION, SLOTS, CAPACITY] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
];
const HEADER_BYTES = 64;
/** Int32 cells of an index slot: two hashes of the key, the record's offset + 1 (0: empty), a spare. */
const SLOT_CELLS = 4;
/** A record's header in bytes: its length, kind and coding, the key's two hashes, key and body lengths. */
const RECORD_HEADER = 24;
/** A record that only fills the ring's end, so the next starts at its beginning. */
const SKIP = 0;
const ENTRY = 1;
/** Spins before a thread waiting for the lock sleeps on it. */
const SPINS = 64;
/** The holder the main thread writes while it empties a dead thread's store. */
const MAIN_HOLDER = 0x7fff_ffff;
/** The index is kept at most half full, so a probe stays short. */
const MAX_LOAD = 0.5;

const align8 = (n: number) => (n + 7) & ~7;
/**
 * The largest store: offsets in the ring are Int32 cells. A larger MUSTER_RESPONSE_CACHE_MB is
 * held to it when several threads serve (docs/operations.md#response-cache).
 */
export const MAX_SHARED_CACHE_BYTES = 2 ** 31 - 2 ** 20;

/** Index slots for a store of `maxBytes`: a power of two, about one per 512 bytes. */
function slotsFor(maxBytes: number): number {
  let slots = 64;
  while (slots * 512 < maxBytes) slots *= 2;
  return slots;
}

/**
 * A buffer for a store of `bytes` in all (at most MAX_SHARED_CACHE_BYTES), header and index
 * included: that is the bound the
 * whole service's cached bodies keep to.
 */
export function sharedCacheBuffer(bytes: number): SharedArrayBuffer {
  const maxBytes = Math.min(bytes, MAX_SHARED_CACHE_BYTES);
  const slots = slotsFor(maxBytes);
  const capacity = Math.floor((maxBytes - HEADER_BYTES - slots * SLOT_CELLS * 4) / 8) * 8;
  if (capacity < 4096)
    throw new RangeError(`a shared response cache of ${maxBytes} bytes is too small`);
  const buffer = new SharedArrayBuffer(maxBytes);
  const cells = new Int32Array(buffer, 0, HEADER_BYTES / 4);
  cells[SLOTS] = slots;
  cells[CAPACITY] = capacity;
  cells[VERSION] = -1;
  return buffer;
}

/** Who holds the store's lock: a thread's index + 1, or 0 when nobody does. */
export function lockHolder(buffer: SharedArrayBuffer): number {
  return Atomics.load(new Int32Array(buffer, 0, 1), LOCK);
}

/**
 * Frees the lock server thread `index` held when it died (the main thread calls it on the
 * thread's exit) and empties the store, which the thread may have left half written; a lock it
 * did not hold is left alone.
 */
export function releaseDeadThread(buffer: SharedArrayBuffer, index: number): boolean {
  const cells = new Int32Array(buffer, 0, HEADER_BYTES / 4);
  if (Atomics.compareExchange(cells, LOCK, index + 1, MAIN_HOLDER) !== index + 1) return false;
  new SharedBodies(buffer, -1).emptyLocked();
  Atomics.store(cells, LOCK, 0);
  Atomics.notify(cells, LOCK);
  return true;
}

/** FNV-1a over `bytes`, from `basis`. */
function fnv1a(bytes: Uint8Array, basis: number): number {
  let h = basis;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h | 0;
}

/** One server thread's view of the shared store. */
export class SharedBodies implements BodyStore {
  private readonly header: Int32Array;
  private readonly index: Int32Array;
  private readonly slots: number;
  private readonly capacity: number;
  private readonly data: Buffer;
  private readonly records: DataView;
  private readonly holder: number;
  /** The token of the snapshot this thread answers with: its bodies are kept only while current. */
  private token = 0;

  readonly buffer: SharedArrayBuffer;
  private readonly tokenOf: (snapshot: { readonly dataVersion: number }) => number;
  /**
   * @param index this thread's index among the server threads (-1: the main thread)
   * @param tokenOf the token the main thread posted a snapshot under (thread-snapshots.ts)
   */
  constructor(
    buffer: SharedArrayBuffer,
    index: number,
    tokenOf: (snapshot: { readonly dataVersion: number }) => number = () => 0,
  ) {
    this.buffer = buffer;
    this.tokenOf = tokenOf;
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.slots = this.header[SLOTS];
    this.capacity = this.header[CAPACITY];
    this.index = new Int32Array(buffer, HEADER_BYTES, this.slots * SLOT_CELLS);
    const dataAt = HEADER_BYTES + this.slots * SLOT_CELLS * 4;
    this.data = Buffer.from(buffer, dataAt, this.capacity);
    this.records = new DataView(buffer, dataAt, this.capacity);
    this.holder = index < 0 ? MAIN_HOLDER : index + 1;
  }

  private lock(): void {
    const { header, holder } = this;
    for (let spins = 0; ; spins++) {
      const held = Atomics.compareExchange(header, LOCK, 0, holder);
      if (held === 0) return;
      if (spins >= SPINS) Atomics.wait(header, LOCK, held, 1);
    }
  }

  private unlock(): void {
    Atomics.store(this.header, LOCK, 0);
    Atomics.notify(this.header, LOCK, 1);
  }

  private locked<T>(run: () => T): T {
    this.lock();
    try {
      return run();
    } finally {
      this.unlock();
    }
  }

  /**
   * Answers for `snapshot` from now on: the first thread to move to a newer snapshot (a reload)
   * empties the store, and keys carry the snapshot's token, so no thread is answered from older
   * data; a thread still on an older snapshot keeps nothing.
   */
  turn(snapshot: { readonly dataVersion: number }): string {
    const token = this.tokenOf(snapshot);
    this.token = token;
    this.locked(() => {
      if (token <= this.header[TOKEN]) return;
      this.emptyLocked();
      this.header[TOKEN] = token;
      this.header[VERSION] = snapshot.dataVersion;
    });
    return `${token}\u0000${snapshot.dataVersion}`;
  }

  get(key: string): CachedBody | undefined {
    const bytes = Buffer.from(key);
    const h1 = fnv1a(bytes, 0x811c9dc5 | 0);
    const h2 = fnv1a(bytes, 0x01000193);
    return this.locked(() => {
      const slot = this.find(bytes, h1, h2);
      if (slot < 0) return undefined;
      const at = this.index[slot * SLOT_CELLS + 2] - 1;
      const kind = this.records.getInt32(at + 4, true);
      const keyLength = this.records.getInt32(at + 16, true);
      const bodyLength = this.records.getInt32(at + 20, true);
      const from = at + RECORD_HEADER + keyLength;
      // A copy: the ring's bytes are another body's once this one is evicted.
      const body = Buffer.allocUnsafe(bodyLength);
      this.data.copy(body, 0, from, from + bodyLength);
      const coding = kind >> 8;
      return { bytes: body, encoding: coding === 0 ? null : ENCODINGS[coding - 1] };
    });
  }

  set(key: string, body: CachedBody): void {
    const bytes = Buffer.from(key);
    const h1 = fnv1a(bytes, 0x811c9dc5 | 0);
    const h2 = fnv1a(bytes, 0x01000193);
    const size = align8(RECORD_HEADER + bytes.length + body.bytes.length);
    if (size > this.capacity) return;
    this.locked(() => {
      // Computed on a snapshot that another thread has already moved past: not kept.
      if (this.header[TOKEN] !== this.token) return;
      const at = this.reserve(size);
      const coding = body.encoding === null ? 0 : ENCODINGS.indexOf(body.encoding) + 1;
      const r = this.records;
      r.setInt32(at, size, true);
      r.setInt32(at + 4, ENTRY | (coding << 8), true);
      r.setInt32(at + 8, h1, true);
      r.setInt32(at + 12, h2, true);
      r.setInt32(at + 16, bytes.length, true);
      r.setInt32(at + 20, body.bytes.length, true);
      bytes.copy(this.data, at + RECORD_HEADER);
      body.bytes.copy(this.data, at + RECORD_HEADER + bytes.length);
      const old = this.find(bytes, h1, h2);
      if (old >= 0) this.index[old * SLOT_CELLS + 2] = at + 1;
      else this.insert(h1, h2, at);
    });
  }

  /** Counts a request answered from the store (hit) or computed (miss), for the whole service. */
  count(hit: boolean): void {
    Atomics.add(this.header, hit ? HITS : MISSES, 1);
  }

  stats(): BodyStoreStats {
    const h = this.header;
    const version = Atomics.load(h, VERSION);
    return {
      hits: Atomics.load(h, HITS),
      misses: Atomics.load(h, MISSES),
      entries: Atomics.load(h, ENTRIES),
      bytes: Atomics.load(h, USED),
      dataVersion: version < 0 ? null : version,
    };
  }

  /** Under the lock: forgets every body. */
  emptyLocked(): void {
    this.index.fill(0);
    for (const cell of [HEAD, TAIL, USED, ENTRIES]) this.header[cell] = 0;
  }

  /** Under the lock: the index slot of `key`, or -1. */
  private find(key: Buffer, h1: number, h2: number): number {
    const mask = this.slots - 1;
    for (let s = h1 & mask; ; s = (s + 1) & mask) {
      const cell = s * SLOT_CELLS;
      const at = this.index[cell + 2] - 1;
      if (at < 0) return -1;
      if (this.index[cell] === h1 && this.index[cell + 1] === h2) {
        const length = this.records.getInt32(at + 16, true);
        const stored = this.data.subarray(at + RECORD_HEADER, at + RECORD_HEADER + length);
        if (stored.equals(key)) return s;
      }
    }
  }

  private insert(h1: number, h2: number, at: number): void {
    const mask = this.slots - 1;
    let s = h1 & mask;
    while (this.index[s * SLOT_CELLS + 2] !== 0) s = (s + 1) & mask;
    this.index.set([h1, h2, at + 1], s * SLOT_CELLS);
    this.header[ENTRIES]++;
  }

  /** Removes the index slot pointing at record `at`, shifting back the slots probed past it. */
  private remove(h1: number, at: number): void {
    const mask = this.slots - 1;
    let s = h1 & mask;
    while (this.index[s * SLOT_CELLS + 2] !== at + 1) {
      // Replaced by a newer body of its key: the index no longer points here.
      if (this.index[s * SLOT_CELLS + 2] === 0) return;
      s = (s + 1) & mask;
    }
    this.header[ENTRIES]--;
    for (let next = (s + 1) & mask; ; next = (next + 1) & mask) {
      const cell = next * SLOT_CELLS;
      if (this.index[cell + 2] === 0) break;
      const home = this.index[cell] & mask;
      // The slot at `next` may move into the hole at `s` when its home is not between them.
      const between = s <= next ? s < home && home <= next : s < home || home <= next;
      if (between) continue;
      this.index.copyWithin(s * SLOT_CELLS, cell, cell + SLOT_CELLS);
      s = next;
    }
    this.index.fill(0, s * SLOT_CELLS, s * SLOT_CELLS + SLOT_CELLS);
  }

  /** Under the lock: where a record of `size` bytes goes, evicting the oldest until it fits. */
  private reserve(size: number): number {
    const h = this.header;
    for (;;) {
      const [head, tail, used] = [h[HEAD], h[TAIL], h[USED]];
      const full = h[ENTRIES] + 1 > this.slots * MAX_LOAD;
      if (used === 0) h[HEAD] = h[TAIL] = 0;
      const free = used === 0 ? this.capacity : head > tail ? this.capacity - head : tail - head;
      if (!full && size <= free) {
        h[HEAD] = (h[HEAD] + size) % this.capacity;
        h[USED] = used + size;
        return used === 0 ? 0 : head;
      }
      if (!full && head > tail && size > free && used > 0) {
        // The ring's end is too short: skipped, the record goes at its start.
        this.records.setInt32(head, this.capacity - head, true);
        this.records.setInt32(head + 4, SKIP, true);
        h[HEAD] = 0;
        h[USED] = used + this.capacity - head;
        continue;
      }
      this.evictOldest();
    }
  }

  private evictOldest(): void {
    const h = this.header;
    const at = h[TAIL];
    const size = this.records.getInt32(at, true);
    if ((this.records.getInt32(at + 4, true) & 0xff) === ENTRY) {
      this.remove(this.records.getInt32(at + 8, true), at);
    }
    h[TAIL] = (at + size) % this.capacity;
    h[USED] -= size;
  }
}
