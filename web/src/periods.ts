/** The trend charts' periods (quarters, months): a gapless run, labels, and whether one is partial. */

/** Every period from the first to the last, gaps filled, so the x axis is even. */
export function periodRun(first: string, last: string): string[] {
  const quarter = /^\d{4}-Q\d$/.test(first);
  const index = (p: string) =>
    quarter ? +p.slice(0, 4) * 4 + (+p.slice(6) - 1) : +p.slice(0, 4) * 12 + (+p.slice(5, 7) - 1);
  const key = (i: number) =>
    quarter
      ? `${Math.floor(i / 4)}-Q${(i % 4) + 1}`
      : `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
  const run: string[] = [];
  for (let i = index(first); i <= index(last) && run.length < 1000; i++) run.push(key(i));
  return run;
}

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** "2025-Q2" -> "2025 Q2"; "2025-04" -> "Apr 2025": periods, never times of day. */
export function periodLabel(period: string): string {
  const quarter = /^(\d{4})-Q(\d)$/.exec(period);
  if (quarter) return `${quarter[1]} Q${quarter[2]}`;
  return `${MONTHS[+period.slice(5, 7) - 1]} ${period.slice(0, 4)}`;
}

/** The day after the period ends (YYYY-MM-DD). */
function periodEnd(period: string): string {
  const quarter = /^(\d{4})-Q(\d)$/.exec(period);
  const [year, month] = quarter
    ? [+quarter[1], +quarter[2] * 3]
    : [+period.slice(0, 4), +period.slice(5, 7)];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

/**
 * A period is partial when the data cannot have all of it yet: it ends after today, or after
 * the filter's "to" date.
 */
export function isPartial(period: string, to: string | undefined): boolean {
  const today = new Date().toISOString().slice(0, 10);
  const end = periodEnd(period);
  return end > today || (to !== undefined && to !== '' && end > to);
}
