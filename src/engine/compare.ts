/**
 * `compareTo` (docs/statistics.md#compareto): a row's figures in a second common filter beside
 * its own, the difference in win rate and Newcombe's interval for it.
 */
import { rateCounts, winRate, winRateInterval } from './common.ts';
import type { DrawRule } from '../domain/methodology.ts';
import { newcombe } from './intervals.ts';
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
  return {
    games: other.games,
    wins: other.wins,
    draws: other.draws,
    losses: other.losses,
    winRate: b,
    winRateInterval: winRateInterval(other.wins, other.draws, other.games, rule),
    difference: a !== null && b !== null ? a - b : null,
    differenceInterval: interval,
    excludesZero: interval === null ? null : interval.low > 0 || interval.high < 0,
  };
}
