/** The Ninth Age Data Project's folders, read whole (docs/import-formats.md#t9a-the-ninth-age-data-project). */
import type { ImportFormatSpec } from '../import-format.ts';
import { wholeBatch } from '../read-sources.ts';

export const t9aFormat: ImportFormatSpec = {
  name: 't9a',
  reads: 'Ninth Age Data Project folders (metaData.json and report_*.json)',
  extension: null,
  needsEvent: false,
  streamed: false,
  example: {
    command:
      'tar -xJf ../shared/data/t9a/t9a-data-until-2026-04-19.tar.xz -C /tmp && muster import --format t9a /tmp/data',
    see: 'Matchups, filter System: The 9th Age, From 2025-01-01',
  },
  batches: (_store, paths, options) => wholeBatch(paths, 't9a', options),
};
