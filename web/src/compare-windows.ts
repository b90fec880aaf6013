/**
 * The two windows of the before/after view (docs/statistics.md#compareto): "before" is sent as
 * `compareTo`, "after" as the request's own dates and rules versions, so each row's `difference`
 * reads as after − before. Both live in the URL (beforeFrom, beforeTo, beforeRules, afterFrom,
 * afterTo, afterRules), so a link restores the comparison and back steps through the choices.
 */
import type { CommonFilter, SystemOptions } from './types.ts';
import type { Params } from './url-state.ts';

export interface Window {
  from: string;
  to: string;
  /** One rules version, or '' for every version. */
  rules: string;
}

export interface Windows {
  before: Window;
  after: Window;
}

const SIDES = ['before', 'after'] as const;
const FIELDS = { from: 'From', to: 'To', rules: 'Rules' } as const;

/** The URL key of one window's field: beforeFrom, afterRules, ... */
export const windowKey = (side: keyof Windows, field: keyof Window): string =>
  `${side}${FIELDS[field]}`;

/** Every URL key the view owns. */
export const WINDOW_KEYS: string[] = SIDES.flatMap((s) =>
  (Object.keys(FIELDS) as Array<keyof Window>).map((f) => windowKey(s, f)),
);

/** The system's rules versions, oldest first ("2.10" after "2.9": numbers compare as numbers). */
export function rulesOrder(system: SystemOptions): string[] {
  return system.rulesVersions
    .map((r) => r.value)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** The day before a YYYY-MM-DD date. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The day halfway between two YYYY-MM-DD dates. */
function midpoint(from: string, to: string): string {
  const mid = (Date.parse(`${from}T00:00:00Z`) + Date.parse(`${to}T00:00:00Z`)) / 2;
  return new Date(Math.floor(mid / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The comparison shown before the user picks one: the latest rules update when the data has one
 * (rulesUpdates), else the system's date range cut in half.
 */
export function defaultWindows(system: SystemOptions): Windows {
  const updates = rulesUpdates(system);
  if (updates.length > 0) return updates[updates.length - 1].windows;
  if (system.from === null || system.to === null || system.from === system.to) {
    return { before: { from: '', to: '', rules: '' }, after: { from: '', to: '', rules: '' } };
  }
  const mid = midpoint(system.from, system.to);
  return {
    before: { from: system.from, to: dayBefore(mid), rules: '' },
    after: { from: mid, to: system.to, rules: '' },
  };
}

/** True when the URL names at least one field of either window. */
export const hasWindows = (params: Params): boolean => WINDOW_KEYS.some((k) => params[k]);

/** The windows the URL names, or the default ones when it names none. */
export function windowsOf(params: Params, system: SystemOptions): Windows {
  if (!hasWindows(params)) return defaultWindows(system);
  const read = (side: keyof Windows): Window => ({
    from: params[windowKey(side, 'from')] ?? '',
    to: params[windowKey(side, 'to')] ?? '',
    rules: params[windowKey(side, 'rules')] ?? '',
  });
  return { before: read('before'), after: read('after') };
}

/** The URL patch that shows these windows. */
export function windowsPatch(windows: Windows): Record<string, string> {
  const patch: Record<string, string> = {};
  for (const side of SIDES)
    for (const field of Object.keys(FIELDS) as Array<keyof Window>)
      patch[windowKey(side, field)] = windows[side][field];
  return patch;
}

/** One window as the date and rules part of a common filter. */
export function windowFilter(window: Window): Pick<CommonFilter, 'from' | 'to' | 'rulesVersions'> {
  const part: Pick<CommonFilter, 'from' | 'to' | 'rulesVersions'> = {};
  if (window.from) part.from = window.from;
  if (window.to) part.to = window.to;
  if (window.rules) part.rulesVersions = [window.rules];
  return part;
}

/** "2.1", "2025-01-01 – 2025-06-30", "rules 2.1, from 2025-01-01", or "all games". */
export function describeWindow(window: Window): string {
  const parts: string[] = [];
  if (window.rules) parts.push(`rules ${window.rules}`);
  if (window.from && window.to) parts.push(`${window.from} – ${window.to}`);
  else if (window.from) parts.push(`from ${window.from}`);
  else if (window.to) parts.push(`until ${window.to}`);
  return parts.join(', ') || 'all games';
}

/**
 * The quick choices "before/after V (from D)": a rules update is a date cut at the first event
 * of its version (GET /api/filters gives each version's dates). "Before" runs from the previous
 * update to the day before the cut, "after" from the cut to the day before the next update (or
 * the end of the data), so each window holds the games of one rules period. Oldest first; a
 * version whose first event is the system's first, or on the same day as another's, is no cut.
 */
export function rulesUpdates(system: SystemOptions): Array<{ label: string; windows: Windows }> {
  const cuts = [...system.rulesVersions]
    .sort(
      (a, b) =>
        a.from.localeCompare(b.from) || a.value.localeCompare(b.value, 'en', { numeric: true }),
    )
    .filter((v, i, all) => i === 0 || v.from !== all[i - 1].from);
  const start = system.from ?? cuts[0]?.from ?? '';
  const end = system.to ?? '';
  return cuts.flatMap((v, i) => {
    if (v.from <= start) return [];
    const next = cuts[i + 1];
    return [
      {
        label: `before/after ${v.value} (from ${v.from})`,
        windows: {
          before: { from: i > 0 ? cuts[i - 1].from : start, to: dayBefore(v.from), rules: '' },
          after: { from: v.from, to: next ? dayBefore(next.from) : end, rules: '' },
        },
      },
    ];
  });
}
