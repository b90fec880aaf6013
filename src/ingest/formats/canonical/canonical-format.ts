/** The canonical muster/v1 format: JSON documents, read whole (docs/import-formats.md#canonical-musterv1). */
import type { ImportFormatSpec } from '../../import-format.ts';
import { InputTooLargeError, readFileBounded } from '../../input-text.ts';
import { expand, unreadable, wholeBatch } from '../../read-sources.ts';
import type { WholeReader } from '../../read-sources.ts';
import { addCanonicalBytes } from './canonical-adapter.ts';

const EXTENSION = '.json';

/** A document from standard input, or every `.json` file of a path (a file, or a folder read recursively). */
const reader: WholeReader = {
  stdin: (batch, bytes) => addCanonicalBytes(batch, bytes, 'stdin'),
  async readPath(batch, path, limit) {
    const { paths: files, rejects } = await expand(path, EXTENSION);
    batch.rejects.push(...rejects);
    if (files.length === 0)
      batch.rejects.push(unreadable(path, new Error(`no ${EXTENSION} files in this folder`)));
    for (const file of files) {
      let bytes: Buffer;
      try {
        bytes = await readFileBounded(file, limit);
      } catch (error) {
        if (error instanceof InputTooLargeError) throw error;
        batch.rejects.push(unreadable(file, error));
        continue;
      }
      addCanonicalBytes(batch, bytes, file);
    }
  },
};

export const canonicalFormat: ImportFormatSpec = {
  name: 'canonical',
  reads: '.json files, muster/v1 documents (the default)',
  extension: EXTENSION,
  needsEvent: false,
  streamed: false,
  example: {
    command: 'muster import events.json',
    see: "Meta, filter System: the document's system",
  },
  batches: (_store, paths, options) => wholeBatch(paths, reader, options),
};
