/**
 * Columns on shared memory (docs/architecture.md#engine-thread): a snapshot built on the loading
 * thread arrives with its typed arrays on SharedArrayBuffers, so posting it to the engine thread
 * copies none of them; moving them keeps every value and every alias between views.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareColumns } from '../../src/threads/share-columns.ts';

describe('columns on shared memory', () => {
  it('moves every typed array under plain objects and arrays, keeping values and aliases', () => {
    const backing = new Int32Array([1, 2, 3, 4, 5, 6]);
    const value = {
      whole: backing,
      tail: backing.subarray(2),
      scores: new Float64Array([0.5, Number.NaN, 20]),
      nested: { flags: new Int8Array([-1, 0, 1]), list: [new Uint8Array([7])] },
      names: ['a', 'b'],
      index: new Map([['a', new Int32Array([9])]]),
    };
    const mapped = value.index.get('a');
    shareColumns(value);
    for (const view of [
      value.whole,
      value.tail,
      value.scores,
      value.nested.flags,
      value.nested.list[0],
    ]) {
      assert.ok(view.buffer instanceof SharedArrayBuffer, view.constructor.name);
    }
    assert.deepEqual([...value.whole], [1, 2, 3, 4, 5, 6]);
    assert.deepEqual([...value.tail], [3, 4, 5, 6]);
    assert.deepEqual([...value.scores], [0.5, Number.NaN, 20]);
    assert.deepEqual([...value.nested.flags], [-1, 0, 1]);
    assert.equal(value.tail.buffer, value.whole.buffer, 'views of one buffer still share it');
    value.whole[3] = 40;
    assert.equal(value.tail[1], 40);
    assert.equal(value.index.get('a'), mapped, 'Map contents are left alone');
    assert.deepEqual(value.names, ['a', 'b']);
  });

  it('leaves arrays already on shared memory as they are', () => {
    const shared = new Int32Array(new SharedArrayBuffer(8));
    const value = { shared };
    shareColumns(value);
    assert.equal(value.shared, shared);
  });
});
