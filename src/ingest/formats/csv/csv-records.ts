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

/**
 * A row to take (its cells as the parser gave them), or a line to reject with its reason, the
 * cell it found it in (0-based) and the line's cells read leniently, for the reject's payload.
 */
export type RecoveredRow =
  | { record: ParsedRecord['record']; line: number }
  | { reason: string; line: number; cell?: number; cells?: string[] };

/**
 * What a person can fix, for a record the parser could not read: csv-parse's messages name
 * its own terms and end with the cell's bytes as JSON (docs/import-formats.md#csv).
 */
export function csvErrorReason(error: CsvError): string {
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return 'a quote (") inside a cell that does not start with one: put the whole cell in quotes and double each quote inside it, e.g. "Alice ""The Great"" Smith" (RFC 4180 §2.7)';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text after the closing quote of a quoted cell: a quote meant inside the cell is written twice (RFC 4180 §2.7)';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quote opened on this line never closes';
    default:
      return error.message.replace(/ (at|on) line \d+/, '').replace(/, value is .*$/s, '');
  }
}

/** A line's cells read leniently (quotes taken as text, any count): what a reject shows. */
function lenientCells(line: Buffer): string[] {
  const rows = parse(line, {
    relax_quotes: true,
    relax_column_count: true,
    skip_records_with_error: true,
    bom: true,
  }) as string[][];
  return rows[0] ?? [];
}

/** Line `n` (1-based) of `text`, without its line end. */
function nthLine(text: Buffer, n: number): Buffer | null {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const end = text.indexOf(0x0a, start);
    if (end === -1) return null;
    start = end + 1;
  }
  let end = text.indexOf(0x0a, start);
  if (end === -1) end = text.length;
  if (end > start && text[end - 1] === 0x0d) end--;
  return start >= text.length ? null : text.subarray(start, end);
}

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
    const text = rest.subarray(start, end);
    const parsed = parse(text, parserOptions(rowLimit, skipped)) as unknown as ParsedRecord[];
    start = end + 1;
    for (const { record } of parsed) {
      rows.push({ record, line });
    }
    // One reject a line, however many stray quotes it holds.
    const error = skipped[0];
    if (error !== undefined) {
      const cells = lenientCells(text);
      rows.push({ reason: csvErrorReason(error), line, cell: cellOf(error), cells });
    }
  }
  return rows;
}

/** The 0-based cell a parse error was found in, when the parser says. */
function cellOf(error: CsvError): number | undefined {
  const column = (error as CsvError & { column?: unknown }).column;
  return typeof column === 'number' ? column : undefined;
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
  // The input after the last row taken begins with the line after it (its line end aside).
  let rest: Buffer | null = null;
  for (const error of errors) {
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      unclosed = true;
      continue;
    }
    const line = error.lines ?? lastLine + 1;
    // The parser reports each stray quote of a line: one reject a line.
    if (rejected.has(line)) continue;
    rest ??= unread.rest();
    const text = nthLine(rest.subarray(rest[0] === 0x0a ? 1 : 0), line - lastLine);
    rows.push({
      reason: csvErrorReason(error),
      line,
      cell: cellOf(error),
      ...(text === null ? {} : { cells: lenientCells(text) }),
    });
    rejected.add(line);
  }
  if (!unclosed) return rows;
  for (const row of linesOf(unread.rest(), lastLine + 1, rowLimit)) {
    if (!rejected.has(row.line)) rows.push(row);
  }
  return rows;
}
