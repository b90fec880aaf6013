/**
 * GET /api/live over real sockets (docs/http-api.md#live): one change event per data change to
 * every subscriber, naming the event whose games changed; Last-Event-ID answered with what was
 * missed; the per-client bound; every stream ended when the server drains; a reader that never
 * reads dropped once its unsent bytes pass the bound, while a reading one keeps its stream.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { closeGracefully } from '../../src/http/graceful-close.ts';
import { liveHubOf } from '../../src/http/routes/live.ts';
import { buildTestApp } from '../support/test-app.ts';
import { lastRound, unplayed } from '../support/round-in-progress.ts';
import type { TestApp } from '../support/test-app.ts';
import { SseClient } from '../support/sse-client.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return `http://127.0.0.1:${address.port}/api/live`;
}

describe(`GET /api/live (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let url: string;
  const clients: SseClient[] = [];
  before(async () => {
    t = await buildTestApp({
      seed: 'demo-slice',
      env: { MUSTER_LIVE_HEARTBEAT_MS: '200', MUSTER_LIVE_STREAMS_PER_CLIENT: '4' },
    });
    url = await listen(t);
  });
  after(async () => {
    for (const c of clients) c.close();
    await t.close();
  });

  it('sends every subscriber one change event per data change, naming the event that changed', async () => {
    for (let i = 0; i < 3; i++) clients.push(new SseClient(url));
    const v0 = (await t.store.dataVersion()).toString();
    for (const c of clients) {
      await c.waitFor('ready', 1);
      assert.equal(c.status, 200);
      assert.match(String(c.headers['content-type']), /^text\/event-stream/);
      assert.equal(c.of('ready')[0].id, v0);
    }
    const paired = lastRound(unplayed);
    const complete = lastRound((g) => g);
    for (const [k, doc] of [paired.doc, complete.doc].entries()) {
      const report = await importCanonical(t.store, doc, { source: `change ${k}` });
      assert.deepEqual(report.rejects, []);
      assert.equal(await t.snapshots.refresh(), true);
      for (const c of clients) {
        const [change] = (await c.waitFor('change', k + 1)).slice(k);
        const data = JSON.parse(change.data) as { dataVersion: number; events: string[] };
        assert.deepEqual(data.events, [paired.event.id]);
        assert.equal(change.id, String(data.dataVersion));
        assert.equal(data.dataVersion, await t.store.dataVersion());
      }
    }
    await sleep(500);
    for (const c of clients) {
      assert.equal(c.of('change').length, 2, 'one event per change, no more');
      assert.ok(c.comments > 0, 'heartbeats while nothing changes');
    }
  });

  it('answers Last-Event-ID with the changes the client missed', async () => {
    const ready = clients[0].of('ready')[0];
    const late = new SseClient(url, { 'last-event-id': ready.id ?? '' });
    clients.push(late);
    const missed = await late.waitFor('change', 2);
    assert.deepEqual(
      missed.map((e) => e.id),
      clients[0].of('change').map((e) => e.id),
    );
    assert.equal(late.of('ready').length, 0);
  });

  it('refuses a stream past the per-client bound with 429 too-many-streams', async () => {
    const extra = new SseClient(url);
    await extra.opened;
    assert.equal(extra.status, 429);
    assert.match(String(extra.headers['content-type']), /problem\+json/);
    extra.close();
  });

  it('ends every stream at once when the server drains, well within the grace', async () => {
    const started = Date.now();
    const closing = closeGracefully(t.app, 10_000);
    await Promise.all(clients.map((c) => c.ended));
    await closing;
    assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
  });
});

describe(`GET /api/live and a reader that never reads (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      seed: 'demo-slice',
      env: { MUSTER_LIVE_BUFFER_KB: '16', MUSTER_LIVE_HEARTBEAT_MS: '60000' },
    });
  });
  after(async () => t.close());

  it('drops the reader that never reads, and only it', async () => {
    const url = new URL(await listen(t));
    const reader = new SseClient(url.href);
    await reader.waitFor('ready', 1);
    const stuck = connect(Number(url.port), '127.0.0.1');
    const closed = new Promise<void>((resolve) => stuck.on('close', () => resolve()));
    stuck.on('error', () => {});
    stuck.write(`GET /api/live HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    stuck.pause();
    const hub = liveHubOf(t.app);
    assert.ok(hub !== undefined);
    while (hub.stats().subscribers < 2) await sleep(10);
    const events = Array.from({ length: 100 }, (_, i) => `event-${'x'.repeat(30)}-${i}`);
    let n = 0;
    while (hub.stats().dropped === 0 && n < 5000) {
      n++;
      hub.publish({ id: 1_000_000 + n, since: 999_999 + n, events });
      await sleep(1);
    }
    assert.equal(hub.stats().dropped, 1, `${n} changes sent`);
    assert.equal(hub.stats().subscribers, 1, 'the reading client keeps its stream');
    stuck.resume();
    await closed;
    await reader.waitFor('change', n);
    assert.equal(reader.of('change').length, n);
    reader.close();
  });
});
