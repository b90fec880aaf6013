/**
 * The line-delimited canonical format (docs/import-formats.md#ndjson): one `muster/v1` document
 * per line (an event with its entries and games, or reference records), read as a stream and
 * handed on in batches of about `batchGames` games, so memory is bounded by the batch, not the
 * file. A bad line (not JSON, not UTF-8) is rejected by its line number; the others import.
 */
import type { Readable } from 'node:stream';
import { addCanonicalDocument } from './canonical-adapter.ts';
import type { RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';
import { DEFAULT_MAX_RECORD_BYTES, readLines } from './input-text.ts';

/** Games per batch (one transaction each) when the caller does not say. */
export const DEFAULT_BATCH_GAMES = 20_000;

const MAX_PAYLOAD = 10_000;

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
  let records = 0;
  let good = 0;
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
      continue;
    }
    const line = read.text;
    if (line.trim() === '') continue;
    records++;
    let document: unknown;
    try {
      document = JSON.parse(line);
    } catch (error) {
      const payload = line.length > MAX_PAYLOAD ? `${line.slice(0, MAX_PAYLOAD)}…` : line;
      reject(where, `malformed JSON: ${(error as Error).message}`, payload);
      continue;
    }
    good++;
    addCanonicalDocument(batch, document, source, where);
    games += gamesIn(document);
    if (games >= batchGames) {
      yield batch;
      batch = emptyRawBatch(false);
      games = 0;
    }
  }
  if (good === 0 && notText > 0 && notText === batch.rejects.length) {
    batch.rejects = [];
    reject(null, 'binary content: not a UTF-8 text file of JSON lines', null);
  }
  if (records === 0 && batch.rejects.length === 0) reject(null, 'the file is empty', null);
  yield batch;
}
