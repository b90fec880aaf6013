/**
 * The configuration of every server the benchmark starts (docs/operations.md#benchmark): the
 * app as served, with a rate limit it cannot reach. The limit stays on, so its cost is measured,
 * but its ceiling is a million requests a second per client, some thirty times what a cached
 * route answers on two cores; a ceiling of a million a minute (16,667 a second) ended a run at
 * 30,000 cached requests a second in 429s.
 */
import { loadConfig } from '../src/config/config.ts';
import type { Config } from '../src/config/config.ts';

/** The highest limit and shortest window the configuration accepts: 1,000,000 per second. */
export const BENCH_RATE_LIMIT_ENV = {
  MUSTER_RATE_LIMIT_MAX: '1000000',
  MUSTER_RATE_LIMIT_WINDOW_MS: '1000',
} as const;

/** A benchmark server's configuration: silent, the limit above, and `env` on top. */
export function benchConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ MUSTER_LOG_LEVEL: 'silent', ...BENCH_RATE_LIMIT_ENV, ...env });
}

/** Requests a second one client may send before the benchmark server's limit answers 429. */
export function benchRateCeiling(config: Config): number {
  return (config.rateLimitMax * 1000) / config.rateLimitWindowMs;
}
