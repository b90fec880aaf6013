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
import type { PlacementKey, PlacementRule } from '../../domain/model.ts';
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { Random } from './seeded-random.ts';
import { OutcomeDraw } from './outcome-draw.ts';
import type { GameOutcomes } from './outcome-draw.ts';
import { StandingsOrder } from './standings-order.ts';

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
  /**
   * The tables already announced for the first rounds left (docs/event-projection.md#what-is-simulated):
   * announced[r] holds round r's pairs two by two (field indices); those games are drawn as
   * paired, and the players at no announced table are Swiss-paired among themselves. Absent or
   * shorter than the rounds left: the other rounds are Swiss-paired.
   */
  readonly announced?: readonly Int32Array[];
}

export type { GameOutcomes };

export interface SwissTally {
  first: Float64Array;
  top3: Float64Array;
  topCut: Float64Array;
  placeSum: Float64Array;
}

/**
 * The working state of one simulated event, reset from the field before each simulation
 * (exported for the tests, which read a simulation's records).
 */
export class SwissRun {
  readonly wins: Int32Array;
  readonly draws: Int32Array;
  readonly score: Float64Array;
  readonly margin: Float64Array;
  readonly opponents: Int32Array;
  readonly opponentCount: Int32Array;
  readonly standings: StandingsOrder;
  readonly order: Int32Array;
  readonly paired: Uint8Array;
  readonly pairs: Int32Array;
  readonly drawn: Int32Array;
  // One record, rewritten for each player: placementKeyValue reads the keys from it.
  private readonly record: StandingRecord = {
    wins: 0,
    draws: 0,
    score: 0,
    opponentWins: 0,
    opponents: 0,
    margin: 0,
  };

  // Whether the first round's counting sort is kept: −1 not tried yet, 0 not countable, 1 kept.
  private firstKept = -1;

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
    this.standings = new StandingsOrder(n, rule.rank.length);
    this.order = this.standings.order;
    this.paired = new Uint8Array(n);
    this.pairs = new Int32Array(n + 1);
    this.drawn = new Int32Array(n);
  }

  /** One simulation of the `rounds` left: the records after them are in the run's columns. */
  playOut(rounds: number, draw: OutcomeDraw, random: Random): void {
    this.reset();
    for (let round = 0; round < rounds; round++) this.playRound(round, draw, random);
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

  /** The sum of player i's opponents' wins, a draw half a win. */
  private opponentWins(i: number): number {
    let sum = 0;
    for (let k = i * this.field.stride, end = k + this.opponentCount[i]; k < end; k++) {
      const o = this.opponents[k];
      sum += this.wins[o] + this.draws[o] / 2;
    }
    return sum;
  }

  /**
   * Writes key `d` (of `depth`) into the standings: of every player where `from` is −1, else
   * of the players order[from .. to − 1].
   */
  private writeKey(d: number, depth: number, from: number, to: number): void {
    const key = this.rule.rank[d];
    const { keys, order } = this.standings;
    // The plain columns copied as they are and opponents' wins summed straight in (the same
    // values placementKeyValue reads off a record); any other key through a record per player.
    const column = key === 'score' ? this.score : key === 'margin' ? this.margin : null;
    const sum = key === 'opponentWins';
    const all = from < 0;
    const end = all ? this.field.n : to;
    for (let x = all ? 0 : from; x < end; x++) {
      const i = all ? x : order[x];
      keys[i * depth + d] =
        column !== null ? column[i] : sum ? this.opponentWins(i) : this.keyOf(key, i);
    }
  }

  /** Player i's value on `key`, through the record placementKeyValue reads. */
  private keyOf(key: PlacementKey, i: number): number {
    const r = this.record;
    r.wins = this.wins[i];
    r.draws = this.draws[i];
    r.score = this.score[i];
    r.margin = this.margin[i];
    r.opponentWins =
      key === 'opponentWins' || key === 'opponentWinsMean' ? this.opponentWins(i) : 0;
    r.opponents = this.opponentCount[i];
    return placementKeyValue(key, r);
  }

  /**
   * The players ordered by the rule's first `depth` keys, equals at random. The keys after the
   * first are read only for players equal on it (few, once scores spread): pairing reads the
   * first key alone, and opponents' wins are summed only where a tie asks for them.
   */
  rank(depth: number, random: Random): void {
    const { standings } = this;
    const column = this.firstColumn(depth);
    if (!standings.sortByColumn(column, column === standings.keys ? depth : 1, random)) {
      for (let d = column === standings.keys ? 1 : 0; d < depth; d++)
        this.writeKey(d, depth, -1, 0);
      standings.sort(depth, random);
      return;
    }
    if (depth === 1) return;
    const { ends, runs } = standings;
    let from = 0;
    for (let k = 0; k < runs; k++) {
      const to = ends[k];
      if (to - from > 1) for (let d = 1; d < depth; d++) this.writeKey(d, depth, from, to);
      from = to;
    }
    standings.sortRuns(depth);
  }

  /**
   * Where the rule's first key is read from: a plain column of the records as it is, else the
   * standings' keys, written for every player.
   */
  private firstColumn(depth: number): Float64Array {
    const key = this.rule.rank[0];
    if (key === 'score') return this.score;
    if (key === 'margin') return this.margin;
    this.writeKey(0, depth, -1, 0);
    return this.standings.keys;
  }

  /**
   * The players ordered by the rule's first key for pairing round `round`. The first round
   * left starts from the field's records in every simulation, so its counting sort is the same
   * each time: it is counted once and kept, and only its runs of equals are shuffled anew
   * (the same order and the same numbers drawn as counting it again).
   */
  private rankForPairing(round: number, random: Random): void {
    const { standings } = this;
    if (round === 0 && this.firstKept !== 0) {
      if (this.firstKept === -1) {
        const column = this.firstColumn(1);
        this.firstKept = standings.countOnly(column, 1) ? 1 : 0;
      }
      if (this.firstKept === 1) {
        standings.shuffleKept(random);
        return;
      }
    }
    this.rank(1, random);
  }

  /**
   * Pairs the players in `order`: each unpaired one meets the next unpaired one they have not
   * met; one left with only opponents met is swapped with an earlier pair where that avoids
   * the rematch, else the rematch stands. An odd player out (the last) sits the round out.
   * Answers the number of pairs, written two by two into `pairs`.
   */
  pair(): number {
    this.paired.fill(0);
    return this.pairFrom(0);
  }

  /**
   * Plays round `round` of the rounds left: its announced tables as announced (the rest
   * Swiss-paired among themselves), else all of it Swiss-paired.
   */
  playRound(round: number, draw: OutcomeDraw, random: Random): void {
    const announced = this.field.announced?.[round];
    if (announced === undefined) {
      this.rankForPairing(round, random);
      this.play(this.pair(), draw, random);
      return;
    }
    const { paired, pairs } = this;
    paired.fill(0);
    pairs.set(announced);
    const fixed = announced.length >> 1;
    for (let k = 0; k < announced.length; k++) paired[announced[k]] = 1;
    // Ranked only where someone is left to pair: the announced tables need no order.
    const left = this.field.n - announced.length > 1;
    if (left) this.rankForPairing(round, random);
    this.play(left ? this.pairFrom(fixed) : fixed, draw, random);
  }

  /**
   * Pairs the players in `order` not yet marked in `paired` after the `count` pairs already in
   * `pairs`; answers the number of pairs.
   */
  private pairFrom(count: number): number {
    const { order, paired, pairs, opponents, opponentCount } = this;
    const stride = this.field.stride;
    const n = order.length;
    const from = count;
    for (let x = 0; x < n; x++) {
      const a = order[x];
      if (paired[a] === 1) continue;
      let b = -1;
      let first = -1;
      // a's opponents met, scanned here rather than through met() for each candidate.
      const metFrom = a * stride;
      const metEnd = metFrom + opponentCount[a];
      for (let y = x + 1; y < n; y++) {
        const c = order[y];
        if (paired[c] === 1) continue;
        if (first < 0) first = c;
        let k = metFrom;
        while (k < metEnd && opponents[k] !== c) k++;
        if (k === metEnd) {
          b = c;
          break;
        }
      }
      if (first < 0) break;
      // None new: the first candidate, a rematch, for repair() to swap away where it can.
      const rematch = b < 0;
      if (rematch) b = first;
      paired[a] = paired[b] = 1;
      pairs[2 * count] = a;
      pairs[2 * count + 1] = b;
      count++;
      if (rematch) this.repair(count - 1, from);
    }
    return count;
  }

  /**
   * Swaps the rematch at pair `p` with an earlier pair (from pair `from` on: those before are
   * announced) where both new games are new.
   */
  private repair(p: number, from: number): void {
    const { pairs } = this;
    const a = pairs[2 * p];
    const b = pairs[2 * p + 1];
    for (let q = p - 1; q >= from; q--) {
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
  play(count: number, outcomes: OutcomeDraw, random: Random): void {
    const { pairs, score, margin, wins, draws, opponents, opponentCount } = this;
    const stride = this.field.stride;
    const total = outcomes.outcomes.total;
    const drawn = this.drawn;
    outcomes.drawRound(pairs, count, random, drawn);
    for (let p = 0; p < count; p++) {
      const a = pairs[2 * p];
      const b = pairs[2 * p + 1];
      const lo = drawn[p];
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
  const run = new SwissRun(field, rule);
  const depth = rule.rank.length;
  const tally: SwissTally = {
    first: new Float64Array(n),
    top3: new Float64Array(n),
    topCut: new Float64Array(n),
    placeSum: new Float64Array(n),
  };
  const { order } = run;
  const draw = new OutcomeDraw(n, outcomes);
  const jitter = new Float64Array(n);
  for (let s = 0; s < simulations; s++) {
    throwIfCancelledEvery(s, 64);
    run.playOut(rounds, draw, random);
    // Nothing left to play and places known: those are the standings (equal places in random
    // order); else the rule's keys, players equal on all of them in random order.
    const tie = rounds === 0 ? field.tieOrder : null;
    if (tie === null) run.rank(depth, random);
    else {
      for (let i = 0; i < n; i++) jitter[i] = tie[i] + random.next() / 2;
      run.standings.sortByTie(jitter);
    }
    if (n > 0) tally.first[order[0]]++;
    for (let place = 0; place < Math.min(3, n); place++) tally.top3[order[place]]++;
    for (let place = 0; place < Math.min(cut, n); place++) tally.topCut[order[place]]++;
    for (let place = 0; place < n; place++) tally.placeSum[order[place]] += place + 1;
  }
  return tally;
}
