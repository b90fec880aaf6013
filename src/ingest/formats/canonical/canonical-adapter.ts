/**
 * The canonical `muster/v1` adapter (docs/import-formats.md#canonical-musterv1): checks the
 * document's envelope and hands
 * each record to validation on its own, so one bad record never sinks its neighbours.
 */
import { Compile } from 'typebox/compile';
import { toFieldErrors } from '../../../errors/field-errors.ts';
import { DocumentEnvelopeSchema } from '../../../domain/canonical-schema.ts';
import type { RawBatch } from '../../import-types.ts';
import { emptyRawBatch } from '../../import-types.ts';
import { decodeUtf8, NotUtf8Error } from '../../input-text.ts';
import { placeAndReason } from '../../validation-context.ts';

const envelope = Compile(DocumentEnvelopeSchema);
const ARRAYS = ['systems', 'factions', 'players', 'scenarios', 'events', 'playerMerges'] as const;

/**
 * Adds a parsed canonical document's records to a raw batch (or rejects the whole document).
 * `where` places the document inside its source (an NDJSON line), for record names.
 */
export function addCanonicalDocument(
  batch: RawBatch,
  document: unknown,
  source: string,
  where: string | null = null,
): void {
  if (!envelope.Check(document)) {
    const { field, reason } = placeAndReason(toFieldErrors(envelope.Errors(document)));
    batch.rejects.push({
      kind: 'file',
      source,
      record: where,
      field,
      reason:
        document === null || typeof document !== 'object' || Array.isArray(document)
          ? 'the document must be a JSON object with "format": "muster/v1"'
          : reason,
      // The document as read, so it can be fixed and replayed (docs/import-formats.md#rejects-and-replay).
      payload: document,
    });
    return;
  }
  const doc = document as Record<(typeof ARRAYS)[number], unknown[] | undefined>;
  for (const key of ARRAYS) {
    (doc[key] ?? []).forEach((value, i) => {
      const id = (value as { id?: unknown })?.id;
      batch[key].push({
        source,
        record: `${where === null ? '' : `${where} `}${key}[${i}]${typeof id === 'string' ? ` (${id})` : ''}`,
        value,
      });
    });
  }
}

/** A raw batch from one in-memory canonical document. */
export function canonicalToRaw(document: unknown, source = 'document'): RawBatch {
  const batch = emptyRawBatch(false);
  addCanonicalDocument(batch, document, source);
  return batch;
}

/** Adds one canonical JSON document, read as bytes: it must be UTF-8 text. */
export function addCanonicalBytes(batch: RawBatch, bytes: Buffer, source: string): void {
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
