/** The response cache: identical requests answered from memory, emptied on a new data version. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { ResponseCache } from '../../src/http/response-cache.ts';
import { DEMO_SYSTEM_ID } from '../../src/ingest/demo/demo-catalogue.ts';
import { smallDocument } from '../support/canonical-fixture.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

function post(t: TestApp, url: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN }, payload: body });
}

async function cacheCheck(t: TestApp) {
  const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
  return health.checks['responseCache:bytes'][0] as {
    observedValue: number;
    hits: number;
    misses: number;
    entries: number;
    dataVersion: number | null;
  };
}

describe(`response cache (${TEST_BACKEND})`, () => {
  it('answers a repeated request (keys in any order) with the same bytes and counts the hit in health', async () => {
    const t = await buildTestApp({ seed: 'demo-slice' });
    try {
      const first = await post(t, '/api/faction-stats', { minParticipants: 8, groupBy: 'month' });
      // generatedAt would differ if the answer were computed again.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await post(t, '/api/faction-stats', { groupBy: 'month', minParticipants: 8 });
      assert.equal(first.statusCode, 200);
      assert.equal(second.statusCode, 200);
      assert.equal(second.body, first.body);
      assert.match(second.headers['content-type'] as string, /^application\/json/);
      const other = await post(t, '/api/army-matchup', { minParticipants: 8 });
      assert.equal(other.statusCode, 200);
      const check = await cacheCheck(t);
      assert.deepEqual([check.hits, check.misses, check.entries], [1, 2, 2]);
      assert.ok(check.observedValue >= first.body.length + other.body.length);
    } finally {
      await t.close();
    }
  });

  it('is emptied when the data version moves, so answers carry the new data', async () => {
    const t = await buildTestApp({ seed: 'demo-slice' });
    try {
      const before = (await post(t, '/api/faction-stats', { system: DEMO_SYSTEM_ID })).json();
      await importCanonical(t.store, smallDocument());
      assert.equal(await t.snapshots.refresh(), true);
      const after = (await post(t, '/api/faction-stats', { system: DEMO_SYSTEM_ID })).json();
      assert.ok(after.meta.dataVersion > before.meta.dataVersion);
      const check = await cacheCheck(t);
      assert.equal(check.dataVersion, after.meta.dataVersion);
      assert.equal(check.entries, 1);
      assert.equal(check.hits, 0);
    } finally {
      await t.close();
    }
  });

  it('caches nothing when MUSTER_RESPONSE_CACHE_MB is 0', async () => {
    const t = await buildTestApp({ seed: 'demo-slice', env: { MUSTER_RESPONSE_CACHE_MB: '0' } });
    try {
      await post(t, '/api/scenario-stats', {});
      await new Promise((resolve) => setTimeout(resolve, 5));
      const a = (await post(t, '/api/scenario-stats', {})).json();
      const b = (await post(t, '/api/scenario-stats', {})).json();
      assert.notEqual(a.meta.generatedAt, b.meta.generatedAt, 'computed again each time');
      const check = await cacheCheck(t);
      assert.deepEqual([check.observedValue, check.entries, check.hits], [0, 0, 0]);
    } finally {
      await t.close();
    }
  });
});

describe('ResponseCache', () => {
  const snapshot = { dataVersion: 3 };

  it('computes identical concurrent requests once', async () => {
    const cache = new ResponseCache(1_000_000);
    let computed = 0;
    const compute = () => `{"n":${++computed}}`;
    const answers = await Promise.all(
      [1, 2, 3].map(() => cache.get('/api/x', { a: 1, b: [2] }, snapshot, compute)),
    );
    assert.deepEqual(
      answers.map((a) => a.bytes.toString()),
      ['{"n":1}', '{"n":1}', '{"n":1}'],
    );
    assert.equal(computed, 1);
  });

  it('holds no more bytes than its bound, dropping the least recently used answer', async () => {
    const cache = new ResponseCache(1000, 500);
    const body = (c: string) => () => c.repeat(400);
    await cache.get('/r', { k: 'a' }, snapshot, body('a'));
    await cache.get('/r', { k: 'b' }, snapshot, body('b'));
    await cache.get('/r', { k: 'a' }, snapshot, body('x'));
    await cache.get('/r', { k: 'c' }, snapshot, body('c'));
    const stats = cache.stats();
    assert.ok(stats.bytes <= 1000, `${stats.bytes} bytes held`);
    assert.equal(stats.entries, 2);
    // "a" was used more recently than "b", so "b" went.
    assert.equal(
      (await cache.get('/r', { k: 'a' }, snapshot, body('y'))).bytes.toString(),
      'a'.repeat(400),
    );
    assert.equal(
      (await cache.get('/r', { k: 'b' }, snapshot, body('z'))).bytes.toString(),
      'z'.repeat(400),
    );
  });

  it('sends an answer larger than its entry bound (a sixteenth of the cache) without keeping it', async () => {
    const cache = new ResponseCache(1600);
    assert.equal(cache.maxEntryBytes, 100);
    let computed = 0;
    const large = () => `${++computed}`.padEnd(101, '.');
    const small = () => `${++computed}`.padEnd(100, '.');
    const first = await cache.get('/r', { k: 'large' }, snapshot, large);
    assert.equal(first.bytes.length, 101);
    await cache.get('/r', { k: 'large' }, snapshot, large);
    assert.equal(computed, 2, 'the large answer was computed again: it was not kept');
    await cache.get('/r', { k: 'small' }, snapshot, small);
    await cache.get('/r', { k: 'small' }, snapshot, small);
    assert.equal(computed, 3, 'the answer at the bound was kept');
    assert.deepEqual([cache.stats().entries, cache.stats().bytes], [1, 100]);
  });
});
