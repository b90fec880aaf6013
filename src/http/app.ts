/**
 * Builds the Fastify application: TypeBox validation, problem-details errors, the protections
 * every route shares (origin guard, rate limit, time limit), the OpenAPI generation, and the
 * routes. Nothing here listens; `serve` and the tests (`app.inject()`) decide that.
 */
import type { Socket } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import { installProblemHandlers } from './problem-handler.ts';
import { BODY_LIMIT_BYTES } from './plugins/limits.ts';
import { installCompression } from './plugins/compression.ts';
import { installJsonBodyParser } from './plugins/json-body.ts';
import { installOpenApi } from './plugins/openapi.ts';
import { answerClientError, answerConnect, answerFrameworkError } from './client-error.ts';
import { ConnectionGuard } from './connection-guard.ts';
import { installGracefulClose } from './graceful-close.ts';
import { installOriginGuard } from './plugins/origin-guard.ts';
import { installProblemResponses } from './plugins/problem-responses.ts';
import { installRateLimit } from './plugins/rate-limit.ts';
import { installRequestFraming } from './plugins/request-framing.ts';
import { installRequestTimeout } from './plugins/request-timeout.ts';
import { installSecurityHeaders } from './plugins/security-headers.ts';
import { OneLineRequestLog } from './plugins/request-log.ts';
import { buildSerializer } from './plugins/serializer.ts';
import { cachedValidatorCompiler } from './plugins/validator-compiler.ts';
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

/** Creates the app with every route registered (docs/http-api.md). */
export async function buildApp(
  ctx: AppContext,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: ctx.config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: ctx.config.trustProxy,
    // Slow clients: headers and the whole request must arrive within these bounds, checked
    // often enough that a slow sender is dropped close to its deadline (Node 'http' options).
    requestTimeout: ctx.config.receiveTimeoutMs,
    http: {
      headersTimeout: ctx.config.headersTimeoutMs,
      requestTimeout: ctx.config.receiveTimeoutMs,
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(1000, Math.floor(ctx.config.headersTimeoutMs / 4)),
      ),
      // A request without Host is refused as a problem document (request-framing.ts), not
      // with Node's bare 400.
      requireHostHeader: false,
    },
    // While closing, requests already on open connections are answered (with Connection:
    // close), not refused: see graceful-close.ts.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false },
    // Prototype-poisoning keys are refused outright rather than stripped.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    schemaController: { compilersFactory: { buildSerializer } },
    logController: new OneLineRequestLog(),
  });
  // Connections in all and per client, and the first request's headers deadline from accept.
  new ConnectionGuard(app.server, app.log, {
    maxConnections: ctx.config.maxConnections,
    maxConnectionsPerClient: ctx.config.maxConnectionsPerClient,
    headersTimeoutMs: ctx.config.headersTimeoutMs,
    checkIntervalMs: Math.max(100, Math.min(1000, Math.floor(ctx.config.headersTimeoutMs / 4))),
    trustProxy: ctx.config.trustProxy,
    shared: ctx.connectionCounts,
  });
  app.server.on('connect', (_request, socket: Socket) => answerConnect(socket));
  app.setValidatorCompiler(cachedValidatorCompiler);
  installJsonBodyParser(app);
  installGracefulClose(app);
  // Callback-style hooks on every request: an async hook costs a promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('API-Version', API_VERSION);
    done(null, payload);
  });

  // Everything below works through onRoute hooks, so it must be in place before any route.
  installSecurityHeaders(app);
  installRequestFraming(app);
  await installCompression(app);
  await installOpenApi(app, ctx.config);
  installProblemResponses(app);
  installRequestTimeout(app, ctx.config.requestTimeoutMs);
  const redis = await installRateLimit(app, ctx.config, {
    namespace: options.rateLimitNamespace,
    counts: ctx.rateCounts,
  });
  installOriginGuard(app, ctx.config);
  installProblemHandlers(app, { notFoundPreHandler: app.rateLimit() });

  // Given, not made here: the caller starts the threads and closes them.
  const { engineThread } = ctx;
  const responseCache = ctx.responseCache ?? new ResponseCache(ctx.config.responseCacheBytes);
  if (ctx.metrics !== undefined) {
    ctx.metrics.install(app);
    ctx.metrics.watch({ engines: engineThread, responseCache });
  }
  registerRoutes(app, { ...ctx, redis, responseCache, engineThread });
  return app;
}
