/**
 * What is kept once for the whole service however many threads serve
 * (docs/architecture.md#threads), on one SharedArrayBuffer that every server thread is given:
 * the rate limit's counts per client (docs/http-api.md#limits), so that the (N+1)-th request of
 * a window is refused whichever thread takes it; the open connections, in all and per client
 * (docs/operations.md#connections); and each thread's state and answers, which health and the
 * metrics list. A client's slot is found by two hashes of its key in a table of fixed size; a
 * short lock (Atomics) makes each rate count exact. A thread may die anywhere, a lock held
 * included: each lock records its holder, and each thread counts its connections in a table of
 * its own, so that the main thread frees what a dead thread held (`releaseThread`) and its
 * connections stop counting against the living.
 */
import type { ThreadEntry, ThreadState } from '../http/metrics.ts';

/** Clients counted at once; past it, a full neighbourhood reuses a slot (see each table). */
const SLOTS = 16_384;
/** Slots tried from a key's home. */
const PROBES = 32;
/** Int32 cells of a table: its lock (its holder's number), a spare cell, then per slot two hashes, a count, a spare. */
const TABLE_CELLS = 2 + SLOTS * 4;
/** What a live stream's count is keyed by, before its client's address (which never holds it). */
const STREAM_KEY = 'live\u0000';
/** Spins before a thread waiting for a lock sleeps on it. */
const SPINS = 64;
/** Int32 cells per thread in the roster: its state, its answers, its starts, a spare. */
const ROSTER_CELLS = 4;

/** Where each part lies in the buffer, in bytes, for `threads` threads. */
function layout(threads: number) {
  const rate = 0;
  const starts = rate + TABLE_CELLS * 4;
  const connections = starts + SLOTS * 8;
  const totals = connections + threads * TABLE_CELLS * 4;
  const roster = totals + threads * 4;
  return { rate, starts, connections, totals, roster, end: roster + threads * ROSTER_CELLS * 4 };
}

/** A new buffer for the service's shared limits, with a place for each of `threads`. */
export function sharedLimitsBuffer(threads: number): SharedArrayBuffer {
  return new SharedArrayBuffer(layout(threads).end);
}

/** FNV-1a over the UTF-16 code units of `text`, from `basis`. */
function fnv1a(text: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * A table of counts by key. Writers take its lock (cell 0, holding the writer's number) unless
 * the table has one writer only; readers of a one-writer table read without it.
 */
class KeyTable {
  readonly cells: Int32Array;
  private readonly holder;
  constructor(cells: Int32Array, holder = 1) {
    this.cells = cells;
    this.holder = holder;
  }

  lock(): void {
    for (let spins = 0; ; spins++) {
      const held = Atomics.compareExchange(this.cells, 0, 0, this.holder);
      if (held === 0) return;
      if (spins >= SPINS) Atomics.wait(this.cells, 0, held, 1);
    }
  }

  unlock(): void {
    Atomics.store(this.cells, 0, 0);
    Atomics.notify(this.cells, 0, 1);
  }

  /** Frees the lock if `holder` holds it (it died holding it); true if it did. */
  release(holder: number): boolean {
    if (Atomics.compareExchange(this.cells, 0, holder, 0) !== holder) return false;
    Atomics.notify(this.cells, 0);
    return true;
  }

  /**
   * Under the lock: the slot holding `key`, else -1, and the first slot of its neighbourhood
   * that `free` says may take it (-1: none). Every slot is searched for the key first, so a
   * slot freed before it never splits its count.
   */
  find(key: string, free: (slot: number) => boolean): { slot: number; spare: number; h: number[] } {
    const h = [fnv1a(key, 0x811c9dc5 | 0), fnv1a(key, 0x01000193)];
    const home = (h[0] >>> 0) % SLOTS;
    let spare = -1;
    for (let p = 0; p < PROBES; p++) {
      const s = (home + p) % SLOTS;
      const at = 2 + s * 4;
      if (this.cells[at + 2] > 0 && this.cells[at] === h[0] && this.cells[at + 1] === h[1]) {
        return { slot: s, spare, h };
      }
      if (spare < 0 && free(s)) spare = s;
    }
    return { slot: -1, spare, h };
  }

  count(slot: number): number {
    return this.cells[2 + slot * 4 + 2];
  }

  /** The count of `key`, 0 when absent. */
  countOf(key: string): number {
    const { slot } = this.find(key, () => false);
    return slot < 0 ? 0 : Atomics.load(this.cells, 2 + slot * 4 + 2);
  }

  /** Writes the hashes before the count, so a reader without the lock never counts a stale key. */
  set(slot: number, h: number[], count: number): void {
    const at = 2 + slot * 4;
    this.cells[at] = h[0];
    this.cells[at + 1] = h[1];
    Atomics.store(this.cells, at + 2, count);
  }
}

/** A client's count in the current window and the milliseconds left of it. */
export interface WindowCount {
  readonly current: number;
  readonly ttl: number;
}

/** The rate limit's counts, as every thread sees them. */
export class SharedRateCounts {
  private readonly table: KeyTable;
  private readonly starts: Float64Array;

  /** The counts in `buffer`, as thread `thread` takes part in them (it holds the lock by its number). */
  constructor(buffer: SharedArrayBuffer, thread = 0) {
    const at = layout(0);
    this.table = new KeyTable(new Int32Array(buffer, at.rate, TABLE_CELLS), thread + 1);
    this.starts = new Float64Array(buffer, at.starts, SLOTS);
  }

  /**
   * Counts one request of `key` in a window of `windowMs` that began with its first request.
   * With every slot of its neighbourhood in a live window, the one whose window began first is
   * reused (the default store forgets the least recently used client likewise).
   */
  increment(key: string, windowMs: number, now = Date.now()): WindowCount {
    const { table, starts } = this;
    table.lock();
    try {
      const live = (s: number) => table.count(s) > 0 && starts[s] + windowMs > now;
      const found = table.find(key, (s) => !live(s));
      const { spare, h } = found;
      let slot = found.slot;
      if (slot >= 0 && live(slot)) {
        table.set(slot, h, table.count(slot) + 1);
      } else {
        if (slot < 0 && spare < 0) slot = this.oldest(h[0]);
        slot = slot >= 0 ? slot : spare;
        table.set(slot, h, 1);
        starts[slot] = now;
      }
      return { current: table.count(slot), ttl: starts[slot] + windowMs - now };
    } finally {
      table.unlock();
    }
  }

  private oldest(h1: number): number {
    const home = (h1 >>> 0) % SLOTS;
    let oldest = home;
    for (let p = 1; p < PROBES; p++) {
      const s = (home + p) % SLOTS;
      if (this.starts[s] < this.starts[oldest]) oldest = s;
    }
    return oldest;
  }
}

/**
 * The open connections of every thread: in all, and per client address. Each thread counts its
 * own in a table of its own, which only it writes; a count is the sum over the threads' tables.
 * A client whose neighbourhood is full is not counted per client (16,384 clients would have to
 * share it).
 */
export class SharedConnectionCounts {
  private readonly tables: KeyTable[];
  private readonly totals: Int32Array;

  private readonly thread: number;
  /** The counts in `buffer` made for `threads` threads, as thread `thread` writes them. */
  constructor(buffer: SharedArrayBuffer, threads: number, thread: number) {
    this.thread = thread;
    const at = layout(threads);
    this.tables = Array.from(
      { length: threads },
      (_, t) =>
        new KeyTable(new Int32Array(buffer, at.connections + t * TABLE_CELLS * 4, TABLE_CELLS)),
    );
    this.totals = new Int32Array(buffer, at.totals, threads);
  }

  /** Connections open in all. */
  total(): number {
    let open = 0;
    for (let t = 0; t < this.totals.length; t++) open += Atomics.load(this.totals, t);
    return open;
  }

  /** Connections open from `address`. */
  of(address: string): number {
    let open = 0;
    for (const table of this.tables) open += table.countOf(address);
    return open;
  }

  /** Counts a connection of this thread from `address` opened (+1) or closed (-1). */
  add(address: string, by: 1 | -1): void {
    Atomics.add(this.totals, this.thread, by);
    this.count(address, by);
  }

  /** Live streams open from `address`, over every thread. */
  streamsOf(address: string): number {
    return this.of(STREAM_KEY + address);
  }

  /**
   * Counts a live stream of this thread from `address` opened (+1) or closed (-1): in the same
   * table as the connections, under a key no address has, and not in the total (its connection
   * is counted already). A dead thread's streams are freed with its table (releaseThread).
   */
  addStream(address: string, by: 1 | -1): void {
    this.count(STREAM_KEY + address, by);
  }

  private count(key: string, by: 1 | -1): void {
    const table = this.tables[this.thread];
    const { slot, spare, h } = table.find(key, (s) => table.count(s) === 0);
    if (slot >= 0) table.set(slot, h, Math.max(0, table.count(slot) + by));
    else if (by > 0 && spare >= 0) table.set(spare, h, 1);
  }
}

/**
 * Frees what thread `thread` held in `buffer` (made for `threads` threads) once it has ended:
 * the rate table's lock, if it died holding it, and its connections, which ended with it.
 * Called by the main thread before the thread is started again.
 */
export function releaseThread(buffer: SharedArrayBuffer, threads: number, thread: number): void {
  const at = layout(threads);
  new KeyTable(new Int32Array(buffer, at.rate, TABLE_CELLS)).release(thread + 1);
  new Int32Array(buffer, at.connections + thread * TABLE_CELLS * 4, TABLE_CELLS).fill(0);
  Atomics.store(new Int32Array(buffer, at.totals, threads), thread, 0);
}

const STATES: readonly ThreadState[] = ['stopped', 'starting', 'serving', 'closing'];

/** Every server thread's state and answers, as each thread sees them. */
export class ThreadRoster {
  private readonly cells: Int32Array;

  readonly size: number;
  constructor(buffer: SharedArrayBuffer, size: number) {
    this.size = size;
    this.cells = new Int32Array(buffer, layout(size).roster, size * ROSTER_CELLS);
  }

  /** Sets thread `index`'s state; `starting` counts a start. */
  mark(index: number, state: ThreadState): void {
    Atomics.store(this.cells, index * ROSTER_CELLS, STATES.indexOf(state));
    if (state === 'starting') Atomics.add(this.cells, index * ROSTER_CELLS + 2, 1);
  }

  /** Counts a request answered by thread `index`. */
  answered(index: number): void {
    Atomics.add(this.cells, index * ROSTER_CELLS + 1, 1);
  }

  list(): ThreadEntry[] {
    return Array.from({ length: this.size }, (_, thread) => ({
      thread,
      state: STATES[Atomics.load(this.cells, thread * ROSTER_CELLS)],
      answered: Atomics.load(this.cells, thread * ROSTER_CELLS + 1),
      starts: Atomics.load(this.cells, thread * ROSTER_CELLS + 2),
    }));
  }
}
