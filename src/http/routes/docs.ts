/**
 * GET /docs: the HTML API reference, Swagger UI from @fastify/swagger-ui rendering the same
 * generated document, with every asset served by Muster itself (no CDN: works offline).
 * "Try it out" posts from the page's own origin, which the default allowed origins include.
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import type { AppContext } from '../app-context.ts';
import { documentJson, documentYaml } from '../plugins/openapi.ts';
import { DOCS_PATH } from './api-catalog.ts';

/** Only this origin's scripts, styles and fetches; Swagger UI sets inline styles. */
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');

/** Registers the docs page and its assets under /docs (hidden from the OpenAPI document). */
export function registerDocsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Swagger UI's /docs/json and /docs/yaml would encode the document on every request, YAML
  // the dearest: they answer the text built once per start instead, with servers
  // naming MUSTER_PUBLIC_URL or the origin the page was loaded from.
  const documents: Record<string, RouteHandlerMethod> = {
    [`${DOCS_PATH}/json`]: (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(documentJson(app, ctx.config)),
    [`${DOCS_PATH}/yaml`]: (_request, reply) =>
      reply.type('application/x-yaml').send(documentYaml(app, ctx.config)),
  };
  app.addHook('onRoute', (route) => {
    const handler = documents[route.url];
    if (handler !== undefined && route.method === 'GET') route.handler = handler;
  });
  app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: DOCS_CSP,
    validatorUrl: false,
    theme: { title: 'Muster API reference' },
    uiConfig: {
      deepLinking: true,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      docExpansion: 'list',
    },
  });
}
