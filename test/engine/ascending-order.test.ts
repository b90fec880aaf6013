import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ascendingOrder } from '../../src/engine/ascending-order.ts';

/** The order a stable comparison sort gives. */
const byComparison = (values: Float64Array) =>
  Array.from(values, (_, i) => i).sort((a, b) => values[a] - values[b] || a - b);

describe('ascendingOrder', () => {
  it('orders p-values like a stable comparison sort, ties in index order', () => {
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let run = 0; run < 40; run++) {
      const values = Float64Array.from({ length: Math.floor(next() * 3000) }, () => {
        const r = next();
        if (r < 0.1) return 1;
        if (r < 0.15) return 0;
        if (r < 0.2) return Math.round(next() * 20) / 200;
        if (r < 0.25) return next() * 1e-300;
        return next() * (run % 2 === 0 ? 1 : 1e6);
      });
      assert.deepEqual([...ascendingOrder(values)], byComparison(values));
    }
  });

  it('orders negative values, -0 and infinities too', () => {
    const values = Float64Array.from([3, -0, -2, Infinity, 0, 1e-320, -Infinity, 0.5, -0]);
    assert.deepEqual([...ascendingOrder(values)], byComparison(values));
  });

  it('orders an empty list and a list of one', () => {
    assert.deepEqual([...ascendingOrder(new Float64Array(0))], []);
    assert.deepEqual([...ascendingOrder(Float64Array.of(0.3))], [0]);
  });

  it('reads a view into a larger buffer at its own offset', () => {
    const whole = Float64Array.from([9, 0.4, 0.1, 0.3, 7]);
    assert.deepEqual([...ascendingOrder(whole.subarray(1, 4))], [1, 2, 0]);
  });
});
