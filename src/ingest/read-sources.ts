/**
 * Reading an import's paths (files, folders read recursively, `-` for standard input) into raw
 * batches, shared by the formats of src/ingest/formats/: as one batch (a whole reader) or streamed
 * in batches (a stream reader), docs/import-formats.md#rules-for-every-format. Each format brings
 * its own reader; nothing here knows a format by name.
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { GameSystem } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { findFiles } from './folder-walk.ts';
import type { ImportReadOptions } from './import-format.ts';
import { DEFAULT_BATCH_GAMES } from './import-format.ts';
import type { RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
import {
  DEFAULT_MAX_RECORD_BYTES,
  InputTooLargeError,
  NotUtf8Error,
  readBounded,
} from './input-text.ts';
import { loadKnownState } from './known-state.ts';

/**
 * How a format read as one batch reads: standard input (or why it cannot come from there) and
 * one path. A path it cannot read throws; the error becomes that path's file reject.
 */
export interface WholeReader {
  /** Adds what standard input holds (read up to `limit` bytes), or says why it cannot be read. */
  readonly stdin: ((batch: RawBatch, bytes: Buffer) => void) | { readonly refused: string };
  readPath(batch: RawBatch, path: string, limit: number, options: ImportReadOptions): Promise<void>;
}

/** How a streamed format reads: its files, the size of each read, and its batches of a stream. */
export interface StreamReader {
  /** The files a folder is searched for (lower-case suffix). */
  readonly extension: string;
  /** Bytes a file is read at a time. */
  readonly readBytes: number;
  batches(
    input: Readable,
    source: string,
    batchGames: number,
    limit: number,
  ): AsyncIterable<RawBatch>;
}

/** The files of a format under `path`; entries that cannot be used are file rejects of their own. */
export function expand(path: string, ext: string) {
  return findFiles(path, (name) => name.toLowerCase().endsWith(ext));
}

/** The stored game systems with their score rules. */
export async function storedSystems(store: Store): Promise<GameSystem[]> {
  return [...(await loadKnownState(store)).systems.values()];
}

/**
 * Every path's records in one batch, one transaction (docs/import-formats.md#rules-for-every-format);
 * a path the reader cannot read is a file reject, and a record over the limit fails the import.
 */
export async function* wholeBatch(
  paths: string[],
  reader: WholeReader,
  options: ImportReadOptions,
): AsyncGenerator<RawBatch> {
  const limit = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const batch: RawBatch = emptyRawBatch(false);
  for (const path of paths) {
    try {
      if (path !== '-') await reader.readPath(batch, path, limit, options);
      else if ('refused' in reader.stdin) throw new Error(reader.stdin.refused);
      else reader.stdin(batch, await readBounded(await stdinStream(options), 'stdin', limit));
    } catch (error) {
      if (error instanceof InputTooLargeError) throw error;
      batch.rejects.push(unreadable(path === '-' ? 'stdin' : path, error));
    }
  }
  options.onProgress?.('validating and writing');
  yield batch;
}

/** The file reject of a source that cannot be read (bytes that are not UTF-8 name their line). */
export function unreadable(source: string, error: unknown): RawBatch['rejects'][number] {
  return {
    kind: 'file',
    source,
    record: error instanceof NotUtf8Error ? `line ${error.line}` : null,
    field: null,
    reason:
      error instanceof NotUtf8Error ? error.message : `cannot read: ${(error as Error).message}`,
    payload: null,
  };
}

/** Standard input as a stream (a test's text, or the process's). */
async function stdinStream(options: ImportReadOptions): Promise<Readable> {
  if (options.stdin === undefined) return process.stdin;
  const given = await options.stdin();
  return typeof given === 'string' ? Readable.from([Buffer.from(given)]) : given;
}

/**
 * The batches of streamed sources, path after path; an unreadable path is a file reject. Files
 * are opened one at a time, so memory holds one batch whatever the input's size.
 */
export async function* streamedBatches(
  paths: string[],
  reader: StreamReader,
  options: ImportReadOptions,
): AsyncGenerator<RawBatch> {
  const { extension } = reader;
  const size = options.batchGames ?? DEFAULT_BATCH_GAMES;
  const limit = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const read = (input: Readable, source: string) => reader.batches(input, source, size, limit);
  for (const path of paths) {
    if (path === '-') {
      yield* read(await stdinStream(options), 'stdin');
      continue;
    }
    let files: string[];
    try {
      const found = await expand(path, extension);
      if (found.rejects.length > 0) yield { ...emptyRawBatch(false), rejects: found.rejects };
      files = found.paths;
      if (files.length === 0) throw new Error(`no ${extension} files in this folder`);
    } catch (error) {
      yield unreadableBatch(path, error);
      continue;
    }
    for (const file of files) {
      let input: Readable;
      try {
        input = await openFile(file, reader.readBytes);
      } catch (error) {
        yield unreadableBatch(file, error);
        continue;
      }
      yield* read(input, file);
    }
  }
}

/**
 * Opens a file as a stream. Bytes that are not text are judged line by line by the adapter, so
 * one bad line never costs the lines after it (docs/import-formats.md#rules-for-every-format).
 */
async function openFile(file: string, highWaterMark: number): Promise<Readable> {
  const handle = await open(file, 'r');
  return handle.createReadStream({ start: 0, highWaterMark });
}

function unreadableBatch(source: string, error: unknown): RawBatch {
  const batch = emptyRawBatch(false);
  batch.rejects.push({
    kind: 'file',
    source,
    record: null,
    field: null,
    reason: `cannot read: ${(error as Error).message}`,
    payload: null,
  });
  return batch;
}
