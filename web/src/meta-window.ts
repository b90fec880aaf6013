/**
 * Where Meta opens (docs/operations.md#web-client): "right now", the current rules version (the
 * one whose first event is latest), or where the system records none, the last 12 months of its
 * data. Applied once per system and page load, only when the URL sets no window of its own
 * (`window=all` asks for all data), so clearing it in the filter bar shows all data and stays so.
 */
import type { SystemOptions } from './types.ts';
import type { Params } from './url-state.ts';

/** The current rules version of the system: the one whose first event is latest. */
export function currentRules(system: SystemOptions): { value: string; from: string } | null {
  let best: { value: string; from: string } | null = null;
  for (const r of system.rulesVersions) {
    if (best === null || r.from > best.from) best = { value: r.value, from: r.from };
  }
  return best;
}

/** The day a year before the system's last event date, plus one: its last 12 months. */
export function lastYearFrom(to: string): string {
  const d = new Date(`${to}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The URL patch of Meta's opening window, or null when the system has no data to cut. */
export function defaultWindow(system: SystemOptions): Record<string, string> | null {
  const rules = currentRules(system);
  if (rules !== null) return { rules: rules.value };
  if (system.to === null) return null;
  return { from: lastYearFrom(system.to) };
}

const applied = new Set<string>();

/**
 * The URL patch Meta is due: the opening window the first time it shows a system whose URL sets
 * no window (rules or dates); after that, a window cleared in the filter bar becomes
 * `window=all`, so that a link shows all data too. Null: nothing to change. Pure: openedOn
 * records the visit.
 */
export function openingWindow(
  system: SystemOptions,
  params: Params,
): Record<string, string> | null {
  if (params.window === 'all' || params.rules || params.from || params.to) return null;
  return applied.has(system.id) ? { window: 'all' } : defaultWindow(system);
}

/** Records that Meta has shown the system (its opening window is due no more). */
export function openedOn(system: SystemOptions): void {
  applied.add(system.id);
}

/**
 * The period the trend opens on: months when the window is at most 15 months long (quarters
 * would be five points or fewer), quarters otherwise.
 */
export function defaultPeriod(
  system: SystemOptions | undefined,
  params: Params,
): 'month' | 'quarter' {
  if (system === undefined || system.from === null || system.to === null) return 'quarter';
  const rules = params.rules
    ? system.rulesVersions.find((r) => r.value === params.rules)
    : undefined;
  const from = params.from || rules?.from || system.from;
  const to = params.to || rules?.to || system.to;
  const months = (Date.parse(to) - Date.parse(from)) / (30.44 * 86_400_000);
  return months <= 15 ? 'month' : 'quarter';
}
