/** The Ninth Age Data Project's folders, read whole (docs/import-formats.md#t9a-the-ninth-age-data-project). */
import type { ImportFormatSpec } from '../../import-format.ts';
import { wholeBatch } from '../../read-sources.ts';
import type { WholeReader } from '../../read-sources.ts';
import { addT9aFolder } from './t9a-adapter.ts';

/** A T9A export is a folder: each path one, read whole; standard input cannot hold one. */
const reader: WholeReader = {
  stdin: { refused: 'the t9a format is a folder; it cannot come from stdin' },
  readPath: (batch, path, limit, options) =>
    addT9aFolder(
      batch,
      path,
      (p) => options.onProgress?.(`read ${p.reports} reports from ${p.tournaments} tournaments`),
      limit,
    ),
};

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
  batches: (_store, paths, options) => wholeBatch(paths, reader, options),
};
