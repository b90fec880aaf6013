/**
 * The limits kept once for the whole service however many threads serve
 * (docs/architecture.md#threads), on one SharedArrayBuffer that every server thread is given:
 * the rate limit's counts per client (docs/http-api.md#limits), so that the (N+1)-th request of
 * a window is refused whichever thread takes it. Each client's slot is found by two hashes of
 * its key in a table of fixed size; a short lock (Atomics) makes each count exact.
 */

/** Clients counted at once; a full neighbourhood reuses the slot whose window began first. */
const SLOTS = 16_384;
/** Slots tried from a key's home before the oldest of them is reused. */
const PROBES = 32;
/** Int32 cells: the lock, a spare, then per slot its two hashes, its count and a spare. */
const INT_CELLS = 2 + SLOTS * 4;
/** Spins before a thread waiting for the lock sleeps on it. */
const SPINS = 64;

/** A new buffer for the service's shared limits. */
export function sharedLimitsBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(INT_CELLS * 4 + SLOTS * 8);
}

/** FNV-1a over the UTF-16 code units of `text`, from `basis`. */
function fnv1a(text: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** A client's count in the current window and the milliseconds left of it. */
export interface WindowCount {
  readonly current: number;
  readonly ttl: number;
}

/** The rate limit's counts on `buffer`, as every thread sees them. */
export class SharedRateCounts {
  private readonly cells: Int32Array;
  private readonly starts: Float64Array;

  constructor(buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer, 0, INT_CELLS);
    this.starts = new Float64Array(buffer, INT_CELLS * 4, SLOTS);
  }

  private lock(): void {
    for (let spins = 0; Atomics.compareExchange(this.cells, 0, 0, 1) !== 0; spins++) {
      if (spins >= SPINS) Atomics.wait(this.cells, 0, 1, 1);
    }
  }

  private unlock(): void {
    Atomics.store(this.cells, 0, 0);
    Atomics.notify(this.cells, 0, 1);
  }

  /** Counts one request of `key` in a window of `windowMs` that began with its first request. */
  increment(key: string, windowMs: number, now = Date.now()): WindowCount {
    const h1 = fnv1a(key, 0x811c9dc5 | 0);
    const h2 = fnv1a(key, 0x01000193);
    const { cells, starts } = this;
    const home = (h1 >>> 0) % SLOTS;
    this.lock();
    try {
      let [slot, free, oldest] = [-1, -1, home];
      for (let p = 0; p < PROBES && slot < 0; p++) {
        const s = (home + p) % SLOTS;
        const at = 2 + s * 4;
        if (cells[at + 2] > 0 && cells[at] === h1 && cells[at + 1] === h2) slot = s;
        else if (cells[at + 2] === 0 || starts[s] + windowMs <= now) free = free < 0 ? s : free;
        else if (starts[s] < starts[oldest]) oldest = s;
      }
      if (slot >= 0 && starts[slot] + windowMs > now) {
        cells[2 + slot * 4 + 2]++;
      } else {
        slot = slot >= 0 ? slot : free >= 0 ? free : oldest;
        const at = 2 + slot * 4;
        [cells[at], cells[at + 1], cells[at + 2]] = [h1, h2, 1];
        starts[slot] = now;
      }
      return { current: cells[2 + slot * 4 + 2], ttl: starts[slot] + windowMs - now };
    } finally {
      this.unlock();
    }
  }
}
