/**
 * How the CSV adapter reads records (docs/import-formats.md#csv): a record the parser cannot
 * read is skipped and rejected alone, never the rest of the file, and after a quote that never
 * closes (which swallows the rest of the input into one record) the rest is read again.
 */
import type { Readable } from 'node:stream';
import type { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';

/** A parsed record as the parser hands it over with `info` on: its last line, its end offset. */
export interface ParsedRecord {
  record: Array<Buffer | string>;
  info: { lines: number; bytes: number };
}

/** A row to take (its cells as the parser gave them), or a line to reject with its reason. */
export type RecoveredRow =
  | { record: ParsedRecord['record']; line: number }
  | { reason: string; line: number };

/**
 * The parser's options: cells as bytes, records with their line and end, and a record it cannot
 * read (a stray quote, a row of the wrong length) handed to `skipped` rather than ending the
 * file. A record over `rowLimit` bytes still ends it (docs/import-formats.md#size-limits).
 */
export function parserOptions(rowLimit: number, skipped: CsvError[]) {
  return {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    trim: false,
    encoding: null,
    info: true,
    max_record_size: rowLimit,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      if (error === undefined || error.code === 'CSV_MAX_RECORD_SIZE') throw error;
      skipped.push(error);
      return undefined;
    },
  } as const;
}

/**
 * The input since the end of the last record taken: where a record that swallowed the rest
 * began. Bounded by one record (the row limit) plus what the stream has read ahead.
 */
export class UnreadInput {
  private readonly kept: Buffer[] = [];
  private keptFrom = 0;
  private lastEnd = 0;

  constructor(input: Readable) {
    input.on('data', (chunk: Buffer | string) => {
      this.kept.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
  }

  /** The record ending at input offset `end` was taken: the bytes before it can go. */
  taken(end: number): void {
    this.lastEnd = end;
    while (this.kept.length > 0 && this.keptFrom + this.kept[0].length <= end) {
      this.keptFrom += this.kept.shift()!.length;
    }
  }

  /** The input after the last record taken. */
  rest(): Buffer {
    return Buffer.concat(this.kept).subarray(this.lastEnd - this.keptFrom);
  }
}

/**
 * `rest` read again line by line, each line a row or rejected alone, numbered from
 * `firstLine`. RFC 4180 §2.6 lets a quoted field span lines, so only the end of the input shows
 * that a quote was never meant to; what it swallowed is then read this way.
 */
function linesOf(rest: Buffer, firstLine: number, rowLimit: number): RecoveredRow[] {
  const rows: RecoveredRow[] = [];
  let start = 0;
  for (let line = firstLine; start < rest.length; line++) {
    let end = rest.indexOf(0x0a, start);
    if (end === -1) end = rest.length;
    const skipped: CsvError[] = [];
    const parsed = parse(
      rest.subarray(start, end),
      parserOptions(rowLimit, skipped),
    ) as unknown as ParsedRecord[];
    start = end + 1;
    for (const { record } of parsed) {
      rows.push({ record, line });
    }
    for (const error of skipped) {
      const reason =
        error.code === 'CSV_QUOTE_NOT_CLOSED'
          ? 'a quote opened on this line never closes'
          : error.message.replace(/ (at|on) line \d+/, '');
      rows.push({ reason, line });
    }
  }
  return rows;
}

/**
 * What the records the parser skipped since the last row taken (at `lastLine`) become: each a
 * line rejected alone (added to `rejected`, the lines rejected so far), and after a quote that
 * never closed, the rest of the input read again without those lines.
 */
export function skippedRows(
  errors: readonly CsvError[],
  unread: UnreadInput,
  lastLine: number,
  rowLimit: number,
  rejected: Set<number>,
): RecoveredRow[] {
  const rows: RecoveredRow[] = [];
  let unclosed = false;
  for (const error of errors) {
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      unclosed = true;
      continue;
    }
    const line = error.lines ?? lastLine + 1;
    rows.push({ reason: error.message, line });
    rejected.add(line);
  }
  if (!unclosed) return rows;
  for (const row of linesOf(unread.rest(), lastLine + 1, rowLimit)) {
    if (!rejected.has(row.line)) rows.push(row);
  }
  return rows;
}
