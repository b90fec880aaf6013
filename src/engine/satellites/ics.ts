/**
 * A small RFC 5545 (iCalendar) writer for the upcoming-satellites feed: all-day VEVENTs with
 * stable UIDs, TEXT escaping (§3.3.11), CRLF line ends and folding at 75 octets (§3.1).
 */
import { httpUrlOrNull } from '../../domain/http-url.ts';
import type { UpcomingSatellite } from './upcoming.ts';

const CRLF = '\r\n';
const MAX_OCTETS = 75;
const encoder = new TextEncoder();

/** RFC 5545 §3.3.11: backslash, semicolon, comma and newlines are escaped in TEXT values. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * RFC 5545 §3.1: a content line longer than 75 octets is split with CRLF followed by one space,
 * never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= MAX_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The continuation's leading space counts towards its 75 octets.
  let limit = MAX_OCTETS;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(CRLF + ' ');
}

function compactDate(date: string): string {
  return date.replace(/-/g, '');
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A UTC DATE-TIME (RFC 5545 §3.3.5 form 2), e.g. 20250101T120000Z. */
export function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

export interface CalendarOptions {
  /** DTSTAMP of every VEVENT (when the feed was generated). */
  now: Date;
  /** Calendar display name (X-WR-CALNAME). */
  name?: string;
}

function description(event: UpcomingSatellite): string {
  const lines: string[] = [];
  if (event.qualifiesFor !== null) {
    lines.push(`Qualifier for ${event.qualifiesFor.name} (${event.qualifiesFor.start})`);
  } else {
    lines.push('Satellite event (major unknown)');
  }
  if (event.slots !== null) lines.push(`Qualifying slots: ${event.slots}`);
  if (event.capacity !== null) lines.push(`Capacity: ${event.capacity}`);
  const registration = httpUrlOrNull(event.registrationUrl);
  if (registration !== null) lines.push(`Registration: ${registration}`);
  return lines.join('\n');
}

/** One VEVENT per satellite in a VCALENDAR (RFC 5545 §3.4, §3.6.1). */
export function satellitesCalendar(
  events: readonly UpcomingSatellite[],
  options: CalendarOptions,
): string {
  const stamp = utcStamp(options.now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Muster//Upcoming satellites//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name ?? 'Upcoming satellites')}`,
  ];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(`${e.id}@muster`)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${compactDate(e.start)}`,
      // DTEND of an all-day event is exclusive: the day after the last day.
      `DTEND;VALUE=DATE:${compactDate(nextDay(e.end !== null && e.end >= e.start ? e.end : e.start))}`,
      `SUMMARY:${escapeText(e.name)}`,
    );
    const place = [e.venue, e.city, e.country].filter((p): p is string => p !== null && p !== '');
    if (e.online === true) place.push('online');
    if (place.length > 0) lines.push(`LOCATION:${escapeText(place.join(', '))}`);
    if (e.location !== null) lines.push(`GEO:${e.location.lat};${e.location.lon}`);
    // A calendar opens URL as a link: only http(s) (docs/import-formats.md#links).
    const url = httpUrlOrNull(e.url) ?? httpUrlOrNull(e.registrationUrl);
    if (url !== null) lines.push(`URL:${oneLine(url)}`);
    lines.push(
      `DESCRIPTION:${escapeText(description(e))}`,
      'STATUS:CONFIRMED',
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
