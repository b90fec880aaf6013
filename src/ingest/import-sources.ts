/**
 * `muster import` without the command line: expands paths (files, folders, `-` for stdin),
 * reads them with the format's adapter and runs one import over everything: as one batch for
 * canonical documents and T9A folders, streamed in batches for NDJSON and CSV
 * (docs/import-formats.md#ndjson).
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { GameSystem } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { BcpSystems, bcpBatches } from './bcp-sources.ts';
import { addCanonicalDocument } from './canonical-adapter.ts';
import { findFiles } from './folder-walk.ts';
import { csvBatches } from './csv-adapter.ts';
import type { ImportFormat, ImportReport, RawBatch } from './import-types.ts';
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
import { runImportBatches } from './run-import.ts';
import type { ImportProgress } from './run-import.ts';
import { rosterBatch } from './roster-adapter.ts';
import { addT9aFolder } from './t9a-adapter.ts';
import type { T9aProgress } from './t9a-adapter.ts';

export interface ImportSourcesOptions {
  format: ImportFormat;
  strict?: boolean;
  /** CSV and pairing-app exports: the game system of the games (default: the only one stored). */
  system?: string;
  /** Rosters only: the stored event whose players the rosters belong to. */
  event?: string;
  /** Reads stdin for `-` (default: process.stdin, streamed for NDJSON and CSV). */
  stdin?: () => Promise<string | Readable>;
  /**
   * The largest line (NDJSON, CSV) or document (a JSON file, a T9A report, stdin) read, in bytes
   * (docs/import-formats.md#size-limits); past it the import fails. Default 128 MiB.
   */
  maxRecordBytes?: number;
  onProgress?: (message: string) => void;
  /** NDJSON and CSV: called after each written batch with the running totals. */
  onBatch?: (progress: ImportProgress) => void;
  /** NDJSON and CSV: games per batch, one transaction each. */
  batchGames?: number;
}

const EXTENSIONS: Record<ImportFormat, string> = {
  canonical: '.json',
  ndjson: '.ndjson',
  csv: '.csv',
  t9a: '',
  bcp: '',
  roster: '',
};

/** The files of a format under `path`; entries that cannot be used are file rejects of their own. */
function expand(path: string, ext: string) {
  return findFiles(path, (name) => name.toLowerCase().endsWith(ext));
}

/** The stored game systems with their score rules. */
async function storedSystems(store: Store): Promise<GameSystem[]> {
  return [...(await loadKnownState(store)).systems.values()];
}

async function defaultSystem(store: Store): Promise<string> {
  const systems = await store.db.selectFrom('systems').select('id').execute();
  if (systems.length === 1) return systems[0].id;
  throw new Error(
    systems.length === 0
      ? 'the store has no game system yet: import its definition (canonical systems[]) first, or pass --system'
      : `the store holds several game systems (${systems.map((s) => s.id).join(', ')}): pass --system`,
  );
}

/**
 * docs/import-formats.md#rules-for-every-format: every path's records in one batch, one
 * transaction.
 */
export async function importSources(
  store: Store,
  paths: string[],
  options: ImportSourcesOptions,
): Promise<ImportReport> {
  const { format } = options;
  if (format === 'ndjson' || format === 'csv') {
    const system = format === 'csv' ? (options.system ?? (await defaultSystem(store))) : '';
    return runImportBatches(store, streamedBatches(paths, format, system, options), {
      format,
      sources: paths,
      strict: options.strict,
      onBatch: options.onBatch,
    });
  }
  if (format === 'bcp') {
    const systems = new BcpSystems(await storedSystems(store), options.system);
    return runImportBatches(
      store,
      bcpBatches(
        paths,
        systems,
        options.batchGames ?? DEFAULT_BATCH_GAMES,
        options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
      ),
      { format, sources: paths, strict: options.strict, onBatch: options.onBatch },
    );
  }
  if (format === 'roster') {
    if (options.event === undefined)
      throw new Error(
        '--format roster needs --event ID: the event whose players the rosters belong to',
      );
    const event = options.event;
    return runImportBatches(
      store,
      (async function* () {
        yield await rosterBatch(store, event, paths);
      })(),
      { format, sources: paths, strict: options.strict },
    );
  }
  // Read inside the import, so a read that fails (a document over the limit) is recorded.
  return runImportBatches(store, wholeBatch(paths, format, options), {
    format,
    sources: paths,
    strict: options.strict,
  });
}

/** Canonical documents and T9A folders: every path's records in one batch. */
async function* wholeBatch(
  paths: string[],
  format: ImportFormat,
  options: ImportSourcesOptions,
): AsyncGenerator<RawBatch> {
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
      const { paths: files, rejects } = await expand(path, EXTENSIONS[format]);
      batch.rejects.push(...rejects);
      if (files.length === 0)
        unreadable(path, new Error(`no ${EXTENSIONS[format]} files in this folder`));
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
async function stdinStream(options: ImportSourcesOptions): Promise<Readable> {
  if (options.stdin === undefined) return process.stdin;
  const given = await options.stdin();
  return typeof given === 'string' ? Readable.from([Buffer.from(given)]) : given;
}

/**
 * The batches of streamed sources, path after path; an unreadable path is a file reject. Files
 * are opened one at a time, so memory holds one batch whatever the input's size.
 */
async function* streamedBatches(
  paths: string[],
  format: 'ndjson' | 'csv',
  system: string,
  options: ImportSourcesOptions,
): AsyncGenerator<RawBatch> {
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
      const found = await expand(path, EXTENSIONS[format]);
      if (found.rejects.length > 0) yield { ...emptyRawBatch(false), rejects: found.rejects };
      files = found.paths;
      if (files.length === 0) throw new Error(`no ${EXTENSIONS[format]} files in this folder`);
    } catch (error) {
      yield unreadableBatch(path, error);
      continue;
    }
    for (const file of files) {
      let input: Readable;
      try {
        input = await openFile(file);
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
 * one bad line never costs the lines after it (docs/import-formats.md#ndjson).
 */
async function openFile(file: string): Promise<Readable> {
  const handle = await open(file, 'r');
  // 1 MiB reads: a sixteenth of the reads (and of the waits for the thread pool) of the default.
  return handle.createReadStream({ start: 0, highWaterMark: 1024 * 1024 });
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
