/**
 * `muster import` without the command line: expands paths (files, folders, `-` for stdin),
 * reads them with the format's adapter and runs one import over everything as one batch.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import { addCanonicalDocument } from './canonical-adapter.ts';
import { addCsvText } from './csv-adapter.ts';
import type { ImportFormat, ImportReport, RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
import { runImport } from './run-import.ts';
import { addT9aFolder } from './t9a-adapter.ts';
import type { T9aProgress } from './t9a-adapter.ts';

export interface ImportSourcesOptions {
  format: ImportFormat;
  strict?: boolean;
  /** CSV only: the game system the sheet's games belong to (default: the only one stored). */
  system?: string;
  /** Reads stdin for `-`. */
  stdin?: () => Promise<string>;
  onProgress?: (message: string) => void;
}

const EXTENSIONS: Record<ImportFormat, string> = { canonical: '.json', csv: '.csv', t9a: '' };

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

async function defaultSystem(store: Store): Promise<string> {
  const systems = await store.db.selectFrom('systems').select('id').execute();
  if (systems.length === 1) return systems[0].id;
  throw new Error(
    systems.length === 0
      ? 'the store has no game system yet: import its definition (canonical systems[]) first, or pass --system'
      : `the store holds several game systems (${systems.map((s) => s.id).join(', ')}): pass --system`,
  );
}

/** DESIGN.md §4: every path's records in one batch, one transaction. */
export async function importSources(
  store: Store,
  paths: string[],
  options: ImportSourcesOptions,
): Promise<ImportReport> {
  const { format } = options;
  const batch: RawBatch = emptyRawBatch(format === 'csv');
  const system = format === 'csv' ? (options.system ?? (await defaultSystem(store))) : '';
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
      addText(batch, text, 'stdin', format, system);
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
        addText(batch, text, file, format, system);
      }
    } catch (error) {
      unreadable(path, error);
    }
  }
  options.onProgress?.('validating and writing');
  return runImport(store, batch, { format, sources: paths, strict: options.strict });
}

function addText(
  batch: RawBatch,
  text: string,
  source: string,
  format: ImportFormat,
  system: string,
): void {
  if (format === 'csv') return addCsvText(batch, text, source, system);
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
