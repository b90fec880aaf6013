/**
 * The simulation behind the event projection (docs/event-projection.md): the rounds left of a
 * Swiss event played out many times from the standings so far, each round paired within score
 * groups (the players ordered by the rule's first key, equals in random order, each meeting the
 * next one they have not met), each game drawn from a distribution the caller gives per pair,
 * and the final standings ranked by the event's rule, players equal on every key in random
 * order (as lots drawn). A pure function of its arguments and the generator.
 */
import { placementKeyValue } from '../../domain/placement-keys.ts';
import type { StandingRecord } from '../../domain/placement-keys.ts';
import type { PlacementRule } from '../../domain/model.ts';
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { Random } from './seeded-random.ts';

/** The players of an event and their records after the rounds played. */
export interface SwissField {
  readonly n: number;
  readonly wins: Int32Array;
  readonly draws: Int32Array;
  readonly score: Float64Array;
  readonly margin: Float64Array;
  /** Opponents met: player i's k-th is opponents[i * stride + k], k < opponentCount[i]. */
  readonly opponents: Int32Array;
  readonly opponentCount: Int32Array;
  /** At least the games played by the one who played most plus the rounds simulated. */
  readonly stride: number;
  /**
   * Where nothing is left to play: the event's places (lower first, integers; equal places
   * share), which are then its final standings; null: rank by the rule.
   */
  readonly tieOrder: Float64Array | null;
}

/**
 * The distribution of one game: `bins` outcomes of player i against j as a cumulative
 * distribution. With a score total, outcome k is i's score k (j's the total minus k); without,
 * 0 is a loss, 1 a draw and 2 a win for i.
 */
export interface GameOutcomes {
  readonly bins: number;
  readonly total: number | null;
  /** The distributions, `bins` numbers each, side by side (one block: fewer cache misses). */
  readonly table: Float64Array;
  /** Where in `table` the distribution of i against j starts (made on first use). */
  at(i: number, j: number): number;
}

export interface SwissTally {
  first: Float64Array;
  top3: Float64Array;
  topCut: Float64Array;
  placeSum: Float64Array;
}

// The widest span of doubled keys sortByFirst counts into slots.
const COUNT_SPAN = 4096;

/** The working state of one simulated event, reset from the field before each simulation. */
class Run {
  readonly wins: Int32Array;
  readonly draws: Int32Array;
  readonly score: Float64Array;
  readonly margin: Float64Array;
  readonly opponents: Int32Array;
  readonly opponentCount: Int32Array;
  readonly records: StandingRecord[];
  readonly order: Int32Array;
  readonly paired: Uint8Array;
  readonly pairs: Int32Array;
  readonly jitter: Float64Array;
  readonly keys: Float64Array;
  readonly shuffled: Int32Array;
  readonly counts = new Int32Array(COUNT_SPAN + 1);

  readonly field: SwissField;
  readonly rule: PlacementRule;
  constructor(field: SwissField, rule: PlacementRule) {
    this.field = field;
    this.rule = rule;
    const n = field.n;
    this.wins = new Int32Array(n);
    this.draws = new Int32Array(n);
    this.score = new Float64Array(n);
    this.margin = new Float64Array(n);
    this.opponents = new Int32Array(field.opponents.length);
    this.opponentCount = new Int32Array(n);
    this.records = Array.from({ length: n }, () => ({
      wins: 0,
      draws: 0,
      score: 0,
      opponentWins: 0,
      opponents: 0,
      margin: 0,
    }));
    this.order = new Int32Array(n);
    this.paired = new Uint8Array(n);
    this.pairs = new Int32Array(n + 1);
    this.jitter = new Float64Array(n);
    this.keys = new Float64Array(n * rule.rank.length);
    this.shuffled = new Int32Array(n);
  }

  reset(): void {
    const f = this.field;
    this.wins.set(f.wins);
    this.draws.set(f.draws);
    this.score.set(f.score);
    this.margin.set(f.margin);
    this.opponents.set(f.opponents);
    this.opponentCount.set(f.opponentCount);
  }

  met(a: number, b: number): boolean {
    const s = this.field.stride;
    for (let k = a * s, end = k + this.opponentCount[a]; k < end; k++) {
      if (this.opponents[k] === b) return true;
    }
    return false;
  }

  /** Each player's value on each of the rule's first `depth` keys, into `keys`. */
  rank(depth: number): void {
    const { n, stride } = this.field;
    const rank = this.rule.rank;
    for (let i = 0; i < n; i++) {
      const r = this.records[i];
      r.wins = this.wins[i];
      r.draws = this.draws[i];
      r.score = this.score[i];
      r.margin = this.margin[i];
      let sum = 0;
      for (let k = i * stride, end = k + this.opponentCount[i]; k < end; k++) {
        const o = this.opponents[k];
        sum += this.wins[o] + this.draws[o] / 2;
      }
      r.opponentWins = sum;
      r.opponents = this.opponentCount[i];
      for (let d = 0; d < depth; d++) this.keys[i * depth + d] = placementKeyValue(rank[d], r);
    }
  }

  /**
   * Players by the first `depth` keys, higher first, equals in random order: shuffled where
   * `random` is given, else by `tie` (lower first).
   */
  sortBy(depth: number, tie: Float64Array, random: Random | null = null): void {
    const { keys, order } = this;
    if (depth > 0 && random !== null && this.sortByFirst(depth, random)) {
      if (depth > 1) this.sortGroups(depth);
      return;
    }
    if (random !== null) for (let i = 0; i < order.length; i++) tie[i] = random();
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => {
      for (let d = 0; d < depth; d++) {
        const x = keys[b * depth + d] - keys[a * depth + d];
        if (Math.abs(x) > 1e-9) return x;
      }
      return tie[a] - tie[b];
    });
  }

  /**
   * Players by the first key, equals in random order, where every key is a
   * multiple of ½ (as wins and scores are) within a span a counting sort affords: the players
   * are shuffled, then counted into their keys' slots, which keeps equal players in shuffled
   * order (Fisher & Yates 1938; Knuth, TAOCP 2, §5.2). False when the keys do not allow it, for
   * the general sort.
   */
  private sortByFirst(depth: number, random: Random | null): boolean {
    const { keys, order, shuffled } = this;
    const n = order.length;
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < n; i++) {
      const twice = 2 * keys[i * depth];
      if (!Number.isInteger(twice)) return false;
      if (twice < low) low = twice;
      if (twice > high) high = twice;
    }
    if (high - low >= COUNT_SPAN) return false;
    for (let i = 0; i < n; i++) shuffled[i] = i;
    if (random !== null) {
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        const t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
      }
    }
    const slots = high - low + 1;
    const start = this.counts;
    start.fill(0, 0, slots + 1);
    // Slot 0 is the highest key: higher first.
    for (let i = 0; i < n; i++) start[high - 2 * keys[i * depth] + 1]++;
    for (let k = 0; k < slots; k++) start[k + 1] += start[k];
    for (let x = 0; x < n; x++) {
      const i = shuffled[x];
      order[start[high - 2 * keys[i * depth]]++] = i;
    }
    return true;
  }

  /**
   * Within each run of players equal on the first key, orders them by the other keys (an
   * insertion sort: the runs are short, and it keeps the shuffled order of equals).
   */
  private sortGroups(depth: number): void {
    const { keys, order } = this;
    const n = order.length;
    const before = (a: number, b: number): boolean => {
      for (let d = 1; d < depth; d++) {
        const x = keys[a * depth + d] - keys[b * depth + d];
        if (Math.abs(x) > 1e-9) return x > 0;
      }
      return false;
    };
    let from = 0;
    for (let p = 1; p <= n; p++) {
      if (p < n && keys[order[p] * depth] === keys[order[from] * depth]) continue;
      for (let x = from + 1; x < p; x++) {
        const v = order[x];
        let y = x - 1;
        while (y >= from && before(v, order[y])) {
          order[y + 1] = order[y];
          y--;
        }
        order[y + 1] = v;
      }
      from = p;
    }
  }

  /**
   * Pairs the players in `order`: each unpaired one meets the next unpaired one they have not
   * met; one left with only opponents met is swapped with an earlier pair where that avoids
   * the rematch, else the rematch stands. An odd player out (the last) sits the round out.
   * Answers the number of pairs, written two by two into `pairs`.
   */
  pair(): number {
    const { order, paired, pairs } = this;
    const n = order.length;
    paired.fill(0);
    let count = 0;
    for (let x = 0; x < n; x++) {
      const a = order[x];
      if (paired[a] === 1) continue;
      let b = -1;
      let first = -1;
      for (let y = x + 1; y < n; y++) {
        const c = order[y];
        if (paired[c] === 1) continue;
        if (first < 0) first = c;
        if (!this.met(a, c)) {
          b = c;
          break;
        }
      }
      if (first < 0) break;
      if (b < 0) b = first;
      paired[a] = paired[b] = 1;
      pairs[2 * count] = a;
      pairs[2 * count + 1] = b;
      count++;
      if (b === first && this.met(a, b)) this.repair(count - 1);
    }
    return count;
  }

  /** Swaps the rematch at pair `p` with an earlier pair where both new games are new. */
  private repair(p: number): void {
    const { pairs } = this;
    const a = pairs[2 * p];
    const b = pairs[2 * p + 1];
    for (let q = p - 1; q >= 0; q--) {
      const c = pairs[2 * q];
      const d = pairs[2 * q + 1];
      if (!this.met(a, c) && !this.met(b, d)) {
        pairs[2 * q + 1] = a;
        pairs[2 * p] = b;
        pairs[2 * p + 1] = d;
        return;
      }
      if (!this.met(a, d) && !this.met(b, c)) {
        pairs[2 * q] = a;
        pairs[2 * p] = b;
        pairs[2 * p + 1] = c;
        return;
      }
    }
  }

  /** Plays the pairs of one round with outcomes drawn from `outcomes`. */
  play(count: number, outcomes: GameOutcomes, random: Random): void {
    const { pairs, score, margin, wins, draws, opponents, opponentCount } = this;
    const stride = this.field.stride;
    const last = outcomes.bins - 1;
    const total = outcomes.total;
    const table = outcomes.table;
    for (let p = 0; p < count; p++) {
      const a = pairs[2 * p];
      const b = pairs[2 * p + 1];
      const at = outcomes.at(a, b);
      const u = random();
      // The first outcome whose cumulative share exceeds u (a binary search).
      let lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (u >= table[at + mid]) lo = mid + 1;
        else hi = mid;
      }
      let result = lo;
      if (total !== null) {
        const other = total - lo;
        score[a] += lo;
        score[b] += other;
        margin[a] += lo - other;
        margin[b] += other - lo;
        result = lo > other ? 2 : lo === other ? 1 : 0;
      }
      if (result === 2) wins[a]++;
      else if (result === 0) wins[b]++;
      else {
        draws[a]++;
        draws[b]++;
      }
      opponents[a * stride + opponentCount[a]++] = b;
      opponents[b * stride + opponentCount[b]++] = a;
    }
  }
}

/**
 * Plays the `rounds` left of `field` `simulations` times and counts, per player, the
 * simulations they finish first, in the top 3 and in the top `cut`, and the sum of their places.
 */
export function simulateSwiss(
  field: SwissField,
  rounds: number,
  rule: PlacementRule,
  outcomes: GameOutcomes,
  simulations: number,
  random: Random,
  cut: number,
): SwissTally {
  const n = field.n;
  const run = new Run(field, rule);
  const depth = rule.rank.length;
  const tally: SwissTally = {
    first: new Float64Array(n),
    top3: new Float64Array(n),
    topCut: new Float64Array(n),
    placeSum: new Float64Array(n),
  };
  const { jitter, order } = run;
  for (let s = 0; s < simulations; s++) {
    throwIfCancelledEvery(s, 64);
    run.reset();
    for (let round = 0; round < rounds; round++) {
      run.rank(1);
      run.sortBy(1, jitter, random);
      run.play(run.pair(), outcomes, random);
    }
    // Nothing left to play and places known: those are the standings (equal places in random
    // order); else the rule's keys, players equal on all of them in random order.
    const tie = rounds === 0 ? field.tieOrder : null;
    if (tie === null) {
      run.rank(depth);
      run.sortBy(depth, jitter, random);
    } else {
      for (let i = 0; i < n; i++) jitter[i] = tie[i] + random() / 2;
      run.sortBy(0, jitter);
    }
    for (let place = 0; place < n; place++) {
      const i = order[place];
      if (place === 0) tally.first[i]++;
      if (place < 3) tally.top3[i]++;
      if (place < cut) tally.topCut[i]++;
      tally.placeSum[i] += place + 1;
    }
  }
  return tally;
}
