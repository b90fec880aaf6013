/**
 * The organisers' spreadsheet format (DESIGN.md §4 "csv"): one game per row, header required,
 * unknown columns an error, missing optional columns fine. Rows of one event_id become one event.
 */
import { parse } from 'csv-parse/sync';
import { EVENT_FORMATS, EVENT_TIERS } from '../domain/model.ts';
import type { Result, Side } from '../domain/model.ts';
import { cleanName, nameKey } from '../domain/normalize-name.ts';
import type { RawBatch, RawRecord } from './import-types.ts';

export const CSV_COLUMNS = [
  'event_id',
  'event_name',
  'event_start',
  'event_end',
  'event_country',
  'event_participants',
  'event_format',
  'event_tier',
  'round',
  'scenario',
  'map',
  'deployment',
  'primary',
  'p1_id',
  'p1_name',
  'p1_faction',
  'p1_score',
  'p1_result',
  'p1_first_turn',
  'p2_id',
  'p2_name',
  'p2_faction',
  'p2_score',
  'p2_result',
  'p2_first_turn',
] as const;

export const CSV_REQUIRED_COLUMNS = [
  'event_id',
  'event_start',
  'p1_faction',
  'p2_faction',
] as const;

type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

class CellError extends Error {
  constructor(
    readonly column: string,
    message: string,
  ) {
    super(message);
  }
}

function number(row: Row, column: keyof Row, integer = false): number | null {
  const v = row[column]?.trim() ?? '';
  if (v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new CellError(column, `"${v}" is not ${integer ? 'a whole number' : 'a number'}`);
  }
  return n;
}

function bool(row: Row, column: keyof Row): boolean | null {
  const v = (row[column] ?? '').trim().toLowerCase();
  if (v === '') return null;
  if (['true', '1', 'yes', 'y'].includes(v)) return true;
  if (['false', '0', 'no', 'n'].includes(v)) return false;
  throw new CellError(column, `"${row[column]}" is not true or false`);
}

const RESULTS: Record<string, Result> = {
  win: 'win',
  w: 'win',
  draw: 'draw',
  d: 'draw',
  loss: 'loss',
  l: 'loss',
};

function result(row: Row, column: keyof Row): Result | null {
  const v = (row[column] ?? '').trim().toLowerCase();
  if (v === '') return null;
  const r = RESULTS[v];
  if (r === undefined) throw new CellError(column, `"${row[column]}" is not win, draw or loss`);
  return r;
}

function str(row: Row, column: keyof Row): string | null {
  const v = row[column]?.trim() ?? '';
  return v === '' ? null : v;
}

function oneOf<T extends string>(row: Row, column: keyof Row, values: readonly T[]): T | null {
  const v = str(row, column)?.toLowerCase() ?? null;
  if (v === null) return null;
  if (!values.includes(v as T))
    throw new CellError(column, `"${row[column]}" is not one of ${values.join(', ')}`);
  return v as T;
}

/** Adds a CSV file's games to the batch under `system`; a bad header rejects the whole file. */
export function addCsvText(batch: RawBatch, text: string, source: string, system: string): void {
  const fileReject = (reason: string, field: string | null = null) =>
    batch.rejects.push({ kind: 'file', source, record: null, field, reason, payload: null });
  if (text.trim() === '') return void fileReject('the file is empty');
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: false,
    });
  } catch (error) {
    return void fileReject(`not valid CSV: ${(error as Error).message}`);
  }
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0) {
    return void fileReject(
      `unknown column(s): ${unknown.join(', ')}; allowed: ${CSV_COLUMNS.join(', ')}`,
      unknown[0],
    );
  }
  const missing = CSV_REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0)
    return void fileReject(`missing required column(s): ${missing.join(', ')}`, missing[0]);
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup) return void fileReject(`column "${dup}" appears twice`, dup);

  const events = new Map<
    string,
    { record: RawRecord; fields: Record<string, unknown>; line: number; games: unknown[] }
  >();
  const players = new Map<string, { id: string; name: string | null }>();
  records.slice(1).forEach((cells, i) => {
    const line = i + 2;
    const row = Object.fromEntries(header.map((h, c) => [h, cells[c]])) as Row;
    const rowReject = (field: string | null, reason: string) =>
      batch.rejects.push({
        kind: 'game',
        source,
        record: `line ${line}`,
        field,
        reason,
        payload: row,
      });
    try {
      const eventId = str(row, 'event_id');
      if (eventId === null) throw new CellError('event_id', 'event_id is empty');
      const fields: Record<string, unknown> = {
        id: eventId,
        system,
        name: str(row, 'event_name'),
        start: str(row, 'event_start'),
        end: str(row, 'event_end'),
        country: str(row, 'event_country'),
        participants: number(row, 'event_participants', true),
        format: oneOf(row, 'event_format', EVENT_FORMATS) ?? undefined,
        tier: oneOf(row, 'event_tier', EVENT_TIERS) ?? undefined,
        status: 'completed',
      };
      let event = events.get(eventId);
      if (event === undefined) {
        event = {
          record: { source, record: `event ${eventId} (line ${line})`, value: null },
          fields,
          line,
          games: [],
        };
        events.set(eventId, event);
      } else {
        for (const [key, value] of Object.entries(fields)) {
          // Event columns may be left blank after the first row, but must not disagree with it.
          if (
            value !== null &&
            value !== undefined &&
            event.fields[key] !== null &&
            event.fields[key] !== undefined &&
            event.fields[key] !== value
          ) {
            throw new CellError(
              `event_${key}`,
              `"${String(value)}" disagrees with line ${event.line} ("${String(event.fields[key])}")`,
            );
          }
          if ((event.fields[key] === null || event.fields[key] === undefined) && value !== null)
            event.fields[key] = value;
        }
      }
      const side = (p: 'p1' | 'p2'): Side => {
        const name = str(row, `${p}_name`);
        const id = str(row, `${p}_id`) ?? (name ? cleanName(name) : null);
        if (id !== null) {
          const known = players.get(id);
          if (known === undefined || (known.name === null && name !== null))
            players.set(id, { id, name: name ? cleanName(name) : null });
        }
        return {
          player: id,
          faction: str(row, `${p}_faction`) ?? '',
          score: number(row, `${p}_score`),
          result: result(row, `${p}_result`),
          firstTurn: bool(row, `${p}_first_turn`),
        };
      };
      const sides = [side('p1'), side('p2')];
      for (const [i, s] of sides.entries()) {
        if (s.faction === '') throw new CellError(`p${i + 1}_faction`, 'faction is empty');
      }
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
      event.games.push({
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
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      rowReject(error.column, error.message);
    }
  });
  for (const p of players.values()) {
    batch.players.push({
      source,
      record: `player ${p.id}`,
      value: p.name ? { id: p.id, name: p.name } : { id: p.id },
    });
  }
  for (const e of events.values()) {
    const fields = Object.fromEntries(
      Object.entries(e.fields).filter(([, v]) => v !== null && v !== undefined),
    );
    batch.events.push({ ...e.record, value: { ...fields, games: e.games } });
  }
}
