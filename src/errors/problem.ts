/**
 * The one catalogue of problem types and the one error type, rendered as RFC 9457 problem
 * details by the HTTP layer. Lower layers (engine) throw DomainError (src/domain/domain-error.ts),
 * which the HTTP edge maps onto these types, so a request that names an unknown faction is a 400
 * wherever that is discovered.
 */

export const PROBLEM_BASE = 'https://muster.dev/problems/';

export const PROBLEM_TYPES = {
  validation: { status: 400, title: 'Request validation failed' },
  'malformed-json': { status: 400, title: 'Malformed JSON body' },
  'origin-not-allowed': { status: 403, title: 'Origin not allowed' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'body-too-large': { status: 413, title: 'Request body too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal server error' },
  'not-ready': { status: 503, title: 'Service not ready' },
  timeout: { status: 503, title: 'Request timed out' },
} as const;

export type ProblemKind = keyof typeof PROBLEM_TYPES;

import type { FieldError } from '../domain/domain-error.ts';

export type { FieldError };

/** RFC 9457 §3 problem details as Muster sends them. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
}

export class ProblemError extends Error {
  readonly kind: ProblemKind;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    kind: ProblemKind,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.kind = kind;
    this.status = PROBLEM_TYPES[kind].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  /** RFC 9457 §3.1: type, title, status, detail (+ errors for validation). */
  toProblem(instance?: string): ProblemDetails {
    const problem: ProblemDetails = {
      type: PROBLEM_BASE + this.kind,
      title: PROBLEM_TYPES[this.kind].title,
      status: this.status,
      detail: this.message,
    };
    if (instance !== undefined) problem.instance = instance;
    if (this.errors !== undefined) problem.errors = this.errors;
    return problem;
  }
}

/** A 400 naming one field, e.g. invalid('/factions/2', 'unknown faction "XX"'). */
export function invalid(pointer: string, detail: string): ProblemError {
  return new ProblemError('validation', detail, { errors: [{ pointer, detail }] });
}
