/**
 * `muster import` without the command line: expands paths (files, folders, `-` for stdin),
 * reads them with the format's adapter and runs one import over everything: as one batch for
 * canonical documents and T9A folders, streamed in batches for NDJSON and CSV
 * (docs/import-formats.md#ndjson).
 */
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { GameSystem } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { BcpSystems, bcpBatches } from './bcp-sources.ts';
import { addCanonicalDocument } from './canonical-adapter.ts';
import { csvBatches } from './csv-adapter.ts';
import type { ImportFormat, ImportReport, RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
import { loadKnownState } from './known-state.ts';
import { DEFAULT_BATCH_GAMES, ndjsonBatches } from './ndjson-adapter.ts';
import { runImport, runImportBatches } from './run-import.ts';
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
  stdin?: () => Promise<string>;
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

async function expand(path: string, ext: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const out: string[] = [];
  for (const name of (await readdir(path)).sort()) {
    const child = join(path, name);
    if ((await stat(child)).isDirectory()) out.push(...(await expand(child, ext)));
    else if (name.toLowerCase().endsWith(ext)) out.push(child);
  }
  return out;
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
      bcpBatches(paths, systems, options.batchGames ?? DEFAULT_BATCH_GAMES),
      { format, sources: paths, strict: options.strict, onBatch: options.onBatch },
    );
  }
  if (format === 'roster') {
    if (options.event === undefined)
      throw new Error(
        '--format roster needs --event ID: the event whose players the rosters belong to',
      );
    const raw = await rosterBatch(store, options.event, paths);
    return runImport(store, raw, { format, sources: paths, strict: options.strict });
  }
  const batch: RawBatch = emptyRawBatch(false);
  const unreadable = (source: string, error: unknown) =>
    batch.rejects.push({
      kind: 'file',
      source,
      record: null,
      field: null,
      reason: `cannot read: ${(error as Error).message}`,
      payload: null,
    });

  for (const path of paths) {
    if (path === '-') {
      if (format === 't9a') {
        unreadable('stdin', new Error('the t9a format is a folder; it cannot come from stdin'));
        continue;
      }
      const text = await (options.stdin ?? readStdin)();
      addText(batch, text, 'stdin');
      continue;
    }
    try {
      if (format === 't9a') {
        await addT9aFolder(batch, path, (p: T9aProgress) =>
          options.onProgress?.(`read ${p.reports} reports from ${p.tournaments} tournaments`),
        );
        continue;
      }
      const files = await expand(path, EXTENSIONS[format]);
      if (files.length === 0)
        unreadable(path, new Error(`no ${EXTENSIONS[format]} files in this folder`));
      for (const file of files) {
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (error) {
          unreadable(file, error);
          continue;
        }
        addText(batch, text, file);
      }
    } catch (error) {
      unreadable(path, error);
    }
  }
  options.onProgress?.('validating and writing');
  return runImport(store, batch, { format, sources: paths, strict: options.strict });
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
  const read = (input: Readable, source: string) =>
    format === 'csv' ? csvBatches(input, source, system, size) : ndjsonBatches(input, source, size);
  for (const path of paths) {
    if (path === '-') {
      const input = options.stdin ? Readable.from([await options.stdin()]) : process.stdin;
      yield* read(input, 'stdin');
      continue;
    }
    let files: string[];
    try {
      files = await expand(path, EXTENSIONS[format]);
      if (files.length === 0) throw new Error(`no ${EXTENSIONS[format]} files in this folder`);
    } catch (error) {
      yield unreadableBatch(path, error);
      continue;
    }
    for (const file of files) {
      let input: Readable;
      try {
        input = await openText(file);
      } catch (error) {
        yield unreadableBatch(file, error);
        continue;
      }
      yield* read(input, file);
    }
  }
}

/** Opens a file as a stream after a look at its start: NUL bytes mean it is not text. */
async function openText(file: string): Promise<Readable> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (head.subarray(0, bytesRead).includes(0)) throw new Error('binary content, not a text file');
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle.createReadStream({ start: 0 });
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

function addText(batch: RawBatch, text: string, source: string): void {
  if (text.trim() === '') {
    batch.rejects.push({
      kind: 'file',
      source,
      record: null,
      field: null,
      reason: 'the file is empty',
      payload: null,
    });
    return;
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    batch.rejects.push({
      kind: 'file',
      source,
      record: null,
      field: null,
      reason: `malformed JSON: ${(error as Error).message}`,
      payload: text.length > 10_000 ? `${text.slice(0, 10_000)}…` : text,
    });
    return;
  }
  addCanonicalDocument(batch, document, source);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
