/**
 * The one CSV writer of Muster, for the server's downloads and the dashboard's alike
 * (docs/http-api.md#csv): RFC 4180 records (comma, double quotes, CRLF) written by csv-stringify,
 * with every text cell made safe to open in a spreadsheet (OWASP "CSV Injection").
 */
import { stringify } from 'csv-stringify/sync';
import type { Options } from 'csv-stringify/sync';
import { stripBidiControls } from './bidi-controls.ts';

/** A cell: text, a number (non-finite ones left empty), a flag, or nothing. */
export type CsvCell = string | number | boolean | null | undefined;

/** What a spreadsheet reads as the start of a formula, the full-width forms included. */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A text cell a spreadsheet shows as text: bidi controls out, and a leading `'` where it would
 * start a formula. csv-stringify's own `escape_formulas` is not used because it escapes after
 * numbers are written, so -0.25 would come out as '-0.25; here only text is escaped.
 */
function safeText(value: string): string {
  const text = stripBidiControls(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const OPTIONS: Options = {
  eof: false,
  record_delimiter: 'windows',
  // csv-stringify quotes a field holding a comma, a quote or CRLF; RFC 4180 §2.6 asks it for a
  // lone CR or LF too. A `;` or a tab is quoted as well: spreadsheets in many locales split on
  // them, and a quoted field cannot start a second cell that would begin a formula.
  quoted_match: /[\r\n;\t]/,
  cast: {
    string: safeText,
    number: (value) => (Number.isFinite(value) ? String(value) : ''),
    boolean: (value) => String(value),
  },
};

/** One CSV record without its line end (RFC 4180 §2): cells quoted where needed, text made safe. */
export function csvLine(cells: readonly CsvCell[]): string {
  return stringify([cells as CsvCell[]], OPTIONS);
}

/** A whole CSV document (RFC 4180 §2): the header record, then one per row, each ending in CRLF. */
export function csvDocument(
  header: readonly string[],
  rows: ReadonlyArray<readonly CsvCell[]>,
): string {
  return `${stringify([header, ...rows] as CsvCell[][], OPTIONS)}\r\n`;
}
