/**
 * What the engine says when it refuses a query, without any HTTP in it: which field is wrong
 * and why, or that a record is unknown, or that there is no data to answer from. The HTTP edge
 * maps each kind to a problem type of the one catalogue (docs/problems.md).
 */

/** One invalid field: a JSON Pointer (RFC 6901) into the query, and what is wrong with it. */
export interface FieldError {
  pointer: string;
  detail: string;
}

/**
 * invalid-query: a field names something wrong (fields say which); unknown-record: the query
 * names a record (e.g. a player) the data does not hold; no-data: nothing is loaded to answer from.
 */
export type DomainErrorKind = 'invalid-query' | 'unknown-record' | 'no-data';

/** A refusal of the domain layers; `fields` names the offending fields, when there are any. */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly fields: readonly FieldError[];
  constructor(kind: DomainErrorKind, detail: string, fields: readonly FieldError[] = []) {
    super(detail);
    this.kind = kind;
    this.fields = fields;
    this.name = 'DomainError';
  }
}

/** An invalid query naming one field, e.g. invalidField('/factions/2', 'unknown faction "XX"'). */
export function invalidField(pointer: string, detail: string): DomainError {
  return new DomainError('invalid-query', detail, [{ pointer, detail }]);
}

/** An invalid query naming several fields; the detail is the first field's, or `summary`. */
export function invalidFields(fields: readonly FieldError[], summary: string): DomainError {
  const detail = fields.length === 1 ? `${fields[0].pointer}: ${fields[0].detail}` : summary;
  return new DomainError('invalid-query', detail, fields);
}
