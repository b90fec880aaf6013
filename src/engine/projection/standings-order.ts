/**
 * The order of a simulated event's players by the keys of its placing rule
 * (docs/event-projection.md#what-is-simulated): higher first, players equal on every key in
 * random order. Where the first key is a multiple of ½ (wins, T9A's scores) within a span a
 * counting sort affords, the players are counted into their keys' slots and each run of equals
 * is then shuffled (Fisher & Yates 1938; Knuth, TAOCP 2, §5.2): only players who share a key
 * draw a number, which after the first rounds of a scored event is few of them. Otherwise a
 * comparison sort with a random number per player breaks the ties.
 */
import type { Random } from './seeded-random.ts';

// The widest span of doubled keys the counting sort counts into slots.
const COUNT_SPAN = 4096;

const WIDEST = 2 ** 30;

// A mean of halves is not exact in binary, so keys closer than this are equal
// (as compareByRule in src/domain/placement-keys.ts).
const EQUAL = 1e-9;

/** Orders up to `n` players by `depth` keys each, reusing its buffers from call to call. */
export class StandingsOrder {
  /** The players, best first, after {@link sort}. */
  readonly order: Int32Array;
  /** Player i's value on key d is keys[i * depth + d] (the caller writes them). */
  readonly keys: Float64Array;
  /**
   * After a counting sort, run k of players equal on the first key (best first) ends at
   * ends[k] (and run k + 1 starts there), k < {@link runs}.
   */
  readonly ends = new Int32Array(COUNT_SPAN + 1);
  /** The runs of the last counting sort. */
  runs = 0;
  private readonly slot: Int32Array;
  private readonly counts = new Int32Array(COUNT_SPAN);
  private readonly tie: Float64Array;
  // The counting sort kept by countOnly: its order and its runs.
  private readonly keptOrder: Int32Array;
  private readonly keptEnds = new Int32Array(COUNT_SPAN + 1);
  private keptRuns = 0;

  readonly n: number;
  readonly maxDepth: number;
  constructor(n: number, maxDepth: number) {
    this.n = n;
    this.maxDepth = maxDepth;
    this.order = new Int32Array(n);
    this.keys = new Float64Array(n * maxDepth);
    this.slot = new Int32Array(n);
    this.tie = new Float64Array(n);
    this.keptOrder = new Int32Array(n);
  }

  /** Players by their first `depth` keys, higher first, equals on all of them at random. */
  sort(depth: number, random: Random): void {
    if (this.sortByFirst(depth, random)) {
      if (depth > 1) this.sortRuns(depth);
      return;
    }
    const { keys, order, tie } = this;
    for (let i = 0; i < this.n; i++) {
      order[i] = i;
      tie[i] = random.next();
    }
    order.sort((a, b) => {
      for (let d = 0; d < depth; d++) {
        const x = keys[b * depth + d] - keys[a * depth + d];
        if (Math.abs(x) > EQUAL) return x;
      }
      return tie[a] - tie[b];
    });
  }

  /**
   * Players by the first key alone, equals at random, where the counting sort affords it (the
   * caller then writes the other keys of the runs of equals and calls {@link sortRuns}); false
   * otherwise, order untouched, for {@link sort}.
   */
  sortByFirst(depth: number, random: Random): boolean {
    return this.sortByColumn(this.keys, depth, random);
  }

  /**
   * As {@link sortByFirst}, player i's first key read from column[i * step] (a record's own
   * column, step 1, needs no copy into the keys).
   */
  sortByColumn(column: Float64Array, step: number, random: Random): boolean {
    if (!this.countByFirst(column, step)) return false;
    this.shuffleEquals(random);
    return true;
  }

  /**
   * The counting sort of {@link sortByColumn} without its shuffle, kept for
   * {@link shuffleKept}: for keys that are the same at every call (the first round's).
   */
  countOnly(column: Float64Array, step: number): boolean {
    if (!this.countByFirst(column, step)) return false;
    this.keptOrder.set(this.order);
    for (let k = 0; k < this.runs; k++) this.keptEnds[k] = this.ends[k];
    this.keptRuns = this.runs;
    return true;
  }

  /**
   * The kept counting sort's order with its runs of equals shuffled anew: the same order and
   * the same numbers drawn as {@link sortByColumn} of the same keys, without counting them.
   */
  shuffleKept(random: Random): void {
    const { ends, keptEnds } = this;
    const runs = this.keptRuns;
    this.order.set(this.keptOrder);
    for (let k = 0; k < runs; k++) ends[k] = keptEnds[k];
    this.runs = runs;
    this.shuffleEquals(random);
  }

  /** Players by `tie` alone, lower first (where the event's own places are the standings). */
  sortByTie(tie: Float64Array): void {
    const { order } = this;
    for (let i = 0; i < this.n; i++) order[i] = i;
    order.sort((a, b) => tie[a] - tie[b]);
  }

  /**
   * A counting sort by the first key (player i's at column[i * step]), higher first, equals in
   * index order; false when the keys are not all multiples of ½ within the span (and within
   * ±2^29), for the comparison sort.
   */
  private countByFirst(column: Float64Array, step: number): boolean {
    const { order, slot, counts, ends, n } = this;
    if (n === 0) {
      this.runs = 0;
      return true;
    }
    // Integers from here on (the doubled keys within ±2^30), so the loops below stay on them.
    let high = -WIDEST;
    let low = WIDEST;
    let odd = 0;
    for (let i = 0; i < n; i++) {
      const twice = 2 * column[i * step];
      const whole = twice | 0;
      // Beyond ±2^30 the doubled key would not keep in the slots' 32-bit integers (and NaN
      // or a fraction is not its own integer part).
      if (whole !== twice || whole > WIDEST || whole < -WIDEST) return false;
      if (whole > high) high = whole;
      if (whole < low) low = whole;
      odd |= whole;
      slot[i] = whole;
    }
    if (high - low >= COUNT_SPAN) return false;
    // Whole keys (a total score, wins without draws) take one slot each, not two: the halves
    // between them would stay empty.
    const shift = (odd & 1) ^ 1;
    const slots = ((high - low) >> shift) + 1;
    for (let k = 0; k < slots; k++) counts[k] = 0;
    // Slot 0 is the highest key: higher first.
    for (let i = 0; i < n; i++) {
      const s = (high - slot[i]) >> shift;
      slot[i] = s;
      counts[s]++;
    }
    // counts[k] becomes where slot k's run starts; the runs' ends are the slots' present.
    let at = 0;
    let runs = 0;
    for (let k = 0; k < slots; k++) {
      const c = counts[k];
      counts[k] = at;
      at += c;
      if (c !== 0) ends[runs++] = at;
    }
    this.runs = runs;
    for (let i = 0; i < n; i++) order[counts[slot[i]]++] = i;
    return true;
  }

  /**
   * Shuffles each run of players equal on the first key (Fisher-Yates within the run), the
   * runs read off the counting sort, best first.
   */
  private shuffleEquals(random: Random): void {
    const { order, ends, runs } = this;
    let from = 0;
    for (let k = 0; k < runs; k++) {
      const to = ends[k];
      for (let i = to - 1; i > from; i--) {
        const j = from + Math.floor(random.next() * (i - from + 1));
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      from = to;
    }
  }

  /** Whether player a ranks above b on keys 1 .. depth − 1. */
  private above(a: number, b: number, depth: number): boolean {
    const keys = this.keys;
    for (let d = 1; d < depth; d++) {
      const x = keys[a * depth + d] - keys[b * depth + d];
      if (Math.abs(x) > EQUAL) return x > 0;
    }
    return false;
  }

  /**
   * Within each run of players equal on the first key (the last counting sort's), orders them
   * by the other keys (an insertion sort: the runs are short, and it keeps the shuffled order
   * of equals).
   */
  sortRuns(depth: number): void {
    const { order, ends, runs } = this;
    let from = 0;
    for (let k = 0; k < runs; k++) {
      const p = ends[k];
      for (let x = from + 1; x < p; x++) {
        const v = order[x];
        let y = x - 1;
        while (y >= from && this.above(v, order[y], depth)) {
          order[y + 1] = order[y];
          y--;
        }
        order[y + 1] = v;
      }
      from = p;
    }
  }
}
