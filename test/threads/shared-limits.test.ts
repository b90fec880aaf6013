/**
 * The counts the server threads share (shared-limits.ts): a client's window of the rate limit,
 * the open connections in all and per client, and the roster health and the metrics read.
 * Threads see the same counts because they are given the same buffer; here two views of one
 * buffer stand for two threads.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SharedConnectionCounts,
  SharedRateCounts,
  ThreadRoster,
  releaseThread,
  sharedLimitsBuffer,
} from '../../src/threads/shared-limits.ts';

describe('the limits shared by the server threads', () => {
  it('counts one window per client across views of one buffer, and starts a new one when it ends', () => {
    const buffer = sharedLimitsBuffer(2);
    const [a, b] = [new SharedRateCounts(buffer, 0), new SharedRateCounts(buffer, 1)];
    const t = 1_000_000;
    assert.deepEqual(a.increment('10.0.0.1', 60_000, t), { current: 1, ttl: 60_000 });
    assert.deepEqual(b.increment('10.0.0.1', 60_000, t + 10), { current: 2, ttl: 59_990 });
    assert.deepEqual(a.increment('10.0.0.2', 60_000, t + 20), { current: 1, ttl: 60_000 });
    assert.equal(b.increment('10.0.0.1', 60_000, t + 59_999).current, 3);
    assert.deepEqual(a.increment('10.0.0.1', 60_000, t + 60_000), { current: 1, ttl: 60_000 });
  });

  it('keeps counting every client when more clients than slots of a neighbourhood arrive', () => {
    const counts = new SharedRateCounts(sharedLimitsBuffer(1));
    for (let i = 0; i < 50_000; i++) counts.increment(`client-${i}`, 60_000, 5);
    assert.equal(counts.increment('client-49999', 60_000, 6).current, 2);
  });

  it('counts open connections in all and per client, a closed one freeing its place', () => {
    const buffer = sharedLimitsBuffer(2);
    const [a, b] = [
      new SharedConnectionCounts(buffer, 2, 0),
      new SharedConnectionCounts(buffer, 2, 1),
    ];
    a.add('10.0.0.1', 1);
    b.add('10.0.0.1', 1);
    b.add('10.0.0.2', 1);
    assert.equal(a.total(), 3);
    assert.equal(a.of('10.0.0.1'), 2);
    assert.equal(b.of('10.0.0.2'), 1);
    a.add('10.0.0.1', -1);
    b.add('10.0.0.2', -1);
    assert.equal(b.total(), 1);
    assert.equal(b.of('10.0.0.1'), 1);
    assert.equal(a.of('10.0.0.2'), 0);
  });

  it('forgets the connections of a thread that died, and only those', () => {
    const buffer = sharedLimitsBuffer(2);
    const [a, b] = [
      new SharedConnectionCounts(buffer, 2, 0),
      new SharedConnectionCounts(buffer, 2, 1),
    ];
    for (let i = 0; i < 5; i++) a.add('10.0.0.1', 1);
    b.add('10.0.0.1', 1);
    b.add('10.0.0.2', 1);
    assert.equal(b.of('10.0.0.1'), 6);
    releaseThread(buffer, 2, 0);
    assert.equal(b.total(), 2);
    assert.equal(b.of('10.0.0.1'), 1);
    assert.equal(b.of('10.0.0.2'), 1);
    // Started again, the thread counts from nothing.
    const again = new SharedConnectionCounts(buffer, 2, 0);
    again.add('10.0.0.1', 1);
    assert.equal(b.of('10.0.0.1'), 2);
  });

  it("counts a client's live streams over every thread, apart from its connections, and forgets a dead thread's", () => {
    const buffer = sharedLimitsBuffer(2);
    const [a, b] = [
      new SharedConnectionCounts(buffer, 2, 0),
      new SharedConnectionCounts(buffer, 2, 1),
    ];
    a.add('10.0.0.1', 1);
    a.addStream('10.0.0.1', 1);
    b.add('10.0.0.1', 1);
    b.addStream('10.0.0.1', 1);
    b.addStream('10.0.0.2', 1);
    assert.equal(a.streamsOf('10.0.0.1'), 2);
    assert.equal(a.streamsOf('10.0.0.2'), 1);
    // A stream is not a second connection.
    assert.equal(a.of('10.0.0.1'), 2);
    assert.equal(a.total(), 2);
    b.addStream('10.0.0.1', -1);
    assert.equal(a.streamsOf('10.0.0.1'), 1);
    releaseThread(buffer, 2, 0);
    assert.equal(b.streamsOf('10.0.0.1'), 0);
    assert.equal(b.streamsOf('10.0.0.2'), 1);
  });

  it('frees the rate lock a dead thread held, so the other threads count on', () => {
    const buffer = sharedLimitsBuffer(2);
    const dead = new SharedRateCounts(buffer, 0);
    // A thread that dies between lock and unlock leaves the lock held in its name.
    (dead as unknown as { table: { lock(): void } }).table.lock();
    releaseThread(buffer, 2, 1);
    const lock = new Int32Array(buffer, 0, 1);
    assert.equal(Atomics.load(lock, 0), 1, "another thread's death frees nothing");
    releaseThread(buffer, 2, 0);
    assert.equal(new SharedRateCounts(buffer, 1).increment('10.0.0.1', 60_000, 5).current, 1);
  });

  it("lists every thread's state, answers and starts", () => {
    const buffer = sharedLimitsBuffer(2);
    const roster = new ThreadRoster(buffer, 2);
    roster.mark(0, 'starting');
    roster.mark(1, 'starting');
    roster.mark(0, 'serving');
    roster.answered(0);
    roster.answered(0);
    roster.mark(1, 'stopped');
    roster.mark(1, 'starting');
    assert.deepEqual(new ThreadRoster(buffer, 2).list(), [
      { thread: 0, state: 'serving', answered: 2, starts: 1 },
      { thread: 1, state: 'starting', answered: 0, starts: 2 },
    ]);
  });
});
