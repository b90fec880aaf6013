/**
 * The response cache's one store for every server thread (shared-response-cache.ts): two views of
 * one buffer stand for two threads. An answer computed through one is a hit through the other,
 * the bound is the buffer's whatever is put in, a reload misses the old answers, and a thread
 * that died holding the lock is freed by the main thread.
 */
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { ResponseCache } from '../../src/http/response-cache.ts';
import {
  SharedBodies,
  lockHolder,
  releaseDeadThread,
  sharedCacheBuffer,
} from '../../src/threads/shared-response-cache.ts';

/** Snapshots and the tokens the main thread posted them under, as every thread sees them. */
const tokens = new Map<object, number>();
const snapshotOf = (token: number, dataVersion: number) => {
  const snapshot = { dataVersion };
  tokens.set(snapshot, token);
  return snapshot;
};
const tokenOf = (snapshot: object) => tokens.get(snapshot)!;

/** Thread `index`'s response cache over `buffer`. */
const threadCache = (buffer: SharedArrayBuffer, index: number, bytes = buffer.byteLength) =>
  new ResponseCache(bytes, undefined, new SharedBodies(buffer, index, tokenOf));

describe('the response cache shared by the server threads', () => {
  it('answers on one thread what another computed, counting the hit for the service', async () => {
    const buffer = sharedCacheBuffer(1 << 20);
    const [a, b] = [threadCache(buffer, 0), threadCache(buffer, 1)];
    const snapshot = snapshotOf(1, 5);
    let computed = 0;
    const compute = () => `{"n":${++computed}}`;
    const first = await a.get('/api/x', { q: 1, r: 2 }, snapshot, compute);
    const again = b.get('/api/x', { r: 2, q: 1 }, snapshot, compute);
    assert.ok(!(again instanceof Promise), 'a hit is answered at once');
    assert.equal(again.bytes.toString(), first.bytes.toString());
    assert.equal(computed, 1);
    assert.deepEqual(
      [a.stats().hits, a.stats().misses, b.stats().entries, b.stats().dataVersion],
      [1, 1, 1, 5],
    );
  });

  it('keeps each coding of an answer with its body', async () => {
    const buffer = sharedCacheBuffer(1 << 20);
    const [a, b] = [threadCache(buffer, 0), threadCache(buffer, 1)];
    const snapshot = snapshotOf(2, 1);
    const plain = new TextEncoder().encode('p'.repeat(2000));
    const gzip = new TextEncoder().encode('gz');
    await a.get(
      '/api/y',
      {},
      snapshot,
      () => ({ plain, encoded: [{ encoding: 'gzip', bytes: gzip }] }),
      'gzip',
    );
    const hit = b.get('/api/y', {}, snapshot, () => assert.fail('computed again'), 'gzip');
    assert.ok(!(hit instanceof Promise));
    assert.deepEqual([hit.encoding, hit.bytes.toString()], ['gzip', 'gz']);
    const plainHit = b.get('/api/y', {}, snapshot, () => assert.fail('computed again'));
    assert.ok(!(plainHit instanceof Promise));
    assert.deepEqual([plainHit.encoding, plainHit.bytes.length], [null, 2000]);
  });

  it('holds the whole service to its bound, evicting the oldest, never answering a key with another body', () => {
    const bytes = 256 * 1024;
    const buffer = sharedCacheBuffer(bytes);
    assert.equal(buffer.byteLength, bytes, 'header and index are inside the bound');
    const stores = [0, 1, 2].map((i) => new SharedBodies(buffer, i, tokenOf));
    const snapshot = snapshotOf(3, 1);
    for (const store of stores) store.turn(snapshot);
    const latest = new Map<string, string>();
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20_000; i++) {
      const store = stores[i % 3];
      const key = `k${Math.floor(random() * 3000)}`;
      if (random() < 0.5) {
        const body = `${key}:${i}:`.padEnd(1 + Math.floor(random() * 3000), '#');
        store.set(key, { bytes: Buffer.from(body), encoding: null });
        latest.set(key, body);
        assert.equal(store.get(key)?.bytes.toString(), body, 'the body just kept is there');
      } else {
        const found = store.get(key);
        if (found !== undefined) assert.equal(found.bytes.toString(), latest.get(key));
      }
      assert.ok(store.stats().bytes <= bytes);
    }
    const { entries } = stores[0].stats();
    const present = [...latest.keys()].filter((k) => stores[1].get(k) !== undefined).length;
    assert.equal(present, entries, 'the index counts what it finds');
    assert.ok(entries > 50 && entries < 3000, `${entries} entries`);
  });

  it('misses every answer of the snapshot before a reload, and keeps nothing computed on it', async () => {
    const buffer = sharedCacheBuffer(1 << 20);
    const [a, b] = [threadCache(buffer, 0), threadCache(buffer, 1)];
    const [old, reloaded] = [snapshotOf(10, 4), snapshotOf(11, 4)];
    let computed = 0;
    const compute = () => `{"n":${++computed}}`;
    await a.get('/api/z', {}, old, compute);
    // The same data version, loaded again: the token tells the snapshots apart.
    assert.equal((await b.get('/api/z', {}, reloaded, compute)).bytes.toString(), '{"n":2}');
    // A thread still answering with the old snapshot computes, but keeps nothing.
    assert.equal((await a.get('/api/w', {}, old, compute)).bytes.toString(), '{"n":3}');
    assert.equal(a.stats().entries, 1);
    assert.equal((await b.get('/api/w', {}, reloaded, compute)).bytes.toString(), '{"n":4}');
    assert.equal(a.stats().entries, 2);
  });

  it('frees the lock of a thread that died holding it, so the others go on', async () => {
    const buffer = sharedCacheBuffer(1 << 20);
    const survivor = threadCache(buffer, 0);
    const snapshot = snapshotOf(20, 1);
    await survivor.get('/api/v', {}, snapshot, () => '{"kept":true}');
    // Thread 1 takes the lock as a store does (its index + 1 in cell 0) and is ended holding it.
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const cells = new Int32Array(workerData);
       Atomics.compareExchange(cells, 0, 0, 2);
       parentPort.postMessage('held');
       Atomics.wait(cells, 15, 0);`,
      { eval: true, workerData: buffer },
    );
    await new Promise((done) => worker.once('message', done));
    await worker.terminate();
    assert.equal(lockHolder(buffer), 2);
    assert.equal(releaseDeadThread(buffer, 0), false, 'a lock another thread holds is left alone');
    assert.equal(releaseDeadThread(buffer, 1), true);
    assert.equal(lockHolder(buffer), 0);
    // What the dead thread may have half written is gone; the store answers again.
    let computed = 0;
    await survivor.get('/api/v', {}, snapshot, () => `{"n":${++computed}}`);
    const hit = survivor.get('/api/v', {}, snapshot, () => `{"n":${++computed}}`);
    assert.ok(!(hit instanceof Promise));
    assert.deepEqual([hit.bytes.toString(), computed], ['{"n":1}', 1]);
  });
});
