/**
 * The columns of the organisers' CSV format and the reading of one cell
 * (docs/import-formats.md#csv): numbers, booleans, results and enumerations, each failing with
 * the column it came from.
 */
import type { Result } from '../../../domain/model.ts';

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
  'p1_team',
  'p2_id',
  'p2_name',
  'p2_faction',
  'p2_score',
  'p2_result',
  'p2_first_turn',
  'p2_team',
] as const;

export const CSV_REQUIRED_COLUMNS = [
  'event_id',
  'event_start',
  'p1_faction',
  'p2_faction',
] as const;

export type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

export class CellError extends Error {
  readonly column: string;
  constructor(column: string, message: string) {
    super(message);
    this.column = column;
  }
}

export function number(row: Row, column: keyof Row, integer = false): number | null {
  const v = row[column]?.trim() ?? '';
  if (v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new CellError(column, `"${v}" is not ${integer ? 'a whole number' : 'a number'}`);
  }
  return n;
}

export function bool(row: Row, column: keyof Row): boolean | null {
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

export function result(row: Row, column: keyof Row): Result | null {
  const v = (row[column] ?? '').trim().toLowerCase();
  if (v === '') return null;
  const r = RESULTS[v];
  if (r === undefined) throw new CellError(column, `"${row[column]}" is not win, draw or loss`);
  return r;
}

export function str(row: Row, column: keyof Row): string | null {
  const v = row[column]?.trim() ?? '';
  return v === '' ? null : v;
}

export function oneOf<T extends string>(
  row: Row,
  column: keyof Row,
  values: readonly T[],
): T | null {
  const v = str(row, column)?.toLowerCase() ?? null;
  if (v === null) return null;
  if (!values.includes(v as T))
    throw new CellError(column, `"${row[column]}" is not one of ${values.join(', ')}`);
  return v as T;
}
