/**
 * Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012): the per-period update of steps
 * 1-8 with the Illinois algorithm for the volatility, and a runner over a whole sequence of
 * rating periods. Pure: players are dense indexes, games are plain records or columns.
 */
import { throwIfCancelled, throwIfCancelledEvery } from '../cancellation.ts';
import { columnsOfRatedGames } from './rated-columns.ts';
import type { RatedGame } from './rated-columns.ts';

export type { RatedGame } from './rated-columns.ts';
import type { RatedColumns } from './rated-columns.ts';

/** Glicko-2's scale factor between the Glicko and Glicko-2 scales (paper, step 2). */
export const GLICKO2_SCALE = 173.7178;
const CENTER = 1500;
/** Convergence tolerance of step 5 (paper: 0.000001). */
const EPSILON = 0.000001;

export interface Glicko2Rating {
  rating: number;
  rd: number;
  volatility: number;
}

export interface Glicko2Outcome {
  /** The opponent's rating and RD as they stood at the start of the period. */
  rating: number;
  rd: number;
  /** 1 win, 0.5 draw, 0 loss. */
  score: number;
}

function g(phi: number): number {
  return 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
}

function expected(mu: number, muJ: number, phiJ: number): number {
  return 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));
}

/**
 * Iteration caps of step 5. Illinois converges in a handful of steps for any sane input, and
 * f(a − kτ) > 0 once k > τ/2 (its first term is above −1/2), so the bracket search needs at
 * most τ/2 + 1 steps for τ up to the schema's bound; the caps only stop degenerate inputs (a τ
 * below the floating-point spacing of a, infinities, NaN) from looping for ever.
 */
const MAX_BRACKET_STEPS = 100;
const MAX_ILLINOIS_STEPS = 100;

/**
 * Step 5.1's f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a) / τ² (Glickman 2012). A
 * module function rather than a closure per call: the runner calls step 5 once per player and
 * period, and the TypeScript loader names every closure it creates.
 */
function volatilityF(
  x: number,
  a: number,
  delta2: number,
  phi2: number,
  v: number,
  tau2: number,
): number {
  const ex = Math.exp(x);
  const d = phi2 + v + ex;
  return (ex * (delta2 - phi2 - v - ex)) / (2 * d * d) - (x - a) / tau2;
}

/**
 * Step 5: the new volatility by the Illinois algorithm (Glickman 2012, step 5.1-5.5), with the
 * tolerance ε = 0.000001 and hard iteration caps. When the iteration cannot run in floating
 * point (τ so small that a − kτ = a, a non-finite f, no convergence within the cap), the
 * volatility is kept: that is the limit of step 5 as τ → 0, where volatility cannot change.
 */
export function glicko2Volatility(
  phi: number,
  sigma: number,
  v: number,
  delta: number,
  tau: number,
): number {
  const a = Math.log(sigma * sigma);
  const delta2 = delta * delta;
  const phi2 = phi * phi;
  const tau2 = tau * tau;
  if (!(tau2 > 0) || !Number.isFinite(tau2) || !Number.isFinite(a)) return sigma;
  let A = a;
  let B = Number.NaN;
  if (delta2 > phi2 + v) {
    B = Math.log(delta2 - phi2 - v);
  } else {
    for (let k = 1; k <= MAX_BRACKET_STEPS; k += 1) {
      const x = a - k * tau;
      if (x === a) break; // τ is below the spacing of doubles near a: no step can move.
      if (volatilityF(x, a, delta2, phi2, v, tau2) >= 0) {
        B = x;
        break;
      }
    }
  }
  let fA = volatilityF(A, a, delta2, phi2, v, tau2);
  let fB = volatilityF(B, a, delta2, phi2, v, tau2);
  if (!Number.isFinite(fA) || !Number.isFinite(fB)) return sigma;
  for (let i = 0; Math.abs(B - A) > EPSILON; i += 1) {
    if (i === MAX_ILLINOIS_STEPS) return sigma; // not converging: the inputs are degenerate
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = volatilityF(C, a, delta2, phi2, v, tau2);
    if (!Number.isFinite(fC)) return sigma;
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const next = Math.exp(A / 2);
  return Number.isFinite(next) && next > 0 ? next : sigma;
}

/** Steps 6 alone: a period without games only widens the deviation (paper, step 6 note). */
export function glicko2Idle(player: Glicko2Rating, periods = 1): Glicko2Rating {
  return {
    rating: player.rating,
    rd: idleDeviation(player.rd, player.volatility, periods),
    volatility: player.volatility,
  };
}

/** The deviation after `periods` idle periods: φ* = √(φ² + n·σ²) (Glickman 2012, step 6). */
function idleDeviation(rd: number, volatility: number, periods: number): number {
  const phi = rd / GLICKO2_SCALE;
  return GLICKO2_SCALE * Math.sqrt(phi * phi + periods * volatility * volatility);
}

/**
 * Steps 3 and 4 of Glickman (2012) for one outcome: adds g(φj)²·E·(1 − E) to `sums[at]` (the
 * inverse of v) and g(φj)·(s − E) to `sums[at + 1]` (Δ / v), E against the opponent's rating
 * and deviation as they stood at the start of the period.
 */
function addOutcome(
  sums: Float64Array,
  at: number,
  mu: number,
  rating: number,
  rd: number,
  score: number,
): void {
  const muJ = (rating - CENTER) / GLICKO2_SCALE;
  const phiJ = rd / GLICKO2_SCALE;
  const gJ = g(phiJ);
  const e = expected(mu, muJ, phiJ);
  sums[at] += gJ * gJ * e * (1 - e);
  sums[at + 1] += gJ * (score - e);
}

/** Steps 5-8 of Glickman (2012) from the sums of steps 3-4 over a period's outcomes. */
function updateFromSums(
  mu: number,
  phi: number,
  volatility: number,
  vInverse: number,
  sum: number,
  tau: number,
): Glicko2Rating {
  const v = 1 / vInverse;
  const delta = v * sum;
  const sigma = glicko2Volatility(phi, volatility, v, delta, tau);
  const phiStar = Math.sqrt(phi * phi + sigma * sigma);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: GLICKO2_SCALE * muNew + CENTER, rd: GLICKO2_SCALE * phiNew, volatility: sigma };
}

/** Steps 1-8 of Glickman (2012) for one player over one rating period. */
export function glicko2Update(
  player: Glicko2Rating,
  outcomes: readonly Glicko2Outcome[],
  tau: number,
): Glicko2Rating {
  if (outcomes.length === 0) return glicko2Idle(player);
  const mu = (player.rating - CENTER) / GLICKO2_SCALE;
  const phi = player.rd / GLICKO2_SCALE;
  const sums = new Float64Array(2);
  for (const o of outcomes) addOutcome(sums, 0, mu, o.rating, o.rd, o.score);
  return updateFromSums(mu, phi, player.volatility, sums[0], sums[1], tau);
}

export interface Glicko2Options {
  initialRating: number;
  initialRd: number;
  initialVolatility: number;
  tau: number;
  /**
   * When true, period indexes count every rating period (each event, week or month in scope):
   * a player sitting out periods after their first game gets step 6 alone once for each
   * (Glickman 2012, step 6 note), up to the last period. When false, absence is not a period
   * of theirs (the faction "skill" statistic rates that way).
   */
  calendarPeriods: boolean;
  /** Idle players through this period index too (e.g. the period holding `asOf`). */
  finalPeriod?: number;
  /** Record each game's pre-period ratings and deviations (skill, prediction quality). */
  recordPreRatings?: boolean;
  /** Record this player's values after each period they are rated in (a player's history). */
  trackPlayer?: number;
}

/** One player's values after a rating period they played in. */
export interface TrackedPeriod extends Glicko2Rating {
  period: number;
}

export interface Glicko2Result {
  rating: Float64Array;
  rd: Float64Array;
  volatility: Float64Array;
  /** Per game (same order as the input): both players' ratings before the game's period. */
  preRatingA?: Float64Array;
  preRatingB?: Float64Array;
  preRdA?: Float64Array;
  preRdB?: Float64Array;
  /** With trackPlayer: that player's values after each of their periods, in order. */
  tracked?: TrackedPeriod[];
}

/** The deviation after `periods` idle periods, never above `maxRd` (a newcomer's). */
export function idleRd(player: Glicko2Rating, periods: number, maxRd: number): number {
  if (periods <= 0) return player.rd;
  return Math.min(idleDeviation(player.rd, player.volatility, periods), maxRd);
}

/** Glicko-2's expected score of a player against an opponent (Glickman 2012, step 3's E). */
export function glicko2Expected(
  rating: number,
  opponentRating: number,
  opponentRd: number,
): number {
  return expected(
    (rating - CENTER) / GLICKO2_SCALE,
    (opponentRating - CENTER) / GLICKO2_SCALE,
    opponentRd / GLICKO2_SCALE,
  );
}

/**
 * One game's part of a period's rating change (Glickman 2012, step 7): μ' − μ is φ'² times the
 * sum over the period's games of g(φⱼ)(sⱼ − E), so each game's term, on the rating scale, is
 * its share, and the shares of a period add up to the change.
 */
export function glicko2GameShare(
  rating: number,
  rdAfter: number,
  opponentRating: number,
  opponentRd: number,
  score: number,
): number {
  const phiNew = rdAfter / GLICKO2_SCALE;
  const phiJ = opponentRd / GLICKO2_SCALE;
  const e = glicko2Expected(rating, opponentRating, opponentRd);
  return GLICKO2_SCALE * phiNew * phiNew * g(phiJ) * (score - e);
}

/**
 * Runs Glicko-2 over games grouped into rating periods (Glickman 2012, "rating period"):
 * within a period every game uses the ratings of the period's start.
 */
export function runGlicko2(
  players: number,
  games: readonly RatedGame[],
  options: Glicko2Options,
): Glicko2Result {
  return runGlicko2Columns(players, columnsOfRatedGames(games), options);
}

/** Players' values during a run, by player index. */
interface RunState {
  rating: Float64Array;
  rd: Float64Array;
  volatility: Float64Array;
  /** The last period each player was rated in (or idled through); NaN before their first game. */
  lastPeriod: Float64Array;
}

/**
 * Step 6 alone for each period the player sat out since their last one, before `period`
 * (Glickman 2012, step 6 note); inactivity never makes a player less known than a newcomer.
 */
function catchUp(state: RunState, p: number, period: number, options: Glicko2Options): void {
  const last = state.lastPeriod[p];
  if (!options.calendarPeriods || Number.isNaN(last)) return;
  const idle = period - last - 1;
  // idleRd, written out so that no object is made per player and period.
  if (idle <= 0) return;
  state.rd[p] = Math.min(idleDeviation(state.rd[p], state.volatility[p], idle), options.initialRd);
}

/** The players of one period in the order they first play in it, with their step 3-4 sums. */
class PeriodSums {
  /** Per player p: sums[2p] the inverse of v, sums[2p + 1] the sum behind Δ (addOutcome). */
  readonly sums: Float64Array;
  readonly players: Int32Array;
  size = 0;
  private readonly inPeriod: Uint8Array;

  constructor(players: number) {
    this.sums = new Float64Array(2 * players);
    this.players = new Int32Array(players);
    this.inPeriod = new Uint8Array(players);
  }

  /** Adds an outcome of player p against an opponent as they stood at the period's start. */
  add(state: RunState, p: number, opponent: number, score: number): void {
    if (this.inPeriod[p] === 0) {
      this.inPeriod[p] = 1;
      this.players[this.size++] = p;
    }
    const mu = (state.rating[p] - CENTER) / GLICKO2_SCALE;
    addOutcome(this.sums, 2 * p, mu, state.rating[opponent], state.rd[opponent], score);
  }

  /** Empties the period (its players' sums back to 0). */
  clear(): void {
    for (let i = 0; i < this.size; i += 1) {
      const p = this.players[i];
      this.inPeriod[p] = 0;
      this.sums[2 * p] = 0;
      this.sums[2 * p + 1] = 0;
    }
    this.size = 0;
  }
}

/** Steps 1-8 for every player of the period, from the sums of its games. */
function updatePlayers(
  state: RunState,
  sums: PeriodSums,
  period: number,
  options: Glicko2Options,
  tracked: TrackedPeriod[] | undefined,
): void {
  // Each update reads only the player's own values and sums, so updating in place is the
  // same as updating everyone at once at the period's end.
  for (let i = 0; i < sums.size; i += 1) {
    throwIfCancelledEvery(i);
    const p = sums.players[i];
    const mu = (state.rating[p] - CENTER) / GLICKO2_SCALE;
    const phi = state.rd[p] / GLICKO2_SCALE;
    const vInverse = sums.sums[2 * p];
    const sum = sums.sums[2 * p + 1];
    const next = updateFromSums(mu, phi, state.volatility[p], vInverse, sum, options.tau);
    state.rating[p] = next.rating;
    state.rd[p] = next.rd;
    state.volatility[p] = next.volatility;
    if (p === options.trackPlayer) tracked?.push({ period, ...next });
  }
}

/** Per game: both players' ratings and deviations before the game's period. */
interface PreRatings {
  preRatingA: Float64Array;
  preRatingB: Float64Array;
  preRdA: Float64Array;
  preRdB: Float64Array;
}

function newPreRatings(n: number): PreRatings {
  return {
    preRatingA: new Float64Array(n),
    preRatingB: new Float64Array(n),
    preRdA: new Float64Array(n),
    preRdB: new Float64Array(n),
  };
}

/** runGlicko2 over games as columns (rated-columns.ts); the same numbers, no object per game. */
export function runGlicko2Columns(
  players: number,
  games: RatedColumns,
  options: Glicko2Options,
): Glicko2Result {
  const state: RunState = {
    rating: new Float64Array(players).fill(options.initialRating),
    rd: new Float64Array(players).fill(options.initialRd),
    volatility: new Float64Array(players).fill(options.initialVolatility),
    lastPeriod: new Float64Array(players).fill(Number.NaN),
  };
  const pre = options.recordPreRatings ? newPreRatings(games.length) : undefined;
  const tracked: TrackedPeriod[] | undefined = options.trackPlayer === undefined ? undefined : [];
  const sums = new PeriodSums(players);
  const { a, b, scoreA, scoreB } = games;

  let start = 0;
  while (start < games.length) {
    const period = games.period[start];
    let end = start;
    while (end < games.length && games.period[end] === period) end += 1;
    for (let i = start; i < end; i += 1) {
      throwIfCancelledEvery(i);
      catchUp(state, a[i], period, options);
      catchUp(state, b[i], period, options);
      state.lastPeriod[a[i]] = period;
      state.lastPeriod[b[i]] = period;
    }
    for (let i = start; i < end; i += 1) {
      throwIfCancelledEvery(i);
      if (pre !== undefined) {
        pre.preRatingA[i] = state.rating[a[i]];
        pre.preRatingB[i] = state.rating[b[i]];
        pre.preRdA[i] = state.rd[a[i]];
        pre.preRdB[i] = state.rd[b[i]];
      }
      sums.add(state, a[i], b[i], scoreA[i]);
      sums.add(state, b[i], a[i], scoreB[i]);
    }
    updatePlayers(state, sums, period, options, tracked);
    sums.clear();
    start = end;
    throwIfCancelled();
  }
  if (options.calendarPeriods && games.length > 0) {
    const last = Math.max(games.period[games.length - 1], options.finalPeriod ?? -Infinity);
    for (let p = 0; p < players; p += 1) {
      throwIfCancelledEvery(p);
      catchUp(state, p, last + 1, options);
    }
  }
  const { rating, rd, volatility } = state;
  const result: Glicko2Result = { rating, rd, volatility };
  if (pre !== undefined) Object.assign(result, pre);
  if (tracked !== undefined) result.tracked = tracked;
  return result;
}
