/**
 * Empirical-Bayes shrinkage of win rates (docs/statistics.md#shrunk-win-rate): each cell's rate
 * is pulled toward a prior mean (its row's overall rate) by a beta prior whose strength, in
 * games, is fitted from the spread of all cells by the method of moments of the beta-binomial
 * model (Kleinman 1973; Robinson 1991 §3). A cell of n games with s successes is then
 * (s + m·μ) / (n + m): large cells barely move, cells of eight games move a lot.
 */

/** What meta.shrinkage reports: the prior's strength and the cells it was fitted on. */
export interface ShrinkageMeta {
  /** m = α + β of the beta prior, in games; null when the data cannot fit it. */
  priorStrength: number | null;
  /** Cells the fit used (at least one game and a prior mean strictly between 0 and 1). */
  cells: number;
}

/** Strength reported when the cells spread no more than chance (every cell pulled all the way). */
export const MAX_PRIOR_STRENGTH = 1_000_000;

/**
 * Accumulates cells (successes s of n, prior mean μ) for the moment fit of the intra-cell
 * correlation ρ = 1 / (m + 1): E[n (p − μ)²] = μ(1 − μ)(1 + (n − 1)ρ) under the beta-binomial,
 * so ρ̂ = (Σ n(p − μ)² − Σ μ(1 − μ)) / Σ μ(1 − μ)(n − 1) (docs/statistics.md#shrunk-win-rate).
 */
export class PriorFit {
  private spread = 0;
  private chance = 0;
  private excess = 0;
  private count = 0;

  /** Adds one cell; cells without games or with a degenerate prior mean tell nothing. */
  add(successes: number, n: number, priorMean: number | null): void {
    if (n <= 0 || priorMean === null || priorMean <= 0 || priorMean >= 1) return;
    const p = successes / n;
    const v = priorMean * (1 - priorMean);
    this.spread += n * (p - priorMean) ** 2;
    this.chance += v;
    this.excess += v * (n - 1);
    this.count++;
  }

  /** The fitted prior: null strength with under two cells or no cell of two games or more. */
  result(): ShrinkageMeta {
    if (this.count < 2 || this.excess <= 0) return { priorStrength: null, cells: this.count };
    const rho = (this.spread - this.chance) / this.excess;
    if (rho <= 1 / (MAX_PRIOR_STRENGTH + 1)) {
      return { priorStrength: MAX_PRIOR_STRENGTH, cells: this.count };
    }
    return { priorStrength: rho >= 1 ? 0 : 1 / rho - 1, cells: this.count };
  }
}

/**
 * (s + m·μ) / (n + m), the posterior mean under a Beta(m·μ, m·(1 − μ)) prior; the raw rate
 * when there is no fitted strength or prior mean; null without games.
 */
export function shrunkRate(
  successes: number,
  n: number,
  priorMean: number | null,
  strength: number | null,
): number | null {
  if (n <= 0) return null;
  if (strength === null || priorMean === null) return successes / n;
  return (successes + strength * priorMean) / (n + strength);
}
