/**
 * The line-delimited canonical format (docs/import-formats.md#ndjson): one `muster/v1` document
 * per line (an event with its entries and games, or reference records), read as a stream and
 * handed on in batches of about `batchGames` games, so memory is bounded by the batch, not the
 * file. A bad line (not JSON, not UTF-8) is rejected by its line number; the others import.
 */
import type { Readable } from 'node:stream';
import { addCanonicalDocument } from '../canonical/canonical-adapter.ts';
import { DEFAULT_BATCH_GAMES } from '../../import-format.ts';
import type { RawBatch } from '../../import-types.ts';
import { emptyRawBatch } from '../../import-types.ts';
import { DEFAULT_MAX_RECORD_BYTES, readLines } from '../../input-text.ts';

/**
 * Text read into one batch before it is handed on, whatever it holds: a batch of lines that are
 * few games but large (long lists) or rejected stays this small (docs/operations.md#import-limits).
 */
export const BATCH_TEXT_BYTES = 64 * 1024 * 1024;

/**
 * Whether a batch is full: its games, or its records of any kind (rejects and reference records
 * count too, so input that is all rejects is written batch by batch, not held to the end), or its
 * text (docs/import-formats.md#ndjson).
 */
export function batchFull(
  games: number,
  records: number,
  bytes: number,
  batchGames: number,
): boolean {
  return games >= batchGames || records >= batchGames || bytes >= BATCH_TEXT_BYTES;
}

function referenceRecords(batch: RawBatch): number {
  return (
    batch.systems.length +
    batch.factions.length +
    batch.players.length +
    batch.scenarios.length +
    batch.playerMerges.length
  );
}

function gamesIn(document: unknown): number {
  const events = (document as { events?: unknown })?.events;
  if (!Array.isArray(events)) return 0;
  let n = 0;
  for (const e of events) {
    const games = (e as { games?: unknown })?.games;
    n += Array.isArray(games) ? games.length : 1;
  }
  return n;
}

/** NUL never appears in JSON or CSV text; U+FFFD means the bytes were not UTF-8. */
export function looksBinary(text: string): boolean {
  return text.includes('\u0000') || text.includes('\uFFFD');
}

/** Lines that are not UTF-8 before any good one: past this many the input is taken as binary. */
const BINARY_RUN = 16;

/**
 * Reads NDJSON from a stream into batches; blank lines are skipped. Every line is read: one that
 * is not UTF-8 or not a document is rejected alone by its line number
 * (docs/import-formats.md#ndjson). A file with no good line at all is rejected once as binary.
 * A line over `maxLineBytes` throws InputTooLargeError (docs/import-formats.md#size-limits).
 */
export async function* ndjsonBatches(
  input: Readable,
  source: string,
  batchGames = DEFAULT_BATCH_GAMES,
  maxLineBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<RawBatch> {
  let batch = emptyRawBatch(false);
  let games = 0;
  let bytes = 0;
  let records = 0;
  let good = 0;
  let text = 0;
  let notText = 0;
  const reject = (record: string | null, reason: string, payload: unknown) =>
    batch.rejects.push({ kind: 'file', source, record, field: null, reason, payload });
  for await (const read of readLines(input, source, maxLineBytes)) {
    const where = `line ${read.line}`;
    if ('error' in read) {
      records++;
      notText++;
      reject(where, read.error.message, null);
      // Nothing but bytes that are not text from the start: a binary file, said once.
      if (good === 0 && notText >= BINARY_RUN) break;
    } else if (read.text.trim() !== '') {
      const line = read.text;
      records++;
      text++;
      bytes += line.length;
      let document: unknown;
      try {
        document = JSON.parse(line);
      } catch (error) {
        // The whole line is kept, so `muster rejects` hands back exactly what was read.
        reject(where, `malformed JSON: ${(error as Error).message}`, line);
      }
      if (document !== undefined) {
        good++;
        addCanonicalDocument(batch, document, source, where);
        games += gamesIn(document);
      }
    }
    // Until a line of text is read the rejects stay together: they may be one binary file.
    const held = text === 0 ? 0 : batch.rejects.length + referenceRecords(batch);
    if (batchFull(games, held, bytes, batchGames)) {
      yield batch;
      batch = emptyRawBatch(false);
      games = 0;
      bytes = 0;
    }
  }
  if (text === 0 && notText > 0) {
    batch.rejects = [];
    reject(null, 'binary content: not a UTF-8 text file of JSON lines', null);
  }
  if (records === 0 && batch.rejects.length === 0) reject(null, 'the file is empty', null);
  yield batch;
}
