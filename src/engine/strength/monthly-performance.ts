/**
 * A faction's performance against expectation per month (docs/statistics.md#faction-strength),
 * Aligulac's balance report: over its non-mirror games in scope, what its sides scored (the
 * score share where the system scores games, else 1 / ½ / 0) minus what their pilots' Glicko-2
 * ratings before the game's event predicted, per calendar month of the event's start.
 */
import { monthOfDay } from '../../domain/calendar-day.ts';
import { meanInterval } from '../intervals.ts';
import type { Interval } from '../intervals.ts';
import type { ScopeModel } from './scope-model.ts';

export interface MonthlyPerformance {
  /** "2025-01": the month its games' events started in. */
  month: string;
  /** Its non-mirror games that month. */
  games: number;
  /** Mean outcome of its sides. */
  scored: number;
  /** Mean pre-game Glicko-2 forecast of its sides. */
  expected: number;
  /** scored − expected: above 0 the army did better than its pilots' ratings said. */
  overExpected: number;
  /** 95 % Student-t interval of overExpected over the games; null under two games. */
  interval: Interval | null;
}

function monthLabel(key: number): string {
  return `${Math.floor(key / 12)}-${String((key % 12) + 1).padStart(2, '0')}`;
}

/** Faction f's (system index) months in scope, oldest first; months without its games left out. */
export function monthlyPerformance(fit: ScopeModel, f: number): MonthlyPerformance[] {
  const { games, rows } = fit;
  // Per month: games, Σ outcome, Σ forecast, Σ residual, Σ residual².
  const sums = new Map<number, Float64Array>();
  for (const r of rows) {
    const a = games.factionA[r];
    const b = games.factionB[r];
    if (a === b || (a !== f && b !== f)) continue;
    const outcome = a === f ? games.outcome[r] : 1 - games.outcome[r];
    const expected = a === f ? games.expected[r] : 1 - games.expected[r];
    const key = monthOfDay(games.day[r]);
    let s = sums.get(key);
    if (s === undefined) sums.set(key, (s = new Float64Array(5)));
    const residual = outcome - expected;
    s[0] += 1;
    s[1] += outcome;
    s[2] += expected;
    s[3] += residual;
    s[4] += residual * residual;
  }
  return [...sums.keys()]
    .sort((x, y) => x - y)
    .map((key) => {
      const [n, scored, expected, residual, squares] = sums.get(key)!;
      return {
        month: monthLabel(key),
        games: n,
        scored: scored / n,
        expected: expected / n,
        overExpected: residual / n,
        interval: meanInterval(n, residual, squares),
      };
    });
}
