/**
 * The one catalogue of problem types and the one error type, rendered as RFC 9457 problem
 * details by the HTTP layer. Lower layers (engine) throw DomainError (src/domain/domain-error.ts),
 * which the HTTP edge maps onto these types, so a request that names an unknown faction is a 400
 * wherever that is discovered.
 */

/**
 * Problem type URIs are relative references with a full path, `/problems/<kind>` (RFC 9457
 * §3.1.1; resolved against the response's URI per RFC 3986 §5). Why not absolute: a URI on a
 * domain of ours documents no particular deployment and resolves only while that site lives,
 * and a URI built from each deployment's address would make one problem type's identifier
 * differ between servers. The relative form is the same string everywhere (a stable
 * identifier) and resolves to the page the sending server itself serves
 * (src/http/routes/problem-pages.ts). See docs/problems.md#why-type-is-a-relative-reference.
 */
export const PROBLEM_BASE = '/problems/';

/** One problem type: its HTTP status, fixed title, and the explanation its page shows. */
export interface ProblemTypeSpec {
  readonly status: number;
  readonly title: string;
  /** What causes the problem and what a client can do, in plain sentences (its HTML page). */
  readonly description: string;
}

export const PROBLEM_TYPES = {
  validation: {
    status: 400,
    title: 'Request validation failed',
    description:
      'The request body is JSON but does not match what the route accepts: an unknown field, a ' +
      'value of the wrong type, a number or an array outside its bounds, a date that is not a ' +
      'real calendar date, or a name the data does not know (a game system, a faction, a ' +
      'scenario). The errors member lists each invalid field as a JSON Pointer into the body ' +
      'with what is wrong. Correct those fields and send the request again: sent unchanged, it ' +
      'fails the same way.',
  },
  'malformed-json': {
    status: 400,
    title: 'Malformed JSON body',
    description:
      'The request body could not be parsed as JSON (RFC 8259). The first entry of errors says ' +
      'where parsing stopped. Send one JSON object, encoded as UTF-8.',
  },
  'invalid-encoding': {
    status: 400,
    title: 'Request body is not UTF-8',
    description:
      'The request body contains bytes that are not valid UTF-8, the only encoding JSON allows ' +
      'between systems (RFC 8259 §8.1). It is often a file saved in another encoding, or text ' +
      'cut in the middle of a character. Re-encode the body as UTF-8 and send it again.',
  },
  'nesting-too-deep': {
    status: 400,
    title: 'JSON nested too deeply',
    description:
      'The request body nests arrays or objects deeper than the parser accepts (32 levels). A ' +
      'statistics request is a flat filter with a few small objects and lists, so deeper ' +
      'nesting is never needed; flatten the body.',
  },
  'malformed-request': {
    status: 400,
    title: 'Malformed HTTP request',
    description:
      'The request itself could not be read as HTTP/1.1 (RFC 9112): for example it carries both ' +
      'Transfer-Encoding and Content-Length, a body that does not match its Content-Length, a ' +
      'broken header, no Host header, or a path that is not valid percent-encoded UTF-8. Such ' +
      'requests are refused before any route runs, and the connection is closed when the ' +
      'message cannot be framed. It usually means a broken client or proxy.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    description:
      'The path names something that is not served, such as a folder of the static files ' +
      'rather than a file in it. Request a file, or the page at /docs or /.',
  },
  'origin-not-allowed': {
    status: 403,
    title: 'Origin not allowed',
    description:
      'The statistics routes answer only browser pages on the sites the operator allowed. The ' +
      'Origin header of this request was missing, "null", or not one of those origins, so the ' +
      'request was stopped before it ran. A page on another site cannot call this API; a ' +
      'server-to-server client needs the operator to accept requests without an Origin.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description:
      'No route answers this method and path (or no problem type has this name), or the ' +
      "request names a record the data does not hold (rankings' player or versus, events' event " +
      'or player; errors[] ' +
      'points at it). The routes are listed in the HTML reference at /docs and in the OpenAPI document at ' +
      '/.well-known/openapi.json.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description:
      'The path exists, but not with this method: the statistics routes take POST with a JSON ' +
      'body (and answer OPTIONS preflights). The Allow header lists the methods the path accepts.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request not received in time',
    description:
      'The client did not send the whole request (headers, then body) within the time the ' +
      'operator allows, so the connection was closed. Send the request at once; a slow or ' +
      'stalled connection is cut off so that it cannot hold the server.',
  },
  'body-too-large': {
    status: 413,
    title: 'Request body too large',
    description:
      'Request bodies are limited to 16 KiB. A statistics request is a small filter, and arrays ' +
      'in it are limited to 100 entries, so a larger body is almost certainly a mistake. Send ' +
      'fewer values.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description:
      'Send the request body as JSON with the header Content-Type: application/json. Other ' +
      'media types are refused, including text/plain and form posts, which browsers would ' +
      'otherwise send to another site without asking first.',
  },
  'uri-too-long': {
    status: 414,
    title: 'Request path too long',
    description:
      'A segment of the request path is longer than any name the service serves (over 100 ' +
      'characters), so it was refused before any route ran. Check the link or the client that ' +
      'built it.',
  },
  'expectation-failed': {
    status: 417,
    title: 'Expectation not supported',
    description:
      'The request carries an Expect header other than "100-continue", the only expectation ' +
      'HTTP/1.1 defines (RFC 9110 §10.1.1). Send the request without it, or with ' +
      'Expect: 100-continue.',
  },
  'headers-too-large': {
    status: 431,
    title: 'Request headers too large',
    description:
      'The request headers are larger than the server accepts (16 KiB in total). Send fewer or ' +
      'shorter headers, typically fewer cookies.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description:
      'This client sent more requests than the service allows in the current time window. Wait ' +
      'the number of seconds given in the Retry-After header before trying again; the ' +
      'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers of every counted answer ' +
      'show the budget.',
  },
  'too-many-computations': {
    status: 429,
    title: 'Too many long computations from this client',
    description:
      'This client already has as many long computations (player ratings over many games with ' +
      'parameters not asked for before, a joint model or a backtest not yet fitted) running or ' +
      'waiting as one client may, so that others still get their turn. Wait for an answer ' +
      'before asking for another, or retry after the number of seconds in the Retry-After ' +
      'header; answers asked for before come from the cache and are not counted.',
  },
  'too-many-streams': {
    status: 429,
    title: 'Too many live streams from this client',
    description:
      'This client already holds as many GET /api/live streams open as one client may. One ' +
      'stream carries every change, so a page needs only one: close the others (or reuse one ' +
      'EventSource across tabs) and retry after the number of seconds in the Retry-After header.',
  },
  internal: {
    status: 500,
    title: 'Internal server error',
    description:
      'Something unexpected went wrong while answering. The answer carries no internals; the ' +
      'error was logged on the server with the request. Retrying may succeed; if it keeps ' +
      'failing, tell the operator the time and the request.',
  },
  'not-ready': {
    status: 503,
    title: 'Service not ready',
    description:
      'The service cannot answer statistics yet: it is still loading its data after a start, ' +
      'or no data has been imported. Retry after the number of seconds in the Retry-After ' +
      'header, when there is one.',
  },
  busy: {
    status: 503,
    title: 'Service busy',
    description:
      'The service is already working on as many long computations (player ratings over many ' +
      'games with parameters not asked for before) as it queues. Retry after the number of ' +
      'seconds in the Retry-After header; answers asked for before come from the cache.',
  },
  timeout: {
    status: 503,
    title: 'Request timed out',
    description:
      'Answering took longer than the time limit the operator set, so the request was ' +
      'abandoned. Try a narrower filter, or retry a little later.',
  },
} as const satisfies Record<string, ProblemTypeSpec>;

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

/** The `type` member of a problem kind: a relative reference, the same on every server. */
export function problemTypeUri(kind: ProblemKind): string {
  return PROBLEM_BASE + kind;
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
      type: problemTypeUri(this.kind),
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
