/**
 * Interval estimates used by every route (docs/statistics.md): the Wilson score interval for
 * rates, Newcombe's hybrid score interval for a difference of two rates, and the Student-t
 * interval for means, all at 95%.
 */
import { ascendingOrder } from './ascending-order.ts';

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval (the 0.975 normal quantile). */
export const Z95 = 1.959963984540054;

/** Wilson score interval (Wilson 1927; Brown, Cai & DasGupta 2001) for `successes` of `n`. */
export function wilson(successes: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Newcombe's hybrid score interval for p1 − p2 of two independent proportions (Newcombe 1998,
 * method 10): each rate's Wilson limits combined by the square-and-add rule; null when either
 * sample is empty (docs/statistics.md#difference-of-win-rates).
 */
export function newcombe(x1: number, n1: number, x2: number, n2: number): Interval | null {
  const w1 = wilson(x1, n1);
  const w2 = wilson(x2, n2);
  if (w1 === null || w2 === null) return null;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const d = p1 - p2;
  return {
    low: d - Math.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2),
    high: d + Math.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2),
  };
}

/**
 * The event-clustered interval of a rate (docs/statistics.md#event-clustered-interval): the
 * Wilson interval on an effective sample size (Korn & Graubard 1998), n / deff · (z / t)², where
 * deff, floored at 1, is the cluster-robust variance of the ratio estimator (Σy / Σn, events as
 * clusters, CR1 small-sample factor C / (C − 1)) over the binomial one, and t the 0.975 quantile
 * of Student's t with C − 1 degrees of freedom. From the per-event sums Σy², Σyn, Σn² of
 * `clusters` events; [0, 1] with fewer than two events (one event says nothing of the spread
 * between events); null without games.
 */
export function clusteredInterval(
  successes: number,
  n: number,
  sumYY: number,
  sumYN: number,
  sumNN: number,
  clusters: number,
): Interval | null {
  if (n <= 0) return null;
  if (clusters < 2) return { low: 0, high: 1 };
  const p = successes / n;
  const binomial = (p * (1 - p)) / n;
  const robust = ((clusters / (clusters - 1)) * (sumYY - 2 * p * sumYN + p * p * sumNN)) / (n * n);
  const deff = binomial > 0 ? Math.max(1, robust / binomial) : 1;
  const effective = (n / deff) * (Z95 / tQuantile975(clusters - 1)) ** 2;
  return wilson(p * effective, effective);
}

function logGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9), Numerical Recipes 3rd ed. §6.1.
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

function betaContinuedFraction(a: number, b: number, x: number): number {
  // Lentz's method, Numerical Recipes 3rd ed. §6.4 (betacf).
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h;
}

/** Regularised incomplete beta I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x),
  );
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(a, b, x)) / a
    : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Student-t CDF for t >= 0 with `df` degrees of freedom. */
function studentTCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  return 1 - 0.5 * incompleteBeta(x, df / 2, 0.5);
}

const quantileCache = new Map<number, number>();

/** The 0.975 quantile of Student's t with `df` degrees of freedom (bisection on the CDF). */
export function tQuantile975(df: number): number {
  const cached = quantileCache.get(df);
  if (cached !== undefined) return cached;
  let lo = 0;
  let hi = 20;
  while (studentTCdf(hi, df) < 0.975) hi *= 2;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < 0.975) lo = mid;
    else hi = mid;
  }
  const q = (lo + hi) / 2;
  quantileCache.set(df, q);
  return q;
}

/** 95% t interval for a mean from n, sum and sum of squares; null under 2 samples. */
export function meanInterval(n: number, sum: number, sumSquares: number): Interval | null {
  if (n < 2) return null;
  const mean = sum / n;
  const variance = Math.max(0, (sumSquares - sum * mean) / (n - 1));
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { low: mean - half, high: mean + half };
}

/**
 * The complementary error function, erfc(x) for x >= 0, to within 1.2e-7 (Numerical Recipes,
 * 3rd ed., §6.2.2, erfcc's Chebyshev fit); enough for a p-value.
 */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -x * x -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(poly);
}

/**
 * Two-sided p-value of p1 − p2 = 0 for two independent proportions, by the pooled two-proportion
 * z-test (docs/statistics.md#emphasis); null when either sample is empty, 1 when the pooled rate
 * is 0 or 1 (no spread, no evidence of a difference).
 */
export function twoProportionP(x1: number, n1: number, x2: number, n2: number): number | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (!(se > 0)) return 1;
  const z = Math.abs(x1 / n1 - x2 / n2) / se;
  return Math.min(1, erfc(z / Math.SQRT2));
}

/**
 * Benjamini–Hochberg adjusted p-values (Benjamini & Hochberg 1995, the step-up false discovery
 * rate procedure; docs/statistics.md#emphasis): p(i) · m / i, made monotone from the largest
 * down and capped at 1, over the m p-values that are not null; null stays null.
 */
export function benjaminiHochberg(ps: readonly (number | null)[]): (number | null)[] {
  // The known p-values in ascending order (ascending-order.ts), then one pass from the largest
  // down; p-values that tie share one adjusted value whatever their order (the running minimum
  // already holds p·m/(k+1) < p·m/k), that of the first of their ties.
  let m = 0;
  for (const p of ps) if (p !== null) m++;
  const known = new Float64Array(m);
  const at = new Int32Array(m);
  m = 0;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    if (p === null) continue;
    known[m] = p;
    at[m++] = i;
  }
  const order = ascendingOrder(known);
  const adjusted = new Float64Array(m);
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    running = Math.min(running, (known[order[k]] * m) / (k + 1));
    adjusted[k] = Math.min(1, running);
  }
  const out: (number | null)[] = new Array<number | null>(ps.length).fill(null);
  for (let k = 0, first = 0; k < m; k++) {
    if (k > 0 && known[order[k]] !== known[order[k - 1]]) first = k;
    out[at[order[k]]] = adjusted[first];
  }
  return out;
}
