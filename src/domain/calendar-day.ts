/**
 * Calendar days: the one home of the date pattern, the real-date check and day arithmetic.
 * A day is an integer (days since 1970-01-01, UTC), so that date windows, calendars and rating
 * periods are plain arithmetic that never depends on the local time zone (docs/data-model.md).
 */

const MS_PER_DAY = 86_400_000;

/** The pattern of an ISO 8601 calendar date, YYYY-MM-DD, as a JSON Schema `pattern`. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (ISO 8601), e.g. not 2025-02-30. */
export function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  // Date.parse reads years below 100 as written (Date.UTC would shift them to 19xx).
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date (ISO 8601); the text is assumed well formed. */
export function dayNumber(date: string): number {
  return Math.floor(
    Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / MS_PER_DAY,
  );
}

/** YYYY-MM-DD (ISO 8601) of a day number. */
export function dayString(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Parses a YYYY-MM-DD date (ISO 8601) to a day number; throws a RangeError on anything else. */
export function parseDay(date: string): number {
  if (!DATE.test(date)) throw new RangeError(`expected a date as YYYY-MM-DD, got "${date}"`);
  if (!isRealDate(date)) throw new RangeError(`not a calendar date: "${date}"`);
  return dayNumber(date);
}

/** Day of the week of a day number: 0 = Sunday .. 6 = Saturday (as Date#getUTCDay). */
export function weekday(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCDay();
}

/** Calendar month index (year × 12 + month − 1) of a day number. */
export function monthOfDay(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/** Calendar month index (year × 12 + month − 1) of a YYYY-MM-DD date. */
export function monthIndex(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

/** Monday-based week number since 1970-01-05 (ISO 8601 weeks start on Monday) of a YYYY-MM-DD date. */
export function weekIndex(date: string): number {
  return Math.floor((dayNumber(date) - 4) / 7);
}
