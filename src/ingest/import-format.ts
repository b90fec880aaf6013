/**
 * An import format (docs/import-formats.md, docs/architecture.md#adding-an-import-format): one
 * module in src/ingest/formats/ implementing this, listed once in src/ingest/formats/index.ts.
 * The command line's choices, its help, the files each format reads in a folder and the check
 * of the docs' table all come from that list.
 */
import type { Readable } from 'node:stream';
import type { Store } from '../store/store.ts';
import type { RawBatch } from './import-types.ts';
import type { ImportProgress } from './run-import.ts';

/** Games per batch (one transaction each) of a streamed format when the caller does not say. */
export const DEFAULT_BATCH_GAMES = 20_000;

/**
 * The command's options a format reads for itself, by name (`--system`, `--event`): each format
 * says which it takes and what they mean (its `reads` and docs/import-formats.md); the shared
 * reading code passes them on unread.
 */
export type FormatFlags = Readonly<Record<string, string | undefined>>;

/** What a format's reader is given besides its paths. */
export interface ImportReadOptions {
  /** The command's options for the format itself (`system` for CSV, `event` for rosters). */
  flags: FormatFlags;
  /** Reads stdin for `-` (default: process.stdin, streamed for NDJSON and CSV). */
  stdin?: () => Promise<string | Readable>;
  /**
   * The largest line (NDJSON, CSV) or document (a JSON file, a T9A report, stdin) read, in bytes
   * (docs/import-formats.md#size-limits); past it the import fails. Default 128 MiB.
   */
  maxRecordBytes?: number;
  onProgress?: (message: string) => void;
  /** Streamed formats: games per batch, one transaction each. */
  batchGames?: number;
}

export interface ImportFormatSpec {
  /** The name `--format` takes and the import records keep. */
  readonly name: string;
  /** What it reads, as `muster import --help` lists it (wrapped there). */
  readonly reads: string;
  /** The files a folder is searched for (lower-case suffix); null: the format reads folders of its own shape. */
  readonly extension: string | null;
  /** Whether `--event ID` is required (and only then allowed). */
  readonly needsEvent: boolean;
  /** Whether its input comes in several batches (each its own transaction, with progress). */
  readonly streamed: boolean;
  /** One example command and where to look at the result on the dashboard. */
  readonly example: { readonly command: string; readonly see: string };
  /** The raw batches of `paths`, read to the end; an unreadable path is a file reject. */
  batches(store: Store, paths: string[], options: ImportReadOptions): AsyncIterable<RawBatch>;
}

/** Called after each written batch of a streamed format, with the running totals. */
export type OnBatch = (progress: ImportProgress) => void;
