/**
 * Builds the Fastify application: TypeBox validation, problem-details errors, the protections
 * every route shares (origin guard, rate limit, time limit), the OpenAPI generation, and the
 * routes. Nothing here listens; `serve` and the tests (`app.inject()`) decide that.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { AppContext } from './app-context.ts';
import { installProblemHandlers } from './problem-handler.ts';
import { BODY_LIMIT_BYTES } from './plugins/limits.ts';
import { installJsonBodyParser } from './plugins/json-body.ts';
import { installOpenApi } from './plugins/openapi.ts';
import { installOriginGuard } from './plugins/origin-guard.ts';
import { installProblemResponses } from './plugins/problem-responses.ts';
import { installRateLimit } from './plugins/rate-limit.ts';
import { installRequestTimeout } from './plugins/request-timeout.ts';
import { ResponseCache } from './response-cache.ts';
import { registerRoutes } from './routes/index.ts';
import { API_VERSION } from '../version.ts';

export { BODY_LIMIT_BYTES };

export interface BuildAppOptions {
  /** A pino logger config, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** Redis key prefix for the rate-limit counters (tests use one per run). */
  rateLimitNamespace?: string;
}

/** Creates the app with every route registered (DESIGN.md §1, §6). */
export async function buildApp(
  ctx: AppContext,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: ctx.config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: ctx.config.trustProxy,
    requestTimeout: ctx.config.requestTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false },
    // Prototype-poisoning keys are refused outright rather than stripped.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  installJsonBodyParser(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('API-Version', API_VERSION);
  });

  // Everything below works through onRoute hooks, so it must be in place before any route.
  await installOpenApi(app, ctx.config);
  installProblemResponses(app);
  installRequestTimeout(app, ctx.config.requestTimeoutMs);
  await installRateLimit(app, ctx.config, { namespace: options.rateLimitNamespace });
  installOriginGuard(app, ctx.config);
  installProblemHandlers(app, { notFoundPreHandler: app.rateLimit() });

  registerRoutes(app, {
    ...ctx,
    responseCache: ctx.responseCache ?? new ResponseCache(ctx.config.responseCacheBytes),
  });
  return app;
}
