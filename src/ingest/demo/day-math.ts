/**
 * Calendar days as integers (days since 1970-01-01, UTC) so that the demo calendar is plain
 * arithmetic and never depends on the local time zone.
 */

const MS_PER_DAY = 86_400_000;

/** Parses 'YYYY-MM-DD' (ISO 8601 calendar date) to a day number; throws on anything else. */
export function parseDay(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`expected a date as YYYY-MM-DD, got "${date}"`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = ms / MS_PER_DAY;
  if (formatDay(day) !== date) throw new RangeError(`not a calendar date: "${date}"`);
  return day;
}

/** Formats a day number as 'YYYY-MM-DD'. */
export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** 0 = Sunday .. 6 = Saturday. */
export function weekday(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCDay();
}
