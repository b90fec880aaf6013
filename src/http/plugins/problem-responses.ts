/**
 * Documents the problem responses (RFC 9457) of every route in its schema, so that the OpenAPI
 * document lists them and Fastify serialises them with the one shared Problem schema. Added by
 * an onRoute hook: route authors declare only their success responses.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { PROBLEM_BASE, PROBLEM_TYPES, problemTypeUri } from '../../errors/problem.ts';
import type { ProblemKind } from '../../errors/problem.ts';
import { PROBLEM_CONTENT_TYPE } from '../problem-handler.ts';
import { isRateLimitExempt } from './rate-limit.ts';

export const PROBLEM_SCHEMA_ID = 'Problem';

/** RFC 9457 §3.1 problem details with Muster's `errors[]` extension member. */
export const ProblemSchema = {
  $id: PROBLEM_SCHEMA_ID,
  type: 'object',
  description: "RFC 9457 problem details; `type` identifies the problem in Muster's catalogue",
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: {
      type: 'string',
      // A relative reference, the same on every server (docs/problems.md).
      format: 'uri-reference',
      description:
        `The problem type: a relative reference ${PROBLEM_BASE}{kind}, the same on every ` +
        'Muster server. Resolved against the request URL (RFC 3986 §5) it is an HTML page ' +
        `this server serves explaining the type; ${PROBLEM_BASE.replace(/\/$/, '')} lists them all`,
      enum: Object.keys(PROBLEM_TYPES).map((kind) => problemTypeUri(kind as ProblemKind)),
    },
    title: { type: 'string', description: 'Short summary of the problem type (fixed per type)' },
    status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status code' },
    detail: { type: 'string', description: 'What went wrong with this request' },
    instance: { type: 'string', description: 'The request path the problem occurred at' },
    errors: {
      type: 'array',
      description: 'For validation problems: each invalid field',
      items: {
        type: 'object',
        required: ['pointer', 'detail'],
        properties: {
          pointer: {
            type: 'string',
            description: 'RFC 6901 JSON Pointer into the request body ("" for the whole body)',
          },
          detail: { type: 'string', description: 'What is wrong with that field' },
        },
      },
    },
  },
} as const;

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  description,
  ...schema,
});

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('Requests allowed per window', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the current window', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window resets', { type: 'integer' }),
};

interface ProblemResponse {
  kind: ProblemKind;
  description: string;
  headers?: Record<string, Record<string, unknown>>;
}

const RESPONSES: Record<number, ProblemResponse> = {
  400: {
    kind: 'validation',
    description:
      'The body is not valid JSON or does not match the schema (unknown fields, wrong types, ' +
      'arrays over 100 entries, page sizes over 200); `errors[]` points at each field',
  },
  403: {
    kind: 'origin-not-allowed',
    description: 'The Origin header is missing, `null` or not one of the allowed origins',
  },
  404: {
    kind: 'not-found',
    description: 'An id in the request names a record the data does not hold',
  },
  405: {
    kind: 'method-not-allowed',
    description: 'Another method than POST was used on this path',
    headers: { Allow: header('The methods this path accepts: POST') },
  },
  413: { kind: 'body-too-large', description: 'The request body is over 16 KiB' },
  415: { kind: 'unsupported-media-type', description: 'The body is not sent as application/json' },
  429: {
    kind: 'rate-limited',
    description:
      'Too many requests from this client in the current window (`rate-limited`), or it already has its share of long computations running or waiting (`too-many-computations`)',
    headers: {
      'Retry-After': header('Seconds to wait before retrying', { type: 'integer' }),
      ...RATE_LIMIT_HEADERS,
    },
  },
  500: {
    kind: 'internal',
    description: 'An unexpected error; it is logged with the request id, no internals are sent',
  },
  503: {
    kind: 'timeout',
    description:
      'The request took longer than the configured time limit, or the service is not ready',
  },
};

/**
 * The documented problem response of `status` (OpenAPI 3.1 §4.8.17), with a route's own
 * description of when it is sent where it has one.
 */
export function problemResponse(status: number, description?: string): Record<string, unknown> {
  const spec = RESPONSES[status];
  return {
    description: description ?? spec.description,
    ...(spec.headers ? { headers: spec.headers } : {}),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: `${PROBLEM_SCHEMA_ID}#` },
        example: {
          type: problemTypeUri(spec.kind),
          title: PROBLEM_TYPES[spec.kind].title,
          status,
          detail: spec.description,
        },
      },
    },
  };
}

function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

/** The problem statuses a route can answer with, given how it is protected. */
export function problemStatusesFor(route: RouteOptions): number[] {
  const statuses = methodsOf(route).includes('POST') ? [400, 403, 405, 413, 415] : [];
  if (!isRateLimitExempt(route.url)) statuses.push(429);
  statuses.push(500, 503);
  return statuses;
}

/** Registers the shared Problem schema and adds problem responses to every documented route. */
export function installProblemResponses(app: FastifyInstance): void {
  app.addSchema(ProblemSchema);
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown> & { hide?: boolean };
    if (schema.hide === true || route.method === 'HEAD') return;
    const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
    for (const status of problemStatusesFor(route)) {
      // A route that documents a status itself (health's 503) keeps its own answer.
      if (!(status in response)) response[status] = problemResponse(status);
    }
    route.schema = { ...schema, response };
  });
}
