/**
 * Newcombe's hybrid score interval against its published formula and the worked examples of
 * Newcombe (1998), Table II, method 10.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { benjaminiHochberg, newcombe, twoProportionP } from '../../src/engine/intervals.ts';

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

describe('Benjamini–Hochberg adjusted p-values', () => {
  it('reproduces the step-up adjustment by hand, nulls kept', () => {
    // m = 4: 0.01·4/1 = 0.04, 0.02·4/2 = 0.04, 0.03·4/3 = 0.04, 0.5·4/4 = 0.5.
    const got = benjaminiHochberg([0.03, null, 0.5, 0.01, 0.02]);
    assert.deepEqual(
      got.map((p) => (p === null ? null : Number(p.toFixed(10)))),
      [0.04, null, 0.5, 0.04, 0.04],
    );
    // Monotone from the largest down: 0.04·2/1 = 0.08 is lowered to 0.045·2/2 = 0.045.
    assert.deepEqual(
      benjaminiHochberg([0.045, 0.04]).map((p) => Number(p!.toFixed(10))),
      [0.045, 0.045],
    );
  });

  it('adjusts tied and untied p-values exactly as the step-up procedure written out by rank', () => {
    // The procedure as published: rank the known p-values, p(k)·m/k, the minimum over ranks k
    // and above, capped at 1.
    const reference = (ps: (number | null)[]) => {
      const known = ps.flatMap((p, i) => (p === null ? [] : [i]));
      known.sort((a, b) => ps[a]! - ps[b]!);
      const m = known.length;
      const out: (number | null)[] = ps.map(() => null);
      known.forEach((i, k) => {
        let least = 1;
        for (let j = k; j < m; j++) least = Math.min(least, (ps[known[j]]! * m) / (j + 1));
        out[i] = Math.min(1, least);
      });
      return out;
    };
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let run = 0; run < 50; run++) {
      // Few distinct values, so that many tie; some nulls; 1s and 0s.
      const ps = Array.from({ length: 1 + Math.floor(next() * 60) }, () => {
        const r = next();
        if (r < 0.1) return null;
        if (r < 0.15) return 1;
        if (r < 0.18) return 0;
        return Math.round(next() * 20) / 200;
      });
      assert.deepEqual(benjaminiHochberg(ps), reference(ps));
    }
    assert.deepEqual(benjaminiHochberg([]), []);
    assert.deepEqual(benjaminiHochberg([null, null]), [null, null]);
  });

  it('gives the pooled two-proportion p-value', () => {
    // 54/60 v 30/60: pooled 0.7, se = √(0.7·0.3·(2/60)) = 0.083666, z = 0.4 / 0.083666 = 4.7809.
    const p = twoProportionP(54, 60, 30, 60)!;
    assert.ok(p > 1.6e-6 && p < 1.8e-6, String(p));
    // 3/3 v 0/1: z = 2, p = 0.0455.
    assert.ok(Math.abs(twoProportionP(3, 3, 0, 1)! - 0.0455) < 1e-4);
    assert.equal(twoProportionP(3, 3, 0, 0), null);
    assert.equal(twoProportionP(3, 3, 1, 1), 1);
  });
});
