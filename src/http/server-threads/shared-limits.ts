/**
 * What is kept once for the whole service however many threads serve
 * (docs/architecture.md#threads), on one SharedArrayBuffer that every server thread is given:
 * the rate limit's counts per client (docs/http-api.md#limits), so that the (N+1)-th request of
 * a window is refused whichever thread takes it; the open connections, in all and per client
 * (docs/operations.md#connections); and each thread's state and answers, which health and the
 * metrics list. A client's slot is found by two hashes of its key in a table of fixed size; a
 * short lock (Atomics) makes each count exact.
 */

/** Clients counted at once; past it, a full neighbourhood reuses a slot (see each table). */
const SLOTS = 16_384;
/** Slots tried from a key's home. */
const PROBES = 32;
/** Int32 cells of a table: its lock, a spare cell, then per slot two hashes, a count, a spare. */
const TABLE_CELLS = 2 + SLOTS * 4;
/** Spins before a thread waiting for a lock sleeps on it. */
const SPINS = 64;
/** Int32 cells per thread in the roster: its state, its answers, its starts, a spare. */
const ROSTER_CELLS = 4;

/** Where each part lies in the buffer, in bytes. */
function layout(threads: number) {
  const rate = 0;
  const starts = rate + TABLE_CELLS * 4;
  const connections = starts + SLOTS * 8;
  const total = connections + TABLE_CELLS * 4;
  const roster = total + 8;
  return { rate, starts, connections, total, roster, end: roster + threads * ROSTER_CELLS * 4 };
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

/** A table of counts by key under one lock (cell 0). */
class KeyTable {
  constructor(readonly cells: Int32Array) {}

  lock(): void {
    for (let spins = 0; Atomics.compareExchange(this.cells, 0, 0, 1) !== 0; spins++) {
      if (spins >= SPINS) Atomics.wait(this.cells, 0, 1, 1);
    }
  }

  unlock(): void {
    Atomics.store(this.cells, 0, 0);
    Atomics.notify(this.cells, 0, 1);
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

  set(slot: number, h: number[], count: number): void {
    const at = 2 + slot * 4;
    [this.cells[at], this.cells[at + 1], this.cells[at + 2]] = [h[0], h[1], count];
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

  constructor(buffer: SharedArrayBuffer) {
    const at = layout(0);
    this.table = new KeyTable(new Int32Array(buffer, at.rate, TABLE_CELLS));
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
 * The open connections of every thread: in all, and per client address. A client whose
 * neighbourhood is full is not counted per client (16,384 clients would have to share it).
 */
export class SharedConnectionCounts {
  private readonly table: KeyTable;
  private readonly totals: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    const at = layout(0);
    this.table = new KeyTable(new Int32Array(buffer, at.connections, TABLE_CELLS));
    this.totals = new Int32Array(buffer, at.total, 2);
  }

  /** Connections open in all. */
  total(): number {
    return Atomics.load(this.totals, 0);
  }

  /** Connections open from `address`. */
  of(address: string): number {
    const { table } = this;
    table.lock();
    try {
      const { slot } = table.find(address, () => false);
      return slot < 0 ? 0 : table.count(slot);
    } finally {
      table.unlock();
    }
  }

  /** Counts a connection from `address` opened (+1) or closed (-1). */
  add(address: string, by: 1 | -1): void {
    Atomics.add(this.totals, 0, by);
    const { table } = this;
    table.lock();
    try {
      const { slot, spare, h } = table.find(address, (s) => table.count(s) === 0);
      if (slot >= 0) table.set(slot, h, Math.max(0, table.count(slot) + by));
      else if (by > 0 && spare >= 0) table.set(spare, h, 1);
    } finally {
      table.unlock();
    }
  }
}

/** A server thread's state in the roster. */
export type ThreadState = 'starting' | 'serving' | 'closing' | 'stopped';
const STATES: readonly ThreadState[] = ['stopped', 'starting', 'serving', 'closing'];

/** One thread as health and the metrics list it. */
export interface ThreadEntry {
  readonly thread: number;
  readonly state: ThreadState;
  /** Requests it has answered. */
  readonly answered: number;
  /** Times it was started (more than 1: it died and was started again). */
  readonly starts: number;
}

/** Every server thread's state and answers, as each thread sees them. */
export class ThreadRoster {
  private readonly cells: Int32Array;

  constructor(
    buffer: SharedArrayBuffer,
    readonly size: number,
  ) {
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
