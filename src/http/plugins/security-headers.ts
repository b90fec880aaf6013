/**
 * Security response headers on every answer with @fastify/helmet (docs/http-api.md#security-
 * headers): nosniff, frame and referrer policies, HSTS (honoured by browsers over HTTPS only)
 * and a Content-Security-Policy. The default policy allows only this origin's scripts, styles,
 * images and fetches; /docs and the web client at / send their own, equally self-only
 * policies (Swagger UI needs inline styles). No `upgrade-insecure-requests`: a deployment on
 * plain HTTP (a LAN, localhost) must keep loading its own assets.
 */
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** The CSP of every answer that does not set its own (W3C CSP Level 3). */
export const DEFAULT_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  frameAncestors: ["'self'"],
  formAction: ["'self'"],
};

/** Registers helmet for every route, before the routes (docs/http-api.md#security-headers). */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: DEFAULT_CSP_DIRECTIVES },
    // Only this origin may embed the API's answers in a page (fetches with CORS are unaffected).
    crossOriginResourcePolicy: { policy: 'same-site' },
    // Six months, this host only: an operator's other subdomains are not ours to decide.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  });
}
