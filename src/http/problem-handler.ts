/**
 * Renders every error path (ours, Fastify's validation, body limits, content-type, 404) as
 * RFC 9457 problem details from the one catalogue in src/errors/problem.ts.
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { DomainError } from '../domain/domain-error.ts';
import type { DomainErrorKind } from '../domain/domain-error.ts';
import { ProblemError } from '../errors/problem.ts';
import type { ProblemKind } from '../errors/problem.ts';
import { toFieldErrors } from '../errors/field-errors.ts';
import { ThrottledLog } from './throttled-log.ts';
import type { SchemaError } from '../errors/field-errors.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

function kindForStatus(status: number): ProblemKind {
  switch (status) {
    case 400:
      return 'malformed-request';
    case 403:
      // The origin guard names its own refusals; any other 403 (static files) is not one.
      return 'forbidden';
    case 404:
      return 'not-found';
    case 405:
      return 'method-not-allowed';
    case 408:
      return 'request-timeout';
    case 413:
      return 'body-too-large';
    case 414:
      return 'uri-too-long';
    case 417:
      return 'expectation-failed';
    case 415:
      return 'unsupported-media-type';
    case 429:
      return 'rate-limited';
    case 431:
      return 'headers-too-large';
    case 503:
      return 'not-ready';
    default:
      return 'internal';
  }
}

/** The problem type of each refusal of the domain layers (docs/problems.md). */
const DOMAIN_PROBLEMS: Readonly<Record<DomainErrorKind, ProblemKind>> = {
  'invalid-query': 'validation',
  'unknown-record': 'not-found',
  'no-data': 'not-ready',
};

/** Maps any thrown value to a ProblemError; unknown errors become an opaque 500. */
export function toProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof DomainError) {
    const errors = error.fields.length === 0 ? undefined : [...error.fields];
    return new ProblemError(DOMAIN_PROBLEMS[error.kind], error.message, { errors });
  }
  const e = error as Partial<FastifyError> & { validation?: SchemaError[] };
  if (Array.isArray(e.validation)) {
    const errors = toFieldErrors(e.validation);
    const detail =
      errors.length === 1
        ? `${errors[0].pointer || '/'}: ${errors[0].detail}`
        : `${errors.length} fields are invalid`;
    return new ProblemError('validation', detail, { errors });
  }
  if (e instanceof SyntaxError || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new ProblemError('malformed-json', 'the request body is not valid JSON', {
      errors: [{ pointer: '', detail: e.message ?? 'invalid JSON' }],
    });
  }
  if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new ProblemError('validation', 'the request body is empty; send a JSON object', {
      errors: [{ pointer: '', detail: 'body must be a JSON object' }],
    });
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return new ProblemError(kindForStatus(status), e.message ?? 'bad request');
  }
  if (status === 503) return new ProblemError('not-ready', e.message ?? 'not ready');
  return new ProblemError('internal', 'an unexpected error occurred; it has been logged');
}

/** Sends a problem response with the right media type and any headers the problem carries. */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ProblemError,
): FastifyReply {
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  return reply
    .code(problem.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problem.toProblem(request.url.split('?')[0]));
}

export interface ProblemHandlerOptions {
  /** Runs before the not-found answer, e.g. the rate limiter, so 404 scans are counted. */
  notFoundPreHandler?: preHandlerAsyncHookHandler;
}

/** The paths a route pattern matches: `:name` one segment, `*` the rest. */
function pathShape(pattern: string): RegExp {
  const parts = pattern.split(/(:[A-Za-z0-9_]+|\*)/).map((part) => {
    if (part === '*') return '.*';
    if (part.startsWith(':')) return '[^/]+';
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('')}$`);
}

/** Installs the error and not-found handlers (RFC 9457 §3). */
export function installProblemHandlers(
  app: FastifyInstance,
  options: ProblemHandlerOptions = {},
): void {
  // Refusals for load come in floods: a warning a kind per interval, with its count.
  const overload = new ThrottledLog(app.log);
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblemError(error);
    if (
      problem.kind === 'busy' ||
      problem.kind === 'timeout' ||
      problem.kind === 'too-many-computations'
    ) {
      overload.note(
        `request-${problem.kind}`,
        problem.kind === 'busy'
          ? 'requests refused: too many computations waiting (503 busy)'
          : problem.kind === 'timeout'
            ? 'requests timed out (503 timeout)'
            : "requests refused: past a client's share of long computations (429 too-many-computations)",
        { url: request.url },
      );
    } else if (problem.status >= 500 && problem.kind !== 'not-ready') {
      request.log.error({ err: error, reqId: request.id }, 'request failed');
    }
    return sendProblem(request, reply, problem);
  });
  // The methods each fixed path answers, so that any other method on it, whether a router
  // knows it or not (TRACE, PROPFIND), is a 405 with Allow rather than a 404 (RFC 9110 §15.5.6).
  // Paths with parameters (/problems/:type, /docs/static/*) by the shape of path they match.
  const methods = new Map<string, Set<string>>();
  const shapes = new Map<string, { shape: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const config = route.config as { methodNotAllowed?: boolean } | undefined;
    if (config?.methodNotAllowed === true) return;
    let set: Set<string>;
    if (/[:*]/.test(route.url)) {
      const entry = shapes.get(route.url) ?? { shape: pathShape(route.url), methods: new Set() };
      shapes.set(route.url, entry);
      set = entry.methods;
    } else {
      set = methods.get(route.url) ?? new Set<string>();
      methods.set(route.url, set);
    }
    for (const method of [route.method].flat()) if (method !== 'OPTIONS') set.add(method);
  });
  const methodsOf = (path: string): Set<string> | undefined =>
    methods.get(path) ?? [...shapes.values()].find(({ shape }) => shape.test(path))?.methods;
  const preHandler = options.notFoundPreHandler;
  app.setNotFoundHandler(preHandler === undefined ? {} : { preHandler }, (request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = methodsOf(path);
    if (allowed !== undefined && allowed.size > 0 && !allowed.has(request.method)) {
      const allow = [...allowed].sort().join(', ');
      return sendProblem(
        request,
        reply,
        new ProblemError('method-not-allowed', `${request.method} is not supported on ${path}`, {
          headers: { allow },
        }),
      );
    }
    return sendProblem(
      request,
      reply,
      new ProblemError('not-found', `no route for ${request.method} ${path}`),
    );
  });
}
