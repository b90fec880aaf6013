/**
 * The one test of a request's Origin against the origins allowed to POST, shared by the origin
 * guard and the rate limiter's CORS headers (docs/http-api.md#origins-and-cors). The default
 * origins are the loopback origins of the port the server is bound to, which with MUSTER_PORT=0
 * is known only once it listens.
 */
import type { FastifyInstance } from 'fastify';
import { originsForPort } from '../../config/config.ts';
import type { Config } from '../../config/config.ts';
import { originMatcher } from './origin-matcher.ts';

/** Matches an Origin header against the origins `app` allows (RFC 6454 §7). */
export function allowedOrigins(app: FastifyInstance, config: Config): (origin: string) => boolean {
  const configured = originMatcher(config.allowedOrigins);
  // Only MUSTER_PORT=0 leaves the port to learn: otherwise `serve` binds the port configured.
  if (!config.originsFollowPort || config.port !== 0) return configured;
  let bound: ((origin: string) => boolean) | null = null;
  return (origin) => {
    if (bound === null) {
      // Null until the server listens (an in-process request): the configured port's origins.
      const address = app.server.address();
      if (address === null || typeof address !== 'object') return configured(origin);
      bound = originMatcher(originsForPort(config, address.port));
    }
    return bound(origin);
  };
}
