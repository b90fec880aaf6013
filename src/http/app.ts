/**
 * Builds the Fastify application: TypeBox validation, problem-details errors, and the routes.
 * Nothing here listens; `serve` and the tests (`app.inject()`) decide that.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { AppContext } from './app-context.ts';
import { installProblemHandlers } from './problem-handler.ts';
import { registerRoutes } from './routes/index.ts';
import { API_VERSION } from '../version.ts';

export const BODY_LIMIT_BYTES = 16 * 1024;

export interface BuildAppOptions {
  /** A pino logger config, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
}

/** Creates the app with every route registered (DESIGN.md §1). */
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
  installProblemHandlers(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('API-Version', API_VERSION);
  });

  registerRoutes(app, ctx);
  return app;
}
