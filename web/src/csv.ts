/**
 * The file names of the dashboard's downloads, named for the page and the filter it shows, e.g.
 * muster-meta-t9a-2025-01-01_2025-06-30.csv. Their CSV is written by Muster's one CSV writer,
 * src/domain/csv-record.ts (docs/http-api.md#csv).
 */
import type { CsvCell } from '../../src/domain/csv-record.ts';
import type { CommonFilter, CommonFilterField } from './common-filter.ts';
import { COMMON_FILTER } from './common-filter.ts';

export type CsvValue = CsvCell;

export const safe = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '-');

/** Each field's part of a file name; the two dates make one part, written by `from`. */
const STEM_PART: { [F in CommonFilterField]: (filter: CommonFilter) => string | undefined } = {
  system: (f) => f.system ?? 'all',
  from: (f) => (f.from || f.to ? `${f.from ?? 'start'}_${f.to ?? 'end'}` : undefined),
  to: () => undefined,
  rulesVersions: (f) => (f.rulesVersions?.length ? `rules${f.rulesVersions.join('+')}` : undefined),
  minParticipants: (f) => (f.minParticipants ? `min${f.minParticipants}` : undefined),
  format: (f) => f.format || undefined,
  tiers: (f) => (f.tiers?.length ? f.tiers.join('+') : undefined),
  countries: (f) => (f.countries?.length ? f.countries.join('+') : undefined),
  online: (f) => (f.online === undefined ? undefined : f.online ? 'online' : 'in-person'),
};

/** The name of the page's files without extension: the view, the system and the active filter. */
export function fileStem(view: string, filter: CommonFilter, extra: string[] = []): string {
  const parts = COMMON_FILTER.map(({ field }) => STEM_PART[field](filter));
  return ['muster', view, ...parts.filter((p) => p !== undefined), ...extra].map(safe).join('-');
}
