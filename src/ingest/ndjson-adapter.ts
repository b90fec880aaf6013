/**
 * The line-delimited canonical format (docs/import-formats.md#ndjson): one `muster/v1` document
 * per line (an event with its entries and games, or reference records), read as a stream and
 * handed on in batches of about `batchGames` games, so memory is bounded by the batch, not the
 * file. A bad line is rejected by its line number; the others import.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { addCanonicalDocument } from './canonical-adapter.ts';
import type { RawBatch } from './import-types.ts';
import { emptyRawBatch } from './import-types.ts';

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

/** Reads NDJSON from a stream into batches; blank lines are skipped. */
export async function* ndjsonBatches(
  input: Readable,
  source: string,
  batchGames = DEFAULT_BATCH_GAMES,
): AsyncGenerator<RawBatch> {
  let batch = emptyRawBatch(false);
  let games = 0;
  let lineNo = 0;
  let records = 0;
  const reject = (record: string | null, reason: string, payload: unknown) =>
    batch.rejects.push({ kind: 'file', source, record, field: null, reason, payload });
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    if (looksBinary(line)) {
      reject(`line ${lineNo}`, 'binary content: not a UTF-8 text file of JSON lines', null);
      lines.close();
      input.destroy();
      break;
    }
    records++;
    let document: unknown;
    try {
      document = JSON.parse(line);
    } catch (error) {
      const payload = line.length > MAX_PAYLOAD ? `${line.slice(0, MAX_PAYLOAD)}…` : line;
      reject(`line ${lineNo}`, `malformed JSON: ${(error as Error).message}`, payload);
      continue;
    }
    addCanonicalDocument(batch, document, source, `line ${lineNo}`);
    games += gamesIn(document);
    if (games >= batchGames) {
      yield batch;
      batch = emptyRawBatch(false);
      games = 0;
    }
  }
  if (records === 0 && batch.rejects.length === 0) reject(null, 'the file is empty', null);
  yield batch;
}
