/**
 * Newcombe's hybrid score interval against its published formula and the worked examples of
 * Newcombe (1998), Table II, method 10.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newcombe } from '../../src/engine/intervals.ts';

/** Wilson limits written out from the closed form (Newcombe 1998, method 3), apart from src. */
function wilsonLimits(x: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = x / n;
  const a = 2 * n * p + z * z;
  const b = z * Math.sqrt(z * z + 4 * n * p * (1 - p));
  const c = 2 * (n + z * z);
  return [(a - b) / c, (a + b) / c];
}

/** Method 10: δ − √((p1 − l1)² + (u2 − p2)²), δ + √((u1 − p1)² + (p2 − l2)²). */
function method10(x1: number, n1: number, x2: number, n2: number): [number, number] {
  const [l1, u1] = wilsonLimits(x1, n1);
  const [l2, u2] = wilsonLimits(x2, n2);
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  return [
    p1 - p2 - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
    p1 - p2 + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
  ];
}

describe('Newcombe hybrid score interval', () => {
  it("reproduces Newcombe's published examples to four decimals", () => {
    // Newcombe 1998, Table II, method 10: 56/70 − 48/80 and 9/10 − 3/10.
    const a = newcombe(56, 70, 48, 80)!;
    assert.deepEqual([a.low.toFixed(4), a.high.toFixed(4)], ['0.0524', '0.3339']);
    const b = newcombe(9, 10, 3, 10)!;
    assert.deepEqual([b.low.toFixed(4), b.high.toFixed(4)], ['0.1705', '0.8090']);
  });

  it('matches the formula on fractional successes (draws count half) and at the edges', () => {
    for (const [x1, n1, x2, n2] of [
      [10.5, 21, 3, 17],
      [0, 5, 5, 5],
      [7, 7, 0, 12],
      [150.5, 301, 149, 290],
    ]) {
      const got = newcombe(x1, n1, x2, n2)!;
      const [low, high] = method10(x1, n1, x2, n2);
      assert.ok(Math.abs(got.low - low) < 1e-12 && Math.abs(got.high - high) < 1e-12);
      assert.ok(got.low >= -1 && got.high <= 1 && got.low <= x1 / n1 - x2 / n2);
    }
  });

  it('is null when either side has no games', () => {
    assert.equal(newcombe(1, 2, 0, 0), null);
    assert.equal(newcombe(0, 0, 1, 2), null);
  });
});
