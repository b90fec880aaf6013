/**
 * The organisers' spreadsheet format (docs/import-formats.md#csv): one game per row, header
 * required, unknown columns an error, missing optional columns fine. Rows of one event_id become
 * one event. A sheet is read row by row and handed on in batches, so a large file streams in
 * bounded memory; an event's fields are remembered across batches so later rows are still
 * checked against its first row.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { parse as parseStream } from 'csv-parse';
import type { CsvError } from 'csv-parse';
import { EVENT_FORMATS, EVENT_TIERS } from '../../../domain/model.ts';
import type { Side } from '../../../domain/model.ts';
import type { Reject } from '../../../domain/import-batch.ts';
import { cleanName, nameKey } from '../../../domain/normalize-name.ts';
import {
  bool,
  CellError,
  CSV_COLUMNS,
  CSV_REQUIRED_COLUMNS,
  number,
  oneOf,
  result,
  str,
} from './csv-cells.ts';
import type { Row } from './csv-cells.ts';
import { parserOptions, skippedRows, UnreadInput } from './csv-records.ts';
import { SheetTeams } from './csv-teams.ts';
import type { ParsedRecord } from './csv-records.ts';
import type { RawBatch } from '../../import-types.ts';
import { emptyRawBatch } from '../../import-types.ts';
import { DEFAULT_MAX_RECORD_BYTES, InputTooLargeError } from '../../input-text.ts';
import { NUL_REASON } from '../../nul-text.ts';

export { CSV_COLUMNS, CSV_REQUIRED_COLUMNS } from './csv-cells.ts';

interface SheetEvent {
  fields: Record<string, unknown>;
  line: number;
}

/** One CSV sheet being read: its header, its events' fields, and the rows not yet handed on. */
class CsvSheet {
  private header: string[] = [];
  private readonly events = new Map<string, SheetEvent>();
  private pending = new Map<string, unknown[]>();
  private players = new Map<string, { id: string; name: string | null }>();
  private readonly teams: SheetTeams;
  pendingGames = 0;

  private readonly source: string;
  private readonly system: string;
  constructor(source: string, system: string) {
    this.source = source;
    this.system = system;
    this.teams = new SheetTeams(source);
  }

  /** Cells in a row: the header's. */
  get width(): number {
    return this.header.length;
  }

  /** Checks the header; a bad one rejects the whole file and returns false. */
  readHeader(batch: RawBatch, cells: string[] | undefined): boolean {
    const fileReject = (reason: string, field: string | null = null) =>
      batch.rejects.push({
        kind: 'file',
        source: this.source,
        record: null,
        field,
        reason,
        payload: null,
      });
    const header = (cells ?? []).map((h) => h.trim().toLowerCase());
    const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
    if (unknown.length > 0) {
      fileReject(
        `unknown column(s): ${unknown.join(', ')}; allowed: ${CSV_COLUMNS.join(', ')}`,
        unknown[0],
      );
      return false;
    }
    const missing = CSV_REQUIRED_COLUMNS.filter((c) => !header.includes(c));
    if (missing.length > 0) {
      fileReject(`missing required column(s): ${missing.join(', ')}`, missing[0]);
      return false;
    }
    const dup = header.find((h, i) => header.indexOf(h) !== i);
    if (dup) {
      fileReject(`column "${dup}" appears twice`, dup);
      return false;
    }
    this.header = header;
    return true;
  }

  /** The name of column `index` of the header, or null when the row is longer. */
  column(index: number): string | null {
    return this.header[index] ?? null;
  }

  /** A row's cells keyed by the header, as a reject's payload. */
  payload(cells: string[]): Row {
    return Object.fromEntries(this.header.map((h, c) => [h, cells[c]])) as Row;
  }

  /** The event a row belongs to, its fields checked against the event's first row. */
  private eventOf(row: Row, line: number): string {
    const eventId = str(row, 'event_id');
    if (eventId === null) throw new CellError('event_id', 'event_id is empty');
    const fields: Record<string, unknown> = {
      id: eventId,
      system: this.system,
      name: str(row, 'event_name'),
      start: str(row, 'event_start'),
      end: str(row, 'event_end'),
      country: str(row, 'event_country'),
      participants: number(row, 'event_participants', true),
      format: oneOf(row, 'event_format', EVENT_FORMATS) ?? undefined,
      tier: oneOf(row, 'event_tier', EVENT_TIERS) ?? undefined,
      status: 'completed',
    };
    const event = this.events.get(eventId);
    if (event === undefined) {
      this.events.set(eventId, { fields, line });
      return eventId;
    }
    for (const [key, value] of Object.entries(fields)) {
      const known = event.fields[key];
      // Event columns may be left blank after the first row, but must not disagree with it.
      if (
        value !== null &&
        value !== undefined &&
        known !== null &&
        known !== undefined &&
        known !== value
      ) {
        throw new CellError(
          `event_${key}`,
          `"${String(value)}" disagrees with line ${event.line} ("${String(known)}")`,
        );
      }
      if ((known === null || known === undefined) && value !== null) event.fields[key] = value;
    }
    return eventId;
  }

  private side(row: Row, p: 'p1' | 'p2'): Side {
    const name = str(row, `${p}_name`);
    const id = str(row, `${p}_id`) ?? (name ? cleanName(name) : null);
    if (id !== null) {
      const known = this.players.get(id);
      if (known === undefined || (known.name === null && name !== null))
        this.players.set(id, { id, name: name ? cleanName(name) : null });
    }
    return {
      player: id,
      faction: str(row, `${p}_faction`) ?? '',
      score: number(row, `${p}_score`),
      result: result(row, `${p}_result`),
      firstTurn: bool(row, `${p}_first_turn`),
    };
  }

  /** Reads one data row (line: its 1-based line in the sheet); a bad row is rejected alone. */
  readRow(batch: RawBatch, cells: string[], line: number): void {
    const row = Object.fromEntries(this.header.map((h, c) => [h, cells[c]])) as Row;
    try {
      const eventId = this.eventOf(row, line);
      const sides = [this.side(row, 'p1'), this.side(row, 'p2')];
      for (const [i, s] of sides.entries()) {
        if (s.faction === '') throw new CellError(`p${i + 1}_faction`, 'faction is empty');
      }
      const singles = this.events.get(eventId)?.fields.format === 'singles';
      const teams = this.teams.read(
        row,
        eventId,
        sides.map((s) => ({ player: s.player ?? null, faction: s.faction })),
        singles,
      );
      const round = number(row, 'round', true);
      // The sheet has no game id: round plus the two players identify a game, else the line does.
      const pair = sides.every((s) => s.player)
        ? sides
            .map((s) => nameKey(s.player as string))
            .sort()
            .join('|')
        : null;
      const id =
        pair !== null && round !== null
          ? `csv:${eventId}:r${round}:${pair}`
          : `csv:${eventId}:line${line}`;
      let games = this.pending.get(eventId);
      if (games === undefined) this.pending.set(eventId, (games = []));
      games.push({
        id,
        round,
        scenario: {
          name: str(row, 'scenario'),
          map: str(row, 'map'),
          deployment: str(row, 'deployment'),
          primary: str(row, 'primary'),
        },
        sides,
      });
      this.pendingGames++;
      this.teams.keep(eventId, teams, line);
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      batch.rejects.push({
        kind: 'game',
        source: this.source,
        record: `line ${line}`,
        field: error.column,
        reason: error.message,
        payload: row,
      });
    }
  }

  /** Hands the rows read so far to the batch as players and events. */
  flush(batch: RawBatch): void {
    for (const p of this.players.values()) {
      batch.players.push({
        source: this.source,
        record: `player ${p.id}`,
        value: p.name ? { id: p.id, name: p.name } : { id: p.id },
        implied: true,
      });
    }
    for (const [eventId, games] of this.pending) {
      const event = this.events.get(eventId) as SheetEvent;
      const fields = Object.fromEntries(
        Object.entries(event.fields).filter(([, v]) => v !== null && v !== undefined),
      );
      // Team cells make the event's entries, and a team event of one whose format is blank.
      const teams = this.teams.has(eventId) ? this.teams.entries(eventId) : null;
      const format = teams !== null && fields.format === undefined ? { format: 'teams' } : {};
      batch.events.push({
        source: this.source,
        record: `event ${eventId} (line ${event.line})`,
        // A sheet need not name its events: the id is the name then (docs/import-formats.md#csv).
        value: {
          name: eventId,
          ...fields,
          ...format,
          ...(teams === null ? {} : { entries: teams.entries }),
          games,
        },
        ...(teams === null ? {} : { entryOrigins: teams.origins }),
      });
    }
    this.players = new Map();
    this.pending = new Map();
    this.pendingGames = 0;
  }
}

/** The most one CSV row (one game) may hold (docs/import-formats.md#size-limits). */
export const MAX_CSV_ROW_BYTES = 1024 * 1024;

/**
 * Why a cell cannot be read as text, or null: bytes that are not UTF-8, or a NUL, which gets the
 * reason every format gives it (docs/import-formats.md#nul-characters).
 */
function cellProblem(cell: Buffer): string | null {
  if (!isUtf8(cell)) return 'holds bytes that are not UTF-8 text (save the sheet as UTF-8)';
  if (cell.includes(0)) return NUL_REASON;
  return null;
}

/**
 * Reads a CSV stream into batches of about `batchGames` games (one transaction each). Cells are
 * read as bytes and decoded here, so a row with bytes that are not UTF-8 is rejected alone by its
 * line (never stored as U+FFFD) and the rows after it still import. A row the parser cannot read
 * (a quote that never closes, a stray quote, a row of the wrong length) is rejected alone too,
 * and the rows after it are read. A row over `maxRecordBytes` throws InputTooLargeError
 * (docs/import-formats.md#size-limits).
 */
export async function* csvBatches(
  input: Readable,
  source: string,
  system: string,
  batchGames: number,
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<RawBatch> {
  let batch = emptyRawBatch(true);
  const sheet = new CsvSheet(source, system);
  let line = 0;
  let records = 0;
  let headerRead = false;
  let stop = false;
  const fileReject = (reason: string) =>
    batch.rejects.push({
      kind: 'file',
      source,
      record: line > 0 ? `line ${line + 1}` : null,
      field: null,
      reason,
      payload: null,
    });
  const rowReject = (at: number, reason: string, cell?: number, cells?: string[]) =>
    batch.rejects.push(unreadableRow(sheet, source, at, reason, cell, cells));
  // A row is one game: a row limit far below the record limit makes an endless line fail within
  // a second rather than after the parser has crawled through 128 MiB of it.
  const rowLimit = Math.min(maxRecordBytes, MAX_CSV_ROW_BYTES);
  const tooLarge = (what: string) =>
    rowLimit < maxRecordBytes
      ? new InputTooLargeError(source, what, rowLimit, 'the CSV row limit', 'a row is one game')
      : new InputTooLargeError(source, what, rowLimit);
  const skipped: CsvError[] = [];
  const unread = new UnreadInput(input);
  // Lines the parser rejected (the parser runs ahead of this loop): not read again after an
  // unclosed quote.
  const rejected = new Set<number>();
  /** One record: the header first, then a game per row. */
  const take = (raw: Array<Buffer | string>, at: number): void => {
    // The parser hands the header's cells over as strings when it dropped a byte-order mark.
    const record = raw.map((cell) => (typeof cell === 'string' ? Buffer.from(cell) : cell));
    records++;
    line = at;
    if (!headerRead) {
      headerRead = true;
      if (record.some((cell) => cellProblem(cell) !== null)) {
        line = 0;
        fileReject('binary content: not a UTF-8 CSV text file');
        stop = true;
      } else if (!sheet.readHeader(batch, record.map(String))) stop = true;
      return;
    }
    if (record.length !== sheet.width) {
      // The parser checks this itself, except on rows read again after an unclosed quote.
      rowReject(at, `expected ${sheet.width} cells as in the header, got ${record.length}`);
      return;
    }
    const bad = record.findIndex((cell) => cellProblem(cell) !== null);
    if (bad !== -1) {
      const problem = cellProblem(record[bad]) as string;
      // The payload shows the bytes as Latin-1 (what such sheets usually are) to fix by hand;
      // nothing of the row is stored as data.
      batch.rejects.push({
        kind: 'game',
        source,
        record: `line ${at}`,
        field: sheet.column(bad),
        reason:
          problem === NUL_REASON
            ? problem
            : `${sheet.column(bad) ?? `column ${bad + 1}`} ${problem}`,
        payload: sheet.payload(record.map((cell) => cell.toString('latin1'))),
      });
      return;
    }
    sheet.readRow(batch, record.map(String), at);
  };
  /** Rejects the records the parser skipped, each alone, and takes the rows read again. */
  const takeSkipped = (before = Infinity): void => {
    // The parser runs ahead: only the records before the one in hand are due (the header first).
    const due = skipped.filter((error) => (error.lines ?? 0) < before);
    if (due.length === 0) return;
    skipped.splice(0, skipped.length, ...skipped.filter((error) => !due.includes(error)));
    for (const row of skippedRows(due, unread, line, rowLimit, rejected)) {
      if ('reason' in row) rowReject(row.line, row.reason, row.cell, row.cells);
      else take(row.record, row.line);
    }
  };
  const parser = parseStream(parserOptions(rowLimit, skipped));
  try {
    for await (const parsed of input.pipe(parser) as AsyncIterable<ParsedRecord>) {
      takeSkipped(parsed.info.lines);
      take(parsed.record, parsed.info.lines);
      unread.taken(parsed.info.bytes);
      if (stop) break;
      // Rejected rows count towards a batch too: a sheet of bad rows is written batch by batch.
      if (sheet.pendingGames + batch.rejects.length >= batchGames) {
        sheet.flush(batch);
        yield batch;
        batch = emptyRawBatch(true);
      }
    }
    if (!stop) takeSkipped();
    if (records === 0 && batch.rejects.length === 0) fileReject('the file is empty');
  } catch (error) {
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') {
      const at = (error as { lines?: unknown }).lines;
      throw tooLarge(typeof at === 'number' ? `line ${at}` : `the row after line ${line}`);
    }
    fileReject(`not valid CSV: ${(error as Error).message}`);
  } finally {
    input.destroy();
  }
  sheet.flush(batch);
  yield batch;
}

/**
 * The reject of a line the parser could not read: the column it names, and the line's cells
 * read leniently as the payload, what the person fixes and imports again.
 */
function unreadableRow(
  sheet: CsvSheet,
  source: string,
  at: number,
  reason: string,
  cell?: number,
  cells?: string[],
): Reject {
  const column = cell === undefined ? null : sheet.column(cell);
  return {
    kind: 'game',
    source,
    record: `line ${at}`,
    field: column,
    reason: `not valid CSV${column === null ? '' : ` in column ${column}`}: ${reason}`,
    payload: cells === undefined ? null : sheet.payload(cells),
  };
}

/** A file's CSV batches. */
export function csvFileBatches(
  path: string,
  system: string,
  batchGames: number,
): AsyncGenerator<RawBatch> {
  return csvBatches(createReadStream(path), path, system, batchGames);
}
