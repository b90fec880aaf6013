/**
 * Win rates under the draw rule and their intervals (docs/statistics.md#win-rate,
 * docs/statistics.md#methodology-switches), and a mean with its interval.
 */
import type { DrawRule } from '../domain/methodology.ts';
import { DomainError } from '../domain/domain-error.ts';
import { clusteredInterval, meanInterval, wilson } from './intervals.ts';
import type { Interval } from './intervals.ts';

/**
 * A win rate's successes and trials under the draw rule (docs/statistics.md#methodology-switches):
 * a draw is half a success of one game, or no game at all.
 */
export function rateCounts(
  wins: number,
  draws: number,
  games: number,
  rule: DrawRule = 'half',
): { successes: number; trials: number } {
  return rule === 'half'
    ? { successes: wins + draws / 2, trials: games }
    : { successes: wins, trials: games - draws };
}

/** (wins + draws / 2) / games (or wins / (games − draws)), or null without games counted. */
export function winRate(
  wins: number,
  draws: number,
  games: number,
  rule: DrawRule = 'half',
): number | null {
  const { successes, trials } = rateCounts(wins, draws, games, rule);
  return trials > 0 ? successes / trials : null;
}

/** The Wilson interval of the win rate on the games the draw rule counts. */
export function winRateInterval(
  wins: number,
  draws: number,
  games: number,
  rule: DrawRule = 'half',
): Interval | null {
  const { successes, trials } = rateCounts(wins, draws, games, rule);
  return wilson(successes, trials);
}

/**
 * Refuses draws "exclude" with event-clustered intervals: the cluster planes hold each event's
 * wins + draws/2 only (docs/statistics.md#methodology-switches).
 */
export function assertIntervalFitsDraws(rule: DrawRule, interval: IntervalKind | undefined): void {
  if (rule === 'exclude' && interval === 'event-clustered') {
    const detail = 'draws "exclude" has Wilson intervals only; ask interval "wilson"';
    throw new DomainError('invalid-query', detail, [{ pointer: '/draws', detail }]);
  }
}

/** How rate intervals are computed (docs/statistics.md#event-clustered-interval). */
export type IntervalKind = 'wilson' | 'event-clustered';

/**
 * The event-clustered interval of the rate of `key` in a cluster plane (cube/cluster-cube.ts:
 * slots Σy², Σyn, Σn², events) for `successes` of `games` (docs/statistics.md).
 */
export function clusteredRateInterval(
  clusters: Float64Array,
  key: number,
  successes: number,
  games: number,
): Interval | null {
  const b = key * 4;
  return clusteredInterval(
    successes,
    games,
    clusters[b],
    clusters[b + 1],
    clusters[b + 2],
    clusters[b + 3],
  );
}

export function mean(n: number, sum: number): number | null {
  return n > 0 ? sum / n : null;
}

export { meanInterval };
