/**
 * The defender-attacker pairing draft as nested simultaneous zero-sum games, solved by backward
 * induction and memoised on the players left to each team (docs/team-pairing.md#the-draft).
 * Team A's player i meeting team B's player j scores matrix[i*n + j] for A; B's score is the
 * game total minus that, so A maximises its total and B minimises it.
 *
 * One step: both teams reveal a defender; then each offers two attackers against the other's
 * defender; then each defender keeps one of the two offered to it. With four left, the refused
 * attackers meet each other and the last players meet too; with three left, the refused
 * attackers meet; otherwise the refused attackers go back to the pool.
 */
import { matrixGameValue, value2x2 } from './matrix-game.ts';

/** A set of players as a bit mask over their indices (teams of at most 8). */
export type PlayerMask = number;

/** The smallest team the draft takes, and the largest the memo is sized for. */
export const MIN_TEAM = 3;
export const MAX_TEAM = 8;

/** The indices in a mask, ascending. */
export function membersOf(mask: PlayerMask): number[] {
  const out: number[] = [];
  for (let i = 0; mask >> i !== 0; i++) if ((mask >> i) & 1) out.push(i);
  return out;
}

/** The unordered pairs of a mask's members, each ascending, in lexicographic order. */
export function pairsOf(mask: PlayerMask): [number, number][] {
  const members = membersOf(mask);
  const out: [number, number][] = [];
  for (let x = 0; x < members.length; x++) {
    for (let y = x + 1; y < members.length; y++) out.push([members[x], members[y]]);
  }
  return out;
}

function popcount(mask: PlayerMask): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

function onlyMember(mask: PlayerMask): number {
  return 31 - Math.clz32(mask);
}

/** A matrix game of one choice: its payoffs (A's expected total, row-major) and its options. */
export interface ChoiceGame<R, C> {
  rowOptions: R[];
  columnOptions: C[];
  payoffs: Float64Array;
}

/** Solves drafts over one matrix; values of positions are memoised across calls. */
export class DraftSolver {
  private readonly memo: Float64Array;
  private readonly pairCache: [number, number][][] = [];
  private readonly memberCache: number[][] = [];
  private readonly buffers: {
    defenders: Float64Array;
    attackers: Float64Array;
    worth: Float64Array;
  }[] = [];

  readonly matrix: Float64Array;
  readonly n: number;
  constructor(matrix: Float64Array, n: number) {
    this.matrix = matrix;
    this.n = n;
    if (n < MIN_TEAM || n > MAX_TEAM) throw new RangeError(`teams of ${MIN_TEAM} to ${MAX_TEAM}`);
    this.memo = new Float64Array(1 << (2 * n)).fill(Number.NaN);
  }

  /** A's expected total over the games still to pair when each team has the masked players. */
  positionValue(maskA: PlayerMask, maskB: PlayerMask): number {
    const key = (maskA << this.n) | maskB;
    const known = this.memo[key];
    if (!Number.isNaN(known)) return known;
    const k = popcount(maskA);
    // A step needs a defender and two attackers; fewer never starts one in this format.
    if (k < MIN_TEAM || popcount(maskB) !== k) throw new RangeError('no draft step here');
    const defenders = this.scratch(k).defenders;
    this.fillDefenderGame(defenders, maskA, maskB);
    const value = matrixGameValue(defenders, k, k);
    this.memo[key] = value;
    return value;
  }

  /** The defenders' game: each entry is the value of the attackers' game that follows it. */
  defenderGame(maskA: PlayerMask, maskB: PlayerMask): ChoiceGame<number, number> {
    const rowOptions = this.members(maskA);
    const columnOptions = this.members(maskB);
    const payoffs = new Float64Array(rowOptions.length * columnOptions.length);
    this.fillDefenderGame(payoffs, maskA, maskB);
    return { rowOptions, columnOptions, payoffs };
  }

  /** The attackers' game: A offers a pair against B's defender while B offers one against A's. */
  attackerGame(
    maskA: PlayerMask,
    maskB: PlayerMask,
    defenderA: number,
    defenderB: number,
  ): ChoiceGame<[number, number], [number, number]> {
    const rowOptions = this.pairs(maskA & ~(1 << defenderA));
    const columnOptions = this.pairs(maskB & ~(1 << defenderB));
    const payoffs = new Float64Array(rowOptions.length * columnOptions.length);
    this.fillAttackerGame(payoffs, maskA, maskB, defenderA, defenderB);
    return { rowOptions, columnOptions, payoffs };
  }

  // The recursion reuses one buffer per team size (a position only waits on smaller ones), so
  // the whole draft allocates a handful of arrays instead of one per game.
  private scratch(k: number): {
    defenders: Float64Array;
    attackers: Float64Array;
    worth: Float64Array;
  } {
    return (this.buffers[k] ??= {
      defenders: new Float64Array(k * k),
      attackers: new Float64Array(((k - 1) * (k - 2)) ** 2 / 4),
      worth: new Float64Array(this.n * this.n),
    });
  }

  private fillDefenderGame(out: Float64Array, maskA: PlayerMask, maskB: PlayerMask): void {
    const k = popcount(maskA);
    const attackers = this.scratch(k).attackers;
    const pairs = ((k - 1) * (k - 2)) / 2;
    let cell = 0;
    for (const defenderA of this.members(maskA)) {
      for (const defenderB of this.members(maskB)) {
        this.fillAttackerGame(attackers, maskA, maskB, defenderA, defenderB);
        out[cell++] = matrixGameValue(attackers, pairs, pairs);
      }
    }
  }

  /**
   * Each entry of the attackers' game is the value of the keeping game that follows, built from
   * one table of what each (kept A attacker, kept B attacker) is worth, so that the pools below
   * are looked up once per pair of players rather than once per entry.
   */
  private fillAttackerGame(
    out: Float64Array,
    maskA: PlayerMask,
    maskB: PlayerMask,
    defenderA: number,
    defenderB: number,
  ): void {
    const { n, matrix: m } = this;
    const k = popcount(maskA);
    const restA = maskA & ~(1 << defenderA);
    const restB = maskB & ~(1 << defenderB);
    // worth[a*n + b]: A's attacker a kept by B's defender and B's attacker b kept by A's.
    const worth = this.scratch(k).worth;
    for (const a of this.members(restA)) {
      for (const b of this.members(restB)) {
        let w = m[a * n + defenderB] + m[defenderA * n + b];
        if (k > 4) w += this.positionValue(restA & ~(1 << a), restB & ~(1 << b));
        worth[a * n + b] = w;
      }
    }
    const columnOptions = this.pairs(restB);
    let cell = 0;
    for (const [a1, a2] of this.pairs(restA)) {
      // With four left, the player A did not offer meets the one B did not offer.
      const lastA = k === 4 ? onlyMember(restA & ~(1 << a1) & ~(1 << a2)) : -1;
      for (const [b1, b2] of columnOptions) {
        // Rows: A's defender keeps b1 or b2; columns: B's defender keeps a1 or a2.
        let e11 = worth[a1 * n + b1];
        let e12 = worth[a2 * n + b1];
        let e21 = worth[a1 * n + b2];
        let e22 = worth[a2 * n + b2];
        let last = 0;
        if (k <= 4) {
          // The refused attackers meet.
          e11 += m[a2 * n + b2];
          e12 += m[a1 * n + b2];
          e21 += m[a2 * n + b1];
          e22 += m[a1 * n + b1];
          if (k === 4) last = m[lastA * n + onlyMember(restB & ~(1 << b1) & ~(1 << b2))];
        }
        out[cell++] = value2x2(e11, e12, e21, e22) + last;
      }
    }
  }

  /**
   * The keeping game: A's defender keeps one of B's offered attackers (rows) while B's defender
   * keeps one of A's (columns).
   */
  keepGame(
    maskA: PlayerMask,
    maskB: PlayerMask,
    defenders: [number, number],
    offeredA: [number, number],
    offeredB: [number, number],
  ): ChoiceGame<number, number> {
    const payoffs = new Float64Array(4);
    this.fillKeepGame(payoffs, maskA, maskB, defenders[0], defenders[1], offeredA, offeredB);
    return { rowOptions: [...offeredB], columnOptions: [...offeredA], payoffs };
  }

  /** A's score when its player a meets B's player b. */
  at(a: number, b: number): number {
    return this.matrix[a * this.n + b];
  }

  private fillKeepGame(
    out: Float64Array,
    maskA: PlayerMask,
    maskB: PlayerMask,
    defenderA: number,
    defenderB: number,
    offeredA: [number, number],
    offeredB: [number, number],
  ): void {
    const k = popcount(maskA);
    const restA = maskA & ~(1 << defenderA);
    const restB = maskB & ~(1 << defenderB);
    for (let x = 0; x < 2; x++) {
      const keptB = offeredB[x];
      const refusedB = offeredB[1 - x];
      for (let y = 0; y < 2; y++) {
        const keptA = offeredA[y];
        const refusedA = offeredA[1 - y];
        const leftA = restA & ~(1 << keptA);
        const leftB = restB & ~(1 << keptB);
        let rest: number;
        // Four left: the refused meet and so do the last two; three left: the refused meet.
        if (k <= 4) {
          rest = this.at(refusedA, refusedB);
          if (k === 4) {
            rest += this.at(
              onlyMember(leftA & ~(1 << refusedA)),
              onlyMember(leftB & ~(1 << refusedB)),
            );
          }
        } else rest = this.positionValue(leftA, leftB);
        out[x * 2 + y] = this.at(defenderA, keptB) + this.at(keptA, defenderB) + rest;
      }
    }
  }

  private members(mask: PlayerMask): number[] {
    return (this.memberCache[mask] ??= membersOf(mask));
  }

  private pairs(mask: PlayerMask): [number, number][] {
    return (this.pairCache[mask] ??= pairsOf(mask));
  }
}
