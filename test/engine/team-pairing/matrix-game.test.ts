/**
 * Matrix games against hand-solved textbook games, and the optimality of the returned mixes on
 * random games (no pure reply does better than the value).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matrixGameValue, solveMatrixGame } from '../../../src/engine/team-pairing/matrix-game.ts';

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The row mix's worst column and the column mix's worst row: both equal the value at optimum. */
function guarantees(m: Float64Array, rows: number, cols: number, x: Float64Array, y: Float64Array) {
  let rowFloor = Infinity;
  for (let j = 0; j < cols; j++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += x[i] * m[i * cols + j];
    rowFloor = Math.min(rowFloor, s);
  }
  let columnCeiling = -Infinity;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += y[j] * m[i * cols + j];
    columnCeiling = Math.max(columnCeiling, s);
  }
  return { rowFloor, columnCeiling };
}

describe('matrix games', () => {
  it('finds a saddle point and plays it purely', () => {
    const m = Float64Array.of(3, 2, 4, 1, 0, 5);
    const s = solveMatrixGame(m, 2, 3);
    assert.equal(s.value, 2);
    assert.deepEqual([...s.row], [1, 0]);
    assert.deepEqual([...s.column], [0, 1, 0]);
  });

  it('solves matching pennies as one half each', () => {
    const s = solveMatrixGame(Float64Array.of(1, -1, -1, 1), 2, 2);
    assert.equal(s.value, 0);
    assert.deepEqual([...s.row], [0.5, 0.5]);
    assert.deepEqual([...s.column], [0.5, 0.5]);
  });

  it('solves rock-paper-scissors by the linear program: a third each, value 0', () => {
    const s = solveMatrixGame(Float64Array.of(0, -1, 1, 1, 0, -1, -1, 1, 0), 3, 3);
    assert.ok(Math.abs(s.value) < 1e-12);
    for (const p of [...s.row, ...s.column]) assert.ok(Math.abs(p - 1 / 3) < 1e-12);
  });

  it('solves a 2x3 game with a dominated column: [[2, 3, 1], [0, 1, 3]] is worth 1.5', () => {
    // Column 1 is dominated by column 0; [[2, 1], [0, 3]] gives p = 3/4, q = 1/2, value 3/2.
    const s = solveMatrixGame(Float64Array.of(2, 3, 1, 0, 1, 3), 2, 3);
    assert.ok(Math.abs(s.value - 1.5) < 1e-12);
    assert.ok(Math.abs(s.row[0] - 0.75) < 1e-12);
    assert.ok(Math.abs(s.column[0] - 0.5) < 1e-12 && Math.abs(s.column[2] - 0.5) < 1e-12);
  });

  it('returns mixes that no pure reply beats on random games up to 21 x 21', () => {
    const random = mulberry32(7);
    for (let trial = 0; trial < 300; trial++) {
      const rows = 1 + Math.floor(random() * 21);
      const cols = 1 + Math.floor(random() * 21);
      const m = Float64Array.from({ length: rows * cols }, () => Math.round(random() * 200) / 10);
      const s = solveMatrixGame(m, rows, cols);
      const g = guarantees(m, rows, cols, s.row, s.column);
      assert.ok(g.rowFloor >= s.value - 1e-9, `row mix falls short on trial ${trial}`);
      assert.ok(g.columnCeiling <= s.value + 1e-9, `column mix falls short on trial ${trial}`);
      assert.ok(Math.abs(matrixGameValue(m, rows, cols) - s.value) < 1e-12);
      for (const p of [...s.row, ...s.column]) assert.ok(p >= 0 && p <= 1 + 1e-12);
    }
  });
});
