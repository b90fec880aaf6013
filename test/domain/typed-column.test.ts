/**
 * Typed columns (docs/architecture.md#the-snapshot-and-its-lifecycle): small ones are copied out
 * exactly; large ones grow in place on shared memory and are handed out as views of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { TypedColumn } from '../../src/domain/typed-column.ts';

describe('TypedColumn', () => {
  it('keeps every value of a small column and hands out an exact copy', () => {
    const column = new TypedColumn(Int8Array);
    for (let i = 0; i < 3000; i++) column.push((i % 200) - 100);
    const values = column.done();
    assert.equal(values.length, 3000);
    assert.ok(!(values.buffer instanceof SharedArrayBuffer));
    assert.equal(values[2999], (2999 % 200) - 100);
  });

  it('grows a large column in place on shared memory and keeps every value', () => {
    const column = new TypedColumn(Float64Array, 16);
    const n = 700_000; // 5.6 MB: past the in-heap size, three doublings on shared memory
    for (let i = 0; i < n; i++) column.push(i * 0.5);
    const values = column.done();
    assert.equal(values.length, n);
    assert.ok(values.buffer instanceof SharedArrayBuffer);
    for (let i = 0; i < n; i += 9973) assert.equal(values[i], i * 0.5);
    assert.equal(values[n - 1], (n - 1) * 0.5);
  });

  it('hands out a view that later pushes leave unchanged', () => {
    const column = new TypedColumn(Int32Array);
    for (let i = 0; i < 400_000; i++) column.push(i);
    const first = column.done();
    for (let i = 0; i < 400_000; i++) column.push(-i);
    assert.equal(first.length, 400_000);
    assert.equal(first[399_999], 399_999);
    const both = column.done();
    assert.equal(both.length, 800_000);
    assert.equal(both[799_999], -399_999);
  });

  it('posts a large column to another thread without copying it', () => {
    const column = new TypedColumn(Int32Array);
    for (let i = 0; i < 300_000; i++) column.push(i);
    const values = column.done();
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(values);
    const received = receiveMessageOnPort(port2)?.message as Int32Array;
    received[7] = -7; // the same memory: the write shows on this side
    assert.equal(values[7], -7);
    port1.close();
  });
});
