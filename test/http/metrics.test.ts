/**
 * Prometheus metrics (docs/operations.md#metrics): latency per route pattern and response-cache
 * outcome, the response cache's bytes and hit ratio, the engine threads' queue, snapshot loads
 * and the store's import runs, on a listener of their own: never on the public app, never rate
 * limited.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServiceMetrics } from '../../src/http/metrics.ts';
import { readImportRuns } from '../../src/store/read-service-state.ts';
import { listenForMetrics } from '../../src/http/metrics-listener.ts';
import type { MetricsListener } from '../../src/http/metrics-listener.ts';
import { TEST_ORIGIN, buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/** The value of the one sample of `series` (name and labels as printed), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe(`Prometheus metrics (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let listener: MetricsListener;
  const metrics = new ServiceMetrics();
  before(async () => {
    // Four requests a minute, all used by the first test: the scrapes must not count against it.
    t = await buildTestApp({ seed: 'demo-slice', metrics, env: { MUSTER_RATE_LIMIT_MAX: '4' } });
    metrics.watch({
      snapshot: () => t.snapshots.status(),
      importRuns: () => t.store.probe(readImportRuns),
    });
    listener = await listenForMetrics(metrics, '127.0.0.1', 0);
  });
  after(async () => {
    await listener.close();
    await t.close();
  });

  const scrape = async () => {
    const response = await fetch(listener.url);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('observes latency per route pattern and cache outcome, and the cache bytes and hit ratio, not on the public app', async () => {
    const onPublic = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(onPublic.statusCode, 404);
    for (let i = 0; i < 2; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/faction-stats',
        headers: { origin: TEST_ORIGIN },
        payload: {},
      });
      assert.equal(response.statusCode, 200, response.body);
    }
    // A path nobody routes: counted under "unmatched", not under its own URL.
    await t.app.inject({ method: 'GET', url: '/api/no-such-route-x1' });
    const text = await scrape();
    const route = 'route="/api/faction-stats",method="POST",status="200"';
    assert.equal(
      sample(text, `muster_http_request_duration_seconds_count{${route},cache="miss"}`),
      1,
    );
    assert.equal(
      sample(text, `muster_http_request_duration_seconds_count{${route},cache="hit"}`),
      1,
    );
    assert.match(
      text,
      /muster_http_request_duration_seconds_bucket\{le="0\.001",route="\/api\/faction-stats"/,
    );
    assert.doesNotMatch(text, /no-such-route-x1/);
    assert.match(text, /route="unmatched",method="GET",status="404"/);
    assert.equal(sample(text, 'muster_response_cache_hit_ratio'), 0.5);
    assert.equal(sample(text, 'muster_response_cache_hits_total'), 1);
    assert.ok((sample(text, 'muster_response_cache_bytes') ?? 0) > 0, 'cache bytes reported');
  });

  it('reports the engine queue, the snapshot and the import runs, one series each', async () => {
    const text = await scrape();
    assert.equal(sample(text, 'muster_engine_queue_length'), 0);
    assert.equal(sample(text, 'muster_engine_threads'), 1);
    assert.equal(sample(text, 'muster_snapshot_games'), t.snapshots.status()!.games);
    assert.equal(sample(text, 'muster_import_runs{status="imported"}'), 1);
    assert.ok((sample(text, 'muster_import_last_duration_seconds') ?? -1) >= 0);
    assert.ok((sample(text, 'muster_process_resident_memory_bytes') ?? 0) > 0);
    assert.equal(sample(text, 'muster_store_reachable'), 1);
  });

  it('answers a scrape while the store does not, with muster_store_reachable 0 and the last import figures kept', async () => {
    const down = new ServiceMetrics();
    let reachable = true;
    down.watch({
      importRuns: () =>
        reachable
          ? t.store.probe(readImportRuns)
          : Promise.reject(new Error('the store: no answer')),
    });
    const other = await listenForMetrics(down, '127.0.0.1', 0);
    try {
      const read = async () => {
        const response = await fetch(other.url);
        assert.equal(response.status, 200);
        return response.text();
      };
      assert.equal(sample(await read(), 'muster_store_reachable'), 1);
      reachable = false;
      const text = await read();
      assert.equal(sample(text, 'muster_store_reachable'), 0);
      assert.equal(sample(text, 'muster_import_runs{status="imported"}'), 1);
    } finally {
      await other.close();
    }
  });

  it('is not rate limited, and answers nothing else', async () => {
    const limited = await t.app.inject({ method: 'GET', url: '/.well-known/api-catalog' });
    assert.equal(limited.statusCode, 429, 'the public limit is used up');
    // Well past the public limit: every scrape answers.
    for (let i = 0; i < 8; i++) await scrape();
    const other = await fetch(listener.url.replace('/metrics', '/api/health'));
    assert.equal(other.status, 404);
  });
});
