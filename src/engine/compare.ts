/**
 * `compareTo` (docs/statistics.md#compareto): a row's figures in a second common filter beside
 * its own, the difference in win rate and Newcombe's interval for it.
 */
import { rateCounts, winRate, winRateInterval } from './win-rate.ts';
import type { DrawRule } from '../domain/methodology.ts';
import { benjaminiHochberg, newcombe, twoProportionP } from './intervals.ts';
import type { Interval } from './intervals.ts';

/** Counted results of a row in one window. */
export interface Tally {
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** The other window's figures of a row and how its win rate differs from this one's. */
export interface Comparison extends Tally {
  winRate: number | null;
  winRateInterval: Interval | null;
  /** This window's win rate minus the other's. */
  difference: number | null;
  differenceInterval: Interval | null;
  /** True when differenceInterval lies wholly above or below 0; null without an interval. */
  excludesZero: boolean | null;
  /** Two-sided p-value of the difference (docs/statistics.md#emphasis); null without games. */
  pValue: number | null;
  /**
   * pValue adjusted by Benjamini–Hochberg over every comparison answered with it
   * (docs/statistics.md#emphasis); null without games.
   */
  adjustedPValue: number | null;
  /** Both windows hold at least EMPHASIS_MIN_GAMES games (docs/statistics.md#emphasis). */
  enoughGames: boolean;
  /**
   * Whether the change may be emphasised (bold, "changed most"): enough games in both windows,
   * an interval that excludes 0, and an adjusted p-value under EMPHASIS_FDR.
   */
  emphasised: boolean;
}

/**
 * The sample a difference needs on each side before it is emphasised (bold, listed as "changed
 * most", sorted first), in games or lists (docs/statistics.md#emphasis).
 */
export const EMPHASIS_MIN_GAMES = 20;

/** The false discovery rate at which Benjamini–Hochberg passes a change (docs/statistics.md#emphasis). */
export const EMPHASIS_FDR = 0.05;

/** Whether a difference may be emphasised (docs/statistics.md#emphasis). */
export function emphasisable(
  enough: boolean,
  excludesZero: boolean | null,
  adjustedPValue: number | null,
): boolean {
  return (
    enough && excludesZero === true && adjustedPValue !== null && adjustedPValue < EMPHASIS_FDR
  );
}

/**
 * Corrects comparisons answered together for their number (docs/statistics.md#emphasis): each
 * one's adjustedPValue is its Benjamini–Hochberg value over the family, and `emphasised` is
 * recomputed from it. Comparisons that are one and the same (a matchup seen from either side)
 * should be passed once each and copied after.
 */
export function adjustComparisons(family: readonly Comparison[]): void {
  const adjusted = benjaminiHochberg(family.map((c) => c.pValue));
  family.forEach((c, i) => {
    c.adjustedPValue = adjusted[i];
    c.emphasised = emphasisable(c.enoughGames, c.excludesZero, c.adjustedPValue);
  });
}

export const NO_GAMES: Tally = { games: 0, wins: 0, draws: 0, losses: 0 };

/**
 * Compares a row's tally with its tally in the other window: difference = this − other, with
 * Newcombe's hybrid score interval (Newcombe 1998, method 10) on the successes and games the
 * draw rule counts (docs/statistics.md#methodology-switches).
 */
export function compareTallies(own: Tally, other: Tally, rule: DrawRule = 'half'): Comparison {
  const a = winRate(own.wins, own.draws, own.games, rule);
  const b = winRate(other.wins, other.draws, other.games, rule);
  const x = rateCounts(own.wins, own.draws, own.games, rule);
  const y = rateCounts(other.wins, other.draws, other.games, rule);
  const interval = newcombe(x.successes, x.trials, y.successes, y.trials);
  const excludesZero = interval === null ? null : interval.low > 0 || interval.high < 0;
  const pValue = twoProportionP(x.successes, x.trials, y.successes, y.trials);
  const enoughGames = own.games >= EMPHASIS_MIN_GAMES && other.games >= EMPHASIS_MIN_GAMES;
  return {
    games: other.games,
    wins: other.wins,
    draws: other.draws,
    losses: other.losses,
    winRate: b,
    winRateInterval: winRateInterval(other.wins, other.draws, other.games, rule),
    difference: a !== null && b !== null ? a - b : null,
    differenceInterval: interval,
    excludesZero,
    pValue,
    // Alone, a comparison is its own family; adjustComparisons corrects a larger one.
    adjustedPValue: pValue,
    enoughGames,
    emphasised: emphasisable(enoughGames, excludesZero, pValue),
  };
}
