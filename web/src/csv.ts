/**
 * The file names of the dashboard's downloads, named for the page and the filter it shows, e.g.
 * muster-meta-t9a-2025-01-01_2025-06-30.csv. Their CSV is written by Muster's one CSV writer,
 * src/domain/csv-record.ts (docs/http-api.md#csv).
 */
import type { CsvCell } from '../../src/domain/csv-record.ts';
import type { CommonFilter } from './common-filter.ts';
import { COMMON_FILTER } from './common-filter.ts';

export type CsvValue = CsvCell;

export const safe = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '-');

/** The name of the page's files without extension: the view, the system and the active filter. */
export function fileStem(view: string, filter: CommonFilter, extra: string[] = []): string {
  const parts = COMMON_FILTER.map(({ stem }) => stem(filter));
  return ['muster', view, ...parts.filter((p) => p !== undefined), ...extra].map(safe).join('-');
}
