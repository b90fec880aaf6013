/**
 * The absolute base URL clients reach the API at: MUSTER_PUBLIC_URL when set, otherwise the
 * request's own scheme and Host (RFC 9110 §7.2; X-Forwarded-* only when trustProxy allows).
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.ts';

const HOST_SHAPE = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The base URL without a trailing slash, e.g. `https://stats.example.org`. */
export function publicBase(request: FastifyRequest, config: Config): string {
  if (config.publicUrl !== null) return config.publicUrl;
  const host = request.host;
  // A malformed Host never reaches the documents; fall back to where the service listens.
  const authority =
    typeof host === 'string' && HOST_SHAPE.test(host) ? host : `${config.host}:${config.port}`;
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  return `${scheme}://${authority.toLowerCase()}`;
}
