/**
 * Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012): the per-period update of steps
 * 1-8 with the Illinois algorithm for the volatility, and a runner over a whole sequence of
 * rating periods. Pure: players are dense indexes, games are plain records.
 */

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
  const f = (x: number): number => {
    const ex = Math.exp(x);
    const d = phi2 + v + ex;
    return (ex * (delta2 - phi2 - v - ex)) / (2 * d * d) - (x - a) / tau2;
  };
  let A = a;
  let B = Number.NaN;
  if (delta2 > phi2 + v) {
    B = Math.log(delta2 - phi2 - v);
  } else {
    for (let k = 1; k <= MAX_BRACKET_STEPS; k += 1) {
      const x = a - k * tau;
      if (x === a) break; // τ is below the spacing of doubles near a: no step can move.
      if (f(x) >= 0) {
        B = x;
        break;
      }
    }
  }
  let fA = f(A);
  let fB = f(B);
  if (!Number.isFinite(fA) || !Number.isFinite(fB)) return sigma;
  for (let i = 0; Math.abs(B - A) > EPSILON; i += 1) {
    if (i === MAX_ILLINOIS_STEPS) return sigma; // not converging: the inputs are degenerate
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
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
  const phi = player.rd / GLICKO2_SCALE;
  const sigma = player.volatility;
  return {
    rating: player.rating,
    rd: GLICKO2_SCALE * Math.sqrt(phi * phi + periods * sigma * sigma),
    volatility: sigma,
  };
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
  let vInverse = 0;
  let sum = 0;
  for (const o of outcomes) {
    const muJ = (o.rating - CENTER) / GLICKO2_SCALE;
    const phiJ = o.rd / GLICKO2_SCALE;
    const gJ = g(phiJ);
    const e = expected(mu, muJ, phiJ);
    vInverse += gJ * gJ * e * (1 - e);
    sum += gJ * (o.score - e);
  }
  const v = 1 / vInverse;
  const delta = v * sum;
  const sigma = glicko2Volatility(phi, player.volatility, v, delta, tau);
  const phiStar = Math.sqrt(phi * phi + sigma * sigma);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: GLICKO2_SCALE * muNew + CENTER, rd: GLICKO2_SCALE * phiNew, volatility: sigma };
}

/** One game between two known players, already in processing order. */
export interface RatedGame {
  /** Dense player indexes (0..players-1). */
  a: number;
  b: number;
  /** Each side's score: 1 win, 0.5 draw, 0 loss (a double loss gives both 0). */
  scoreA: number;
  scoreB: number;
  /** Rating period index; non-decreasing along the sequence. */
  period: number;
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
  return Math.min(glicko2Idle(player, periods).rd, maxRd);
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
 * Runs Glicko-2 over games grouped into rating periods (Glickman 2012, "rating period"):
 * within a period every game uses the ratings of the period's start.
 */
export function runGlicko2(
  players: number,
  games: readonly RatedGame[],
  options: Glicko2Options,
): Glicko2Result {
  const rating = new Float64Array(players).fill(options.initialRating);
  const rd = new Float64Array(players).fill(options.initialRd);
  const volatility = new Float64Array(players).fill(options.initialVolatility);
  // The last period each player was rated in (or idled through); -1 before their first game.
  const lastPeriod = new Float64Array(players).fill(Number.NaN);
  const preRatingA = options.recordPreRatings ? new Float64Array(games.length) : undefined;
  const preRatingB = options.recordPreRatings ? new Float64Array(games.length) : undefined;
  const preRdA = options.recordPreRatings ? new Float64Array(games.length) : undefined;
  const preRdB = options.recordPreRatings ? new Float64Array(games.length) : undefined;
  const tracked: TrackedPeriod[] | undefined = options.trackPlayer === undefined ? undefined : [];
  const maxRd = options.initialRd;

  const catchUp = (p: number, period: number): void => {
    const last = lastPeriod[p];
    if (!options.calendarPeriods || Number.isNaN(last)) return;
    // Inactivity never makes a player less known than a newcomer.
    const state = { rating: rating[p], rd: rd[p], volatility: volatility[p] };
    rd[p] = idleRd(state, period - last - 1, maxRd);
  };

  let start = 0;
  while (start < games.length) {
    const period = games[start].period;
    let end = start;
    while (end < games.length && games[end].period === period) end += 1;

    const outcomes = new Map<number, Glicko2Outcome[]>();
    const add = (p: number, o: Glicko2Outcome): void => {
      const list = outcomes.get(p);
      if (list === undefined) outcomes.set(p, [o]);
      else list.push(o);
    };
    for (let i = start; i < end; i += 1) {
      const game = games[i];
      catchUp(game.a, period);
      catchUp(game.b, period);
      lastPeriod[game.a] = period;
      lastPeriod[game.b] = period;
    }
    for (let i = start; i < end; i += 1) {
      const { a, b, scoreA, scoreB } = games[i];
      if (preRatingA !== undefined && preRatingB !== undefined) {
        preRatingA[i] = rating[a];
        preRatingB[i] = rating[b];
        preRdA![i] = rd[a];
        preRdB![i] = rd[b];
      }
      add(a, { rating: rating[b], rd: rd[b], score: scoreA });
      add(b, { rating: rating[a], rd: rd[a], score: scoreB });
    }
    const updates: Array<[number, Glicko2Rating]> = [];
    for (const [p, list] of outcomes) {
      updates.push([
        p,
        glicko2Update(
          { rating: rating[p], rd: rd[p], volatility: volatility[p] },
          list,
          options.tau,
        ),
      ]);
    }
    for (const [p, next] of updates) {
      rating[p] = next.rating;
      rd[p] = next.rd;
      volatility[p] = next.volatility;
      if (p === options.trackPlayer) tracked?.push({ period, ...next });
    }
    start = end;
  }
  if (options.calendarPeriods && games.length > 0) {
    const last = Math.max(games[games.length - 1].period, options.finalPeriod ?? -Infinity);
    for (let p = 0; p < players; p += 1) catchUp(p, last + 1);
  }
  const result: Glicko2Result = { rating, rd, volatility };
  if (preRatingA !== undefined && preRatingB !== undefined) {
    Object.assign(result, { preRatingA, preRatingB, preRdA, preRdB });
  }
  if (tracked !== undefined) result.tracked = tracked;
  return result;
}
