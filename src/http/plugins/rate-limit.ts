/**
 * The per-client rate limit (docs/http-api.md#limits) with @fastify/rate-limit: one counter per
 * client IP across every route, in Redis when configured so several instances share it.
 * Headers follow draft-ietf-httpapi-ratelimit-headers (RateLimit-Limit/-Remaining/-Reset)
 * plus Retry-After (RFC 9110 §10.2.3) on 429.
 */
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../../config/config.ts';
import { ProblemError } from '../../errors/problem.ts';
import { isWebClientPath } from '../web-client-paths.ts';
import { EXPOSED_HEADERS } from './origin-guard.ts';
import { allowedOrigins } from './allowed-origins.ts';

export const DEFAULT_RATE_LIMIT_NAMESPACE = 'muster:rl:';

const REDIS_CONNECT_WAIT_MS = 2000;

/**
 * Routes left out of the limit: health, so that a load balancer or orchestrator polling it is
 * never told a healthy instance is failing, and the web client's page and assets, which one
 * page view loads by the handful. Everything else (API, the docs page and its documents,
 * discovery documents, 404s) is counted: nothing that costs more than health is unlimited.
 */
export function isRateLimitExempt(url: string | undefined): boolean {
  if (url === undefined) return false;
  return url === '/api/health' || isWebClientPath(url);
}

/**
 * The rate limit's counts kept for the whole process when several server threads serve
 * (src/threads/shared-limits.ts keeps them): one request of `key` counted in its window.
 */
export interface RateCounts {
  increment(key: string, windowMs: number): { readonly current: number; readonly ttl: number };
}

export interface RateLimitOptions {
  /** Redis key prefix; tests give each run its own. */
  namespace?: string;
  /**
   * The counts every server thread of the process shares (shared-limits.ts), when several
   * serve; without them (and without Redis) the counts are this thread's.
   */
  counts?: RateCounts;
}

/** A @fastify/rate-limit store over the counts shared by the threads of this process. */
function sharedStore(counts: RateCounts, windowMs: number) {
  return class SharedStore {
    incr(
      key: string,
      done: (error: Error | null, count?: { current: number; ttl: number }) => void,
    ): void {
      done(null, counts.increment(key, windowMs));
    }

    // One count per client across every route, as with the default store.
    child(): this {
      return this;
    }
  };
}

/**
 * The client a request is counted against (docs/http-api.md#limits): its address as the trusted
 * proxies give it, but only an address. An X-Forwarded-For entry that is not one (`not-an-ip`,
 * any text a client sends) is skipped for the nearest entry that is, so a client cannot mint a
 * fresh key per request; the socket's own address is always one.
 */
export function clientKey(request: FastifyRequest): string {
  if (isIP(request.ip) !== 0) return request.ip;
  const chain = request.ips ?? [];
  for (let i = chain.length - 1; i >= 0; i--) if (isIP(chain[i]) !== 0) return chain[i];
  return request.socket.remoteAddress ?? 'unknown';
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s === 1 ? '1 second' : `${s} seconds`;
}

function connectRedis(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, {
    // Fail fast rather than queue: a request must never wait on an absent Redis.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: REDIS_CONNECT_WAIT_MS,
    lazyConnect: false,
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    app.log.warn(
      { err: error, redis: url.replace(/\/\/[^@/]*@/, '//***@') },
      'rate-limit Redis unavailable; requests are not limited until it is back',
    );
  });
  redis.on('ready', () => {
    if (reported) app.log.info('rate-limit Redis connected again');
    reported = false;
  });
  app.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, REDIS_CONNECT_WAIT_MS);
      redis.once('ready', done);
    });
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return redis;
}

/**
 * Registers the limiter; must be awaited before any route is registered (it works by onRoute).
 * Returns its Redis client when one is configured, for health to ping.
 */
export async function installRateLimit(
  app: FastifyInstance,
  config: Config,
  options: RateLimitOptions = {},
): Promise<Redis | undefined> {
  const redis = config.redisUrl === null ? undefined : connectRedis(app, config.redisUrl);
  const allowed = allowedOrigins(app, config);
  const allowedOrigin = (request: FastifyRequest): string | null => {
    const origin = request.headers.origin;
    return origin !== undefined && origin !== 'null' && allowed(origin) ? origin : null;
  };
  // The 429 is sent before the origin guard runs, so it names the origin itself (Fetch §3.2.5)
  // for the page to read Retry-After and the RateLimit headers.
  const corsHeaders = (request: FastifyRequest): Record<string, string> => {
    const origin = allowedOrigin(request);
    if (origin === null) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': EXPOSED_HEADERS,
      vary: 'Origin',
    };
  };
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    hook: 'onRequest',
    enableDraftSpec: true,
    // Availability over strictness: if Redis fails, serve unlimited and say so in the log.
    skipOnError: true,
    ...(redis !== undefined
      ? { redis, nameSpace: options.namespace ?? DEFAULT_RATE_LIMIT_NAMESPACE }
      : options.counts !== undefined
        ? { store: sharedStore(options.counts, config.rateLimitWindowMs) }
        : {}),
    keyGenerator: clientKey,
    // Preflights count too (docs/http-api.md#limits): a browser caches them for ten minutes,
    // and one uncounted kind of request would be a way around the limit on every path.
    allowList: (request: FastifyRequest) => isRateLimitExempt(request.routeOptions.url),
    errorResponseBuilder: (request, context) =>
      new ProblemError(
        'rate-limited',
        `at most ${context.max} requests per ${seconds(config.rateLimitWindowMs)} per client; retry in ${context.after}`,
        { headers: corsHeaders(request) },
      ),
  });
  return redis;
}
