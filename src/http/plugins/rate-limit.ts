/**
 * The per-client rate limit (DESIGN.md §6 "Limits") with @fastify/rate-limit: one counter per
 * client IP across every route, in Redis when configured so several instances share it.
 * Headers follow draft-ietf-httpapi-ratelimit-headers (RateLimit-Limit/-Remaining/-Reset)
 * plus Retry-After (RFC 9110 §10.2.3) on 429.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../../config/config.ts';
import { ProblemError } from '../../errors/problem.ts';
import { isWebClientPath } from '../routes/web-client.ts';

export const DEFAULT_RATE_LIMIT_NAMESPACE = 'muster:rl:';

const REDIS_CONNECT_WAIT_MS = 2000;

/**
 * Routes left out of the limit: health, so that a load balancer or orchestrator polling it is
 * never told a healthy instance is failing, and the docs page's static assets, which one page
 * view loads by the handful, and likewise the web client's page and assets. Everything else (API, discovery documents, 404s) is counted.
 */
export function isRateLimitExempt(url: string | undefined): boolean {
  if (url === undefined) return false;
  return (
    url === '/api/health' || url === '/docs' || url.startsWith('/docs/') || isWebClientPath(url)
  );
}

export interface RateLimitOptions {
  /** Redis key prefix; tests give each run its own. */
  namespace?: string;
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

/** Registers the limiter; must be awaited before any route is registered (it works by onRoute). */
export async function installRateLimit(
  app: FastifyInstance,
  config: Config,
  options: RateLimitOptions = {},
): Promise<void> {
  const redis = config.redisUrl === null ? undefined : connectRedis(app, config.redisUrl);
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    hook: 'onRequest',
    enableDraftSpec: true,
    // Availability over strictness: if Redis fails, serve unlimited and say so in the log.
    skipOnError: true,
    ...(redis === undefined
      ? {}
      : { redis, nameSpace: options.namespace ?? DEFAULT_RATE_LIMIT_NAMESPACE }),
    keyGenerator: (request: FastifyRequest) => request.ip,
    allowList: (request: FastifyRequest) => isRateLimitExempt(request.routeOptions.url),
    errorResponseBuilder: (_request, context) =>
      new ProblemError(
        'rate-limited',
        `at most ${context.max} requests per ${seconds(config.rateLimitWindowMs)} per client; retry in ${context.after}`,
      ),
  });
}
