/**
 * Reading an import's paths (files, folders read recursively, `-` for standard input) into raw
 * batches, shared by the formats of src/ingest/formats/: as one batch for canonical documents
 * and T9A folders, streamed in batches for NDJSON and CSV (docs/import-formats.md#ndjson).
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { GameSystem } from '../domain/model.ts';
import { readSystemIds } from '../store/read-known.ts';
import type { Store } from '../store/store.ts';
import { addCanonicalDocument } from './canonical-adapter.ts';
import { findFiles } from './folder-walk.ts';
import { csvBatches } from './csv-adapter.ts';
import type { ImportReadOptions } from './import-format.ts';
import type { RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
import {
  decodeUtf8,
  DEFAULT_MAX_RECORD_BYTES,
  InputTooLargeError,
  NotUtf8Error,
  readBounded,
  readFileBounded,
} from './input-text.ts';
import { loadKnownState } from './known-state.ts';
import { DEFAULT_BATCH_GAMES, ndjsonBatches } from './ndjson-adapter.ts';
import { addT9aFolder } from './t9a-adapter.ts';
import type { T9aProgress } from './t9a-adapter.ts';

/** The files of a format under `path`; entries that cannot be used are file rejects of their own. */
function expand(path: string, ext: string) {
  return findFiles(path, (name) => name.toLowerCase().endsWith(ext));
}

/** The stored game systems with their score rules. */
export async function storedSystems(store: Store): Promise<GameSystem[]> {
  return [...(await loadKnownState(store)).systems.values()];
}

/** The store's only game system, for sources that do not name theirs (docs/import-formats.md#csv). */
export async function defaultSystem(store: Store): Promise<string> {
  const systems = await readSystemIds(store);
  if (systems.length === 1) return systems[0];
  throw new Error(
    systems.length === 0
      ? 'the store has no game system yet: import its definition (canonical systems[]) first, or pass --system'
      : `the store holds several game systems (${systems.join(', ')}): pass --system`,
  );
}

/**
 * Canonical documents (`extension` .json) and T9A folders (`t9a`): every path's records in one
 * batch, one transaction (docs/import-formats.md#rules-for-every-format).
 */
export async function* wholeBatch(
  paths: string[],
  kind: { extension: string } | 't9a',
  options: ImportReadOptions,
): AsyncGenerator<RawBatch> {
  const format = kind === 't9a' ? 't9a' : 'json';
  const extension = kind === 't9a' ? '' : kind.extension;
  const limit = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const batch: RawBatch = emptyRawBatch(false);
  const unreadable = (source: string, error: unknown) =>
    batch.rejects.push({
      kind: 'file',
      source,
      record: error instanceof NotUtf8Error ? `line ${error.line}` : null,
      field: null,
      reason:
        error instanceof NotUtf8Error ? error.message : `cannot read: ${(error as Error).message}`,
      payload: null,
    });

  for (const path of paths) {
    if (path === '-') {
      if (format === 't9a') {
        unreadable('stdin', new Error('the t9a format is a folder; it cannot come from stdin'));
        continue;
      }
      addBytes(batch, await readBounded(await stdinStream(options), 'stdin', limit), 'stdin');
      continue;
    }
    try {
      if (format === 't9a') {
        await addT9aFolder(
          batch,
          path,
          (p: T9aProgress) =>
            options.onProgress?.(`read ${p.reports} reports from ${p.tournaments} tournaments`),
          limit,
        );
        continue;
      }
      const { paths: files, rejects } = await expand(path, extension);
      batch.rejects.push(...rejects);
      if (files.length === 0) unreadable(path, new Error(`no ${extension} files in this folder`));
      for (const file of files) {
        let bytes: Buffer;
        try {
          bytes = await readFileBounded(file, limit);
        } catch (error) {
          if (error instanceof InputTooLargeError) throw error;
          unreadable(file, error);
          continue;
        }
        addBytes(batch, bytes, file);
      }
    } catch (error) {
      if (error instanceof InputTooLargeError) throw error;
      unreadable(path, error);
    }
  }
  options.onProgress?.('validating and writing');
  yield batch;
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
  format: 'ndjson' | 'csv',
  system: string,
  options: ImportReadOptions,
): AsyncGenerator<RawBatch> {
  const extension = `.${format}`;
  const size = options.batchGames ?? DEFAULT_BATCH_GAMES;
  const limit = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const read = (input: Readable, source: string) =>
    format === 'csv'
      ? csvBatches(input, source, system, size, limit)
      : ndjsonBatches(input, source, size, limit);
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
        input = await openFile(file, format === 'csv' ? CSV_READ_BYTES : NDJSON_READ_BYTES);
      } catch (error) {
        yield unreadableBatch(file, error);
        continue;
      }
      yield* read(input, file);
    }
  }
}

/** NDJSON reads: 1 MiB, a sixteenth of the reads (and of the waits for the thread pool) of the default. */
const NDJSON_READ_BYTES = 1024 * 1024;
/**
 * CSV reads: 64 KiB. The CSV parser turns each chunk it is given into records at once, whatever
 * its consumer has taken: a 1 MiB chunk of short rows is some 50,000 records of six cell buffers
 * each held at once (about 50 MiB, found in a heap snapshot of an all-rejected sheet), a 64 KiB
 * chunk some 3,000 (docs/operations.md#import-limits).
 */
const CSV_READ_BYTES = 64 * 1024;

/**
 * Opens a file as a stream. Bytes that are not text are judged line by line by the adapter, so
 * one bad line never costs the lines after it (docs/import-formats.md#ndjson).
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

/** Adds one canonical JSON document, read as bytes: it must be UTF-8 text. */
function addBytes(batch: RawBatch, bytes: Buffer, source: string): void {
  const fileReject = (reason: string, record: string | null = null, payload: unknown = null) =>
    batch.rejects.push({ kind: 'file', source, record, field: null, reason, payload });
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (error) {
    const line = error instanceof NotUtf8Error ? `line ${error.line}` : null;
    return void fileReject((error as Error).message, line);
  }
  if (text.trim() === '') return void fileReject('the file is empty');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return void fileReject(
      `malformed JSON: ${(error as Error).message}`,
      null,
      text.length > 10_000 ? `${text.slice(0, 10_000)}…` : text,
    );
  }
  addCanonicalDocument(batch, document, source);
}
