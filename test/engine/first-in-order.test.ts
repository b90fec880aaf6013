/** firstInOrder (src/engine/first-in-order.ts): a page of a stable sort without the whole sort. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstInOrder } from '../../src/engine/first-in-order.ts';

describe('firstInOrder', () => {
  it('gives the first items of a stable sort, ties in their original order, for every count', () => {
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    // Few distinct keys, so that most items tie and only their original order tells them apart.
    const byKey = (a: { key: number }, b: { key: number }) => b.key - a.key;
    for (let run = 0; run < 40; run++) {
      const n = Math.floor(next() * 300);
      const items = Array.from({ length: n }, (_, id) => ({ id, key: Math.floor(next() * 7) }));
      const sorted = [...items].sort(byKey);
      for (const count of [0, 1, 2, 5, 10, 50, n - 1, n, n + 3]) {
        if (count < 0) continue;
        const got = firstInOrder(items, count, byKey).map((x) => x.id);
        assert.deepEqual(
          got,
          sorted.slice(0, count).map((x) => x.id),
          `n ${n}, count ${count}`,
        );
      }
    }
  });

  it('leaves the list it is given as it was', () => {
    const items = [3, 1, 2, 5, 4, 9, 8, 7, 6, 0, 11, 10];
    const copy = [...items];
    assert.deepEqual(
      firstInOrder(items, 2, (a, b) => a - b),
      [0, 1],
    );
    assert.deepEqual(items, copy);
  });
});
