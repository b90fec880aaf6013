/**
 * Compression (docs/http-api.md#compression): static files, large answers and the OpenAPI
 * document go out zstd-, Brotli- or gzip-compressed as Accept-Encoding asks, and an answer the
 * response cache keeps is compressed once, not on every hit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { ResponseCache } from '../../src/http/response-cache.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

function decoded(response: LightMyRequestResponse): Buffer {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.rawPayload);
  if (coding === 'gzip') return gunzipSync(response.rawPayload);
  if (coding === 'zstd') return zstdDecompressSync(response.rawPayload);
  assert.equal(coding, undefined, `unexpected coding ${String(coding)}`);
  return response.rawPayload;
}

function varies(response: LightMyRequestResponse, field: string): boolean {
  return String(response.headers.vary ?? '')
    .split(',')
    .some((f) => f.trim().toLowerCase() === field.toLowerCase());
}

describe(`compression (${TEST_BACKEND})`, () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
  });
  after(() => t.close());

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
  const post = (url: string, body: unknown, acceptEncoding?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        origin: TEST_ORIGIN,
        ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
      },
      payload: body as Record<string, unknown>,
    });

  it('sends the dashboard script Brotli- or gzip-compressed as asked, and plain to a client that asks for neither', async () => {
    const page = await get('/', 'br');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-encoding'], 'br');
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(decoded(page).toString())?.[1];
    assert.ok(script, decoded(page).toString());
    const plain = await get(script);
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.rawPayload.length > 50_000, `${plain.rawPayload.length} bytes`);
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      // The build writes no zstd copy: a browser that also takes zstd gets the Brotli file.
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
    ]) {
      const response = await get(script, accept);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-encoding'], coding, accept);
      assert.match(String(response.headers['content-type']), /javascript/);
      assert.ok(varies(response, 'Accept-Encoding'));
      assert.ok(response.rawPayload.length < plain.rawPayload.length / 2);
      assert.ok(decoded(response).equals(plain.rawPayload), `${accept}: same bytes once decoded`);
    }
  });

  it('compresses the OpenAPI document and a large statistics answer', async () => {
    const plainDoc = await get('/.well-known/openapi.json');
    const doc = await get('/.well-known/openapi.json', 'gzip');
    assert.equal(doc.headers['content-encoding'], 'gzip');
    assert.ok(doc.rawPayload.length < plainDoc.rawPayload.length / 4);
    assert.deepEqual(JSON.parse(decoded(doc).toString()), plainDoc.json());

    const plain = await post('/api/scenario-stats', { minGames: 0 });
    const packed = await post('/api/scenario-stats', { minGames: 0 }, 'br');
    assert.equal(packed.statusCode, 200);
    assert.equal(packed.headers['content-encoding'], 'br');
    assert.ok(varies(packed, 'Accept-Encoding'));
    assert.ok(packed.rawPayload.length < plain.rawPayload.length / 2);
    assert.equal(decoded(packed).toString(), plain.body, 'the cached answer, compressed');
  });

  it("answers a statistics request in zstd when a browser's Accept-Encoding offers it, the same JSON once decoded", async () => {
    const plain = await post('/api/scenario-stats', { minGames: 0, format: 'singles' });
    for (const [accept, coding] of [
      ['gzip, deflate, br, zstd', 'zstd'],
      ['zstd;q=0.5, br', 'br'],
      ['gzip, deflate, br, zstd;q=0', 'br'],
    ]) {
      const packed = await post('/api/scenario-stats', { minGames: 0, format: 'singles' }, accept);
      assert.equal(packed.statusCode, 200);
      assert.equal(packed.headers['content-encoding'], coding, accept);
      assert.ok(varies(packed, 'Accept-Encoding'));
      assert.ok(packed.rawPayload.length < plain.rawPayload.length / 2, accept);
      assert.equal(decoded(packed).toString(), plain.body, accept);
    }
  });

  it('keeps the compressed bytes of a cached answer, so a second hit is not compressed again', async () => {
    const body = { minGames: 1, format: 'all' };
    const first = await post('/api/faction-stats', body, 'br');
    const stats = () => t.app.inject({ method: 'GET', url: '/api/health' });
    const cache = async () => (await stats()).json().checks['responseCache:bytes'][0];
    const before = await cache();
    const second = await post('/api/faction-stats', body, 'br');
    const afterHit = await cache();
    assert.equal(first.headers['content-encoding'], 'br');
    assert.ok(second.rawPayload.equals(first.rawPayload));
    assert.equal(afterHit.hits, before.hits + 1);
    assert.equal(afterHit.entries, before.entries, 'nothing new stored: the br bytes were kept');
    assert.equal(afterHit.observedValue, before.observedValue);
  });

  it('sends small answers and requests without Accept-Encoding as they are', async () => {
    const problem = await get('/api/nothing-here', 'br, gzip');
    assert.equal(problem.statusCode, 404);
    assert.ok(problem.rawPayload.length < 1024);
    assert.equal(problem.headers['content-encoding'], undefined);
    const answer = await post('/api/scenario-stats', { minGames: 0 });
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.ok(varies(answer, 'Accept-Encoding'), 'a cache must know the answer varies');
  });
});

describe('ResponseCache content codings', () => {
  const snapshot = { dataVersion: 1 };
  const big = () => JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i })) });

  it('compresses an answer once per coding and returns the same bytes on every hit', async () => {
    const cache = new ResponseCache(1_000_000);
    const first = await cache.get('/r', {}, snapshot, big, 'br');
    const again = await cache.get('/r', {}, snapshot, big, 'br');
    const gzip = await cache.get('/r', {}, snapshot, big, 'gzip');
    const zstd = await cache.get('/r', {}, snapshot, big, 'zstd');
    const plain = await cache.get('/r', {}, snapshot, big, null);
    assert.equal(first.encoding, 'br');
    assert.equal(again, first, 'the very same bytes: not compressed again');
    assert.equal(gzip.encoding, 'gzip');
    assert.equal(zstd.encoding, 'zstd');
    assert.equal(plain.encoding, null);
    assert.equal(brotliDecompressSync(first.bytes).toString(), big());
    assert.equal(gunzipSync(gzip.bytes).toString(), big());
    assert.equal(zstdDecompressSync(zstd.bytes).toString(), big());
    assert.deepEqual([cache.stats().misses, cache.stats().hits, cache.stats().entries], [1, 4, 4]);
  });

  it('keeps an answer under 1 KiB plain whatever the client accepts', async () => {
    const cache = new ResponseCache(1_000_000);
    const small = await cache.get('/r', {}, snapshot, () => '{"a":1}', 'br');
    assert.equal(small.encoding, null);
    assert.equal(small.bytes.toString(), '{"a":1}');
  });
});
