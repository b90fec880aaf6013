/**
 * The benchmark never trips its own rate limit (docs/operations.md#benchmark): at 30,000 cached
 * requests a second a limit of a million a minute answered 429 and ended the run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BENCH_RATE_LIMIT_ENV, benchConfig, benchRateCeiling } from '../../bench/bench-config.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/** What a cached run reached on two cores, and the headroom the limit must leave above it. */
const MEASURED_PER_SECOND = 30_000;
const HEADROOM = 10;

describe(`the benchmark server's rate limit (${TEST_BACKEND})`, () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ env: { ...BENCH_RATE_LIMIT_ENV } });
  });
  after(() => t.close());

  it('allows ten times 30,000 requests a second per client', () => {
    const ceiling = benchRateCeiling(benchConfig());
    assert.ok(ceiling >= MEASURED_PER_SECOND * HEADROOM, `ceiling ${ceiling} requests a second`);
  });

  it('is what a server built with it advertises: the limit per window and a window of a second', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    assert.equal(response.statusCode, 200);
    const limit = Number(response.headers['ratelimit-limit']);
    const reset = Number(response.headers['ratelimit-reset']);
    assert.ok(reset >= 0 && reset <= 1, `window resets in ${reset} s`);
    assert.ok(
      limit / Math.max(reset, 1) >= MEASURED_PER_SECOND * HEADROOM,
      `${limit} requests per ${reset} s`,
    );
  });
});
