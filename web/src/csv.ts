/**
 * CSV (RFC 4180: one header row, raw numbers, an interval as two columns, CRLF line ends, a
 * field quoted when it holds a comma, a quote or a line break) and the file names of the
 * dashboard's downloads, named for the page and the filter it shows, e.g.
 * muster-meta-t9a-2025-01-01_2025-06-30.csv.
 */
import type { CommonFilter } from './types.ts';

export type CsvValue = string | number | boolean | null | undefined;

/** One CSV field, quoted when RFC 4180 §2 asks for it. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' && !Number.isFinite(value) ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: the header row, then one row per record, each line ending in CRLF. */
export function toCsv(header: string[], rows: CsvValue[][]): string {
  return [header, ...rows].map((r) => `${r.map(csvField).join(',')}\r\n`).join('');
}

export const safe = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '-');

/** The name of the page's files without extension: the view, the system and the active filter. */
export function fileStem(view: string, filter: CommonFilter, extra: string[] = []): string {
  const parts = ['muster', view, filter.system ?? 'all'];
  if (filter.from || filter.to) parts.push(`${filter.from ?? 'start'}_${filter.to ?? 'end'}`);
  if (filter.rulesVersions?.length) parts.push(`rules${filter.rulesVersions.join('+')}`);
  if (filter.minParticipants) parts.push(`min${filter.minParticipants}`);
  if (filter.format) parts.push(filter.format);
  if (filter.tiers?.length) parts.push(filter.tiers.join('+'));
  if (filter.countries?.length) parts.push(filter.countries.join('+'));
  if (filter.online !== undefined) parts.push(filter.online ? 'online' : 'in-person');
  return [...parts, ...extra].map(safe).join('-');
}
