/**
 * The benchmark's servers serve the rate limit the benchmark configures (docs/operations.md#benchmark):
 * a window of one second holding the configured count, so the ceiling bench-config.ts states is
 * the one a run meets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BENCH_RATE_LIMIT_ENV, benchConfig, benchRateCeiling } from '../../bench/bench-config.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

describe(`the benchmark server's rate limit (${TEST_BACKEND})`, () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ env: { ...BENCH_RATE_LIMIT_ENV } });
  });
  after(() => t.close());

  it('advertises the configured limit per window and a window of at most a second', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    assert.equal(response.statusCode, 200);
    const limit = Number(response.headers['ratelimit-limit']);
    const reset = Number(response.headers['ratelimit-reset']);
    assert.ok(reset >= 0 && reset <= 1, `window resets in ${reset} s`);
    assert.equal(limit, benchConfig().rateLimitMax);
    assert.equal(limit / Math.max(reset, 1), benchRateCeiling(benchConfig()));
  });
});
