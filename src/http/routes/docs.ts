/**
 * GET /docs: the HTML API reference, Swagger UI from @fastify/swagger-ui rendering the same
 * generated document, with every asset served by Muster itself (no CDN: works offline).
 * "Try it out" posts from the page's own origin, which the default allowed origins include.
 */
import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import type { AppContext } from '../app-context.ts';
import { documentFor } from '../plugins/openapi.ts';
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
  app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: DOCS_CSP,
    // Its own copy of the document, with servers naming the origin the page was loaded from.
    transformSpecification: (_document, request) => documentFor(app, request, ctx.config),
    transformSpecificationClone: false,
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
