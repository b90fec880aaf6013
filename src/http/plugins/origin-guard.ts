/**
 * Guards every POST route (docs/http-api.md#origins-and-cors): the Origin check and the
 * JSON-only content type run in an onRequest hook, before the body is read and before the
 * handler; each POST path also gets a CORS preflight (OPTIONS) and a 405 for other methods.
 * Applied generically through onRoute, so route files need nothing.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import { ProblemError } from '../../errors/problem.ts';
import type { Config } from '../../config/config.ts';
import { allowedOrigins } from './allowed-origins.ts';

/** How long a browser may cache a preflight answer (Chromium caps this at 2 h). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Response headers a browser script may read on a cross-origin answer (Fetch §3.2.5). */
export const EXPOSED_HEADERS = [
  'API-Version',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
].join(', ');

const OTHER_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'] as const;

function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  if (!/(^|,)\s*origin\s*(,|$)/i.test(text)) {
    reply.header('vary', text === '' ? 'Origin' : `${text}, Origin`);
  }
}

/** The verdict on a request's Origin header, shared by POST and the preflight. */
type OriginVerdict = { allowed: true; origin: string | null } | { allowed: false; reason: string };

/** Installs the guard; must run before any POST route is registered. */
export function installOriginGuard(app: FastifyInstance, config: Config): void {
  const matches = allowedOrigins(app, config);
  const guarded = new Set<string>();

  function judge(request: FastifyRequest): OriginVerdict {
    const header = request.headers.origin;
    if (header === undefined || header === '' || header === 'null') {
      if (config.allowNoOrigin) return { allowed: true, origin: null };
      return {
        allowed: false,
        reason:
          header === 'null'
            ? 'requests with an opaque ("null") Origin are not accepted'
            : 'the Origin header is required on this route',
      };
    }
    if (matches(header)) return { allowed: true, origin: header };
    return { allowed: false, reason: `origin ${JSON.stringify(header)} is not allowed` };
  }

  function refuse(verdict: { reason: string }): ProblemError {
    return new ProblemError('origin-not-allowed', verdict.reason);
  }

  // A route-level hook, added after the rate limiter's (installed first, also per route), so
  // that refused origins and media types are counted toward the limit before being refused.
  const check = (request: FastifyRequest, reply: FastifyReply): void => {
    addVary(reply);
    if (request.method !== 'POST') return;
    const verdict = judge(request);
    if (!verdict.allowed) throw refuse(verdict);
    if (verdict.origin !== null) {
      reply.header('access-control-allow-origin', verdict.origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    // Closes the CORS "simple request" path (text/plain, form posts) that skips the preflight.
    if (!isJson(request.headers['content-type'])) {
      throw new ProblemError(
        'unsupported-media-type',
        'send the request body as application/json',
        { headers: { accept: 'application/json' } },
      );
    }
  };
  // Callback style: it runs on every POST, and an async hook costs a promise per request.
  const guard: onRequestHookHandler = (request, reply, done) => {
    try {
      check(request, reply);
      done();
    } catch (error) {
      done(error as Error);
    }
  };

  app.addHook('onRoute', (route) => {
    const post = methodsOf(route).includes('POST');
    if (post || guarded.has(route.url)) {
      const hooks = route.onRequest;
      route.onRequest = [...(hooks === undefined ? [] : [hooks].flat()), guard];
    }
    if (!post || guarded.has(route.url)) return;
    guarded.add(route.url);
    const url = route.url;

    app.route({
      method: 'OPTIONS',
      url,
      schema: { hide: true },
      handler: async (request, reply) => {
        const verdict = judge(request);
        if (!verdict.allowed) throw refuse(verdict);
        reply.header('allow', 'POST, OPTIONS');
        if (verdict.origin !== null) {
          reply.header('access-control-allow-origin', verdict.origin);
          reply.header('access-control-allow-methods', 'POST');
          reply.header('access-control-allow-headers', 'Content-Type');
          reply.header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
        }
        return reply.code(204).send();
      },
    });

    app.route({
      method: [...OTHER_METHODS],
      url,
      exposeHeadRoute: false,
      schema: { hide: true },
      // Not a method the path answers: the not-found handler's Allow leaves it out.
      config: { methodNotAllowed: true },
      handler: async (request) => {
        throw new ProblemError(
          'method-not-allowed',
          `${request.method} is not supported on ${url}; use POST`,
          { headers: { allow: 'POST' } },
        );
      },
    });
  });
}
