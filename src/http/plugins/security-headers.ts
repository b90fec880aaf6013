/**
 * Security response headers on every answer with helmet (docs/http-api.md#security-
 * headers): nosniff, frame and referrer policies, HSTS (honoured by browsers over HTTPS only)
 * and a Content-Security-Policy. The default policy allows only this origin's scripts, styles,
 * images and fetches; /docs and the web client at / send their own, equally self-only
 * policies (Swagger UI needs inline styles). No `upgrade-insecure-requests`: a deployment on
 * plain HTTP (a LAN, localhost) must keep loading its own assets.
 */
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

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

const headers = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: DEFAULT_CSP_DIRECTIVES },
  // Only this origin may embed the API's answers in a page (fetches with CORS are unaffected).
  crossOriginResourcePolicy: { policy: 'same-site' },
  // Six months, this host only: an operator's other subdomains are not ours to decide.
  strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
});

let fixed: ReadonlyArray<readonly [string, string]> | undefined;

/**
 * The same headers as name/value pairs, for answers written before or outside Fastify's hooks
 * (framing errors on the raw socket, refused URLs): every error carries them too
 * (docs/http-api.md#security-headers). helmet's headers do not depend on the request.
 */
export function securityHeaderPairs(): ReadonlyArray<readonly [string, string]> {
  if (fixed === undefined) {
    const pairs: Array<[string, string]> = [];
    const recorder = {
      setHeader: (name: string, value: string | number | readonly string[]) =>
        pairs.push([name, Array.isArray(value) ? value.join(', ') : String(value)]),
      removeHeader: () => undefined,
    };
    headers(
      {} as Parameters<typeof headers>[0],
      recorder as unknown as Parameters<typeof headers>[1],
      () => undefined,
    );
    fixed = pairs;
  }
  return fixed;
}

/**
 * Adds helmet's headers to every answer (docs/http-api.md#security-headers). The middleware is
 * built once: building it per request, as the Fastify wrapper does, cost a tenth of a small
 * request's CPU time. Routes that need another CSP (/docs, the web client) set their own, which
 * takes precedence over the one set here.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    // helmet sets its headers synchronously; since helmet 8.1 it throws rather than calling back.
    headers(request.raw, reply.raw, () => done());
  });
}
