/**
 * Over-representation (docs/statistics.md#over-representation): a faction's share of an
 * outcome (top-10% finishes, X-0 runs, event wins) over its share of entries, over the events
 * whose placings are published or derived by the system's rule, with a 95% delta-method interval.
 */
import type { Interval } from './intervals.ts';
import { Z95 } from './intervals.ts';

export interface OverRatio {
  /** The faction's entries with the outcome. */
  count: number;
  /** Every entry of the field with the outcome. */
  fieldCount: number;
  /** count / fieldCount: the faction's share of the outcome. */
  share: number | null;
  /** (count / fieldCount) / (entries / fieldEntries); null with `reason`. */
  ratio: number | null;
  interval: Interval | null;
  reason: string | null;
}

export interface OverRepresentation {
  /** Events in scope with published or rule-derived placings (and a standings entry). */
  events: number;
  /** The faction's entries in those events. */
  entries: number;
  /** Every entry with a faction in those events. */
  fieldEntries: number;
  /** entries / fieldEntries. */
  entryShare: number | null;
  topTen: OverRatio;
  undefeated: OverRatio;
  eventWins: OverRatio;
}

export const NO_PLACED_EVENTS = 'no event in scope has published or rule-derived placings';
const NO_ENTRIES = 'the faction has no entry in the events with placings';
const NO_OUTCOME = 'no entry of the field has this outcome in the events with placings';

/**
 * Ratio R = (a / A) / (n / N) = (a / n) / (A / N) of a faction's rate of an outcome (a of its n
 * entries) to the field's (A of N, the faction's included), with the delta-method 95% interval
 * on log R: Var = 1/a − 1/n − 1/A − 1/N + 2a/(nA), the two binomial log-rate variances less twice
 * their covariance (the faction's entries are part of the field's). With a = 0 the ratio is 0,
 * the low limit 0 and the high one computed with a = 0.5 (docs/statistics.md#over-representation).
 */
export function overRatio(a: number, n: number, fieldA: number, fieldN: number): OverRatio {
  const base = { count: a, fieldCount: fieldA, share: fieldA > 0 ? a / fieldA : null };
  if (fieldN === 0) return { ...base, ratio: null, interval: null, reason: NO_PLACED_EVENTS };
  if (n === 0) return { ...base, ratio: null, interval: null, reason: NO_ENTRIES };
  if (fieldA === 0) return { ...base, ratio: null, interval: null, reason: NO_OUTCOME };
  const ratio = a / n / (fieldA / fieldN);
  const x = a === 0 ? 0.5 : a;
  const variance = Math.max(0, 1 / x - 1 / n - 1 / fieldA - 1 / fieldN + (2 * x) / (n * fieldA));
  const centre = Math.log(x / n / (fieldA / fieldN));
  const half = Z95 * Math.sqrt(variance);
  return {
    ...base,
    ratio,
    interval: { low: a === 0 ? 0 : Math.exp(centre - half), high: Math.exp(centre + half) },
    reason: null,
  };
}

/** Counts of one faction and of the field, over the events with placings. */
export interface OverCounts {
  events: number;
  entries: number;
  top: number;
  undefeated: number;
  wins: number;
}

/** A faction's over-representation from its counts and the field's. */
export function overRepresentation(
  faction: Omit<OverCounts, 'events'>,
  field: OverCounts,
): OverRepresentation {
  const of = (a: number, fieldA: number) =>
    overRatio(a, faction.entries, fieldA, field.events > 0 ? field.entries : 0);
  return {
    events: field.events,
    entries: faction.entries,
    fieldEntries: field.entries,
    entryShare: field.entries > 0 ? faction.entries / field.entries : null,
    topTen: of(faction.top, field.top),
    undefeated: of(faction.undefeated, field.undefeated),
    eventWins: of(faction.wins, field.wins),
  };
}
