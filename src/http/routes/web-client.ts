/**
 * GET /: the dashboard, Muster's own web client (its source in web/, built by `npm run
 * build:web` into web/dist, which `npm ci`, `npm start` and `npm test` do). Served by Muster
 * with @fastify/static, every asset local, so it works with the network cut off
 * (docs/operations.md#web-client). Hashed assets are cached for good; the page is revalidated.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ProblemError } from '../../errors/problem.ts';

/** Where `npm run build:web` writes the client. */
export const WEB_CLIENT_ROOT = resolve(import.meta.dirname, '../../../web/dist');

/** Only this origin's scripts, styles, images and fetches; no inline script, no framing. */
export const WEB_CLIENT_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Registers the client at / (hidden from the OpenAPI document), or a 503 when it is not built. */
export function registerWebClientRoutes(app: FastifyInstance, root = WEB_CLIENT_ROOT): void {
  if (!existsSync(resolve(root, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async () => {
      throw new ProblemError(
        'not-ready',
        'the web client is not built; run `npm run build:web` (npm ci, npm start and npm test do)',
      );
    });
    return;
  }
  app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    // The build writes .br and .gz copies (web/vite.config.ts): sent as they are, never
    // compressed again per request (docs/http-api.md#compression).
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, path) {
      // The same path answers plain, .br or .gz bytes: caches must key on Accept-Encoding.
      res.setHeader('vary', 'Accept-Encoding');
      if (path.includes('/assets/')) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.setHeader('cache-control', 'no-cache');
      }
      if (/\.html(?:\.br|\.gz)?$/.test(path))
        res.setHeader('content-security-policy', WEB_CLIENT_CSP);
    },
  });
}
