/**
 * Two-player zero-sum matrix games solved exactly (von Neumann's minimax theorem): a saddle
 * point when there is one, the 2x2 closed form, otherwise the linear program of the game solved
 * by the simplex method with Bland's rule (docs/team-pairing.md#matrix-games). The row player
 * maximises, the column player minimises; the matrix is row-major.
 */

/** A game's value and both players' optimal mixed strategies (probabilities summing to 1). */
export interface MatrixGameSolution {
  value: number;
  row: Float64Array;
  column: Float64Array;
}

// Pivots below this magnitude are treated as zero: the payoffs are game scores of order 1-100,
// so anything smaller is rounding noise and pivoting on it would blow the tableau up.
const PIVOT_EPS = 1e-12;

/** The value of the game, without the strategies (the draft's inner games need only this). */
export function matrixGameValue(m: Float64Array, rows: number, cols: number): number {
  const saddle = saddlePoint(m, rows, cols);
  if (saddle !== null) return m[saddle.row * cols + saddle.column];
  if (rows === 2 && cols === 2) return value2x2(m[0], m[1], m[2], m[3]);
  return simplex(m, rows, cols).value;
}

/** The value and optimal mixed strategies of both players (docs/team-pairing.md#matrix-games). */
export function solveMatrixGame(m: Float64Array, rows: number, cols: number): MatrixGameSolution {
  const saddle = saddlePoint(m, rows, cols);
  if (saddle !== null) {
    const row = new Float64Array(rows);
    const column = new Float64Array(cols);
    row[saddle.row] = 1;
    column[saddle.column] = 1;
    return { value: m[saddle.row * cols + saddle.column], row, column };
  }
  if (rows === 2 && cols === 2) return solve2x2(m[0], m[1], m[2], m[3]);
  return simplex(m, rows, cols);
}

/** A pure saddle point (maximin = minimax), the first found; null when the game needs mixing. */
function saddlePoint(
  m: Float64Array,
  rows: number,
  cols: number,
): { row: number; column: number } | null {
  let maximin = -Infinity;
  let bestRow = 0;
  for (let i = 0; i < rows; i++) {
    let low = Infinity;
    for (let j = 0; j < cols; j++) low = Math.min(low, m[i * cols + j]);
    if (low > maximin) {
      maximin = low;
      bestRow = i;
    }
  }
  let minimax = Infinity;
  let bestColumn = 0;
  for (let j = 0; j < cols; j++) {
    let high = -Infinity;
    for (let i = 0; i < rows; i++) high = Math.max(high, m[i * cols + j]);
    if (high < minimax) {
      minimax = high;
      bestColumn = j;
    }
  }
  return maximin >= minimax ? { row: bestRow, column: bestColumn } : null;
}

/**
 * The value of the 2x2 game [[a, b], [c, d]]: its saddle point, or else the classical closed
 * form (both strategies fully mixed, a - b - c + d nonzero).
 */
export function value2x2(a: number, b: number, c: number, d: number): number {
  const top = Math.max(Math.min(a, b), Math.min(c, d));
  const bottom = Math.min(Math.max(a, c), Math.max(b, d));
  if (top >= bottom) return top;
  return (a * d - b * c) / (a - b - c + d);
}

function solve2x2(a: number, b: number, c: number, d: number): MatrixGameSolution {
  const denominator = a - b - c + d;
  const p = (d - c) / denominator;
  const q = (d - b) / denominator;
  return {
    value: (a * d - b * c) / denominator,
    row: Float64Array.of(p, 1 - p),
    column: Float64Array.of(q, 1 - q),
  };
}

/**
 * The column player's program, max Σy subject to M'y ≤ 1, y ≥ 0, where M' is the matrix shifted
 * to be positive; 1/Σy is the shifted value, y/Σy the column strategy, and the dual prices of
 * the slack rows the row strategy. The games here are at most 21 x 21.
 */
function simplex(m: Float64Array, rows: number, cols: number): MatrixGameSolution {
  let min = Infinity;
  for (let k = 0; k < m.length; k++) min = Math.min(min, m[k]);
  const shift = 1 - min;
  const width = cols + rows + 1;
  const t = new Float64Array((rows + 1) * width);
  const basis = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) t[i * width + j] = m[i * cols + j] + shift;
    t[i * width + cols + i] = 1;
    t[i * width + width - 1] = 1;
    basis[i] = cols + i;
  }
  const objective = rows * width;
  for (let j = 0; j < cols; j++) t[objective + j] = -1;
  let pivots = 0;
  for (;;) {
    const enter = entering(t, objective, width, pivots++ > BLAND_AFTER);
    if (enter < 0) break;
    const leave = ratioTest(t, basis, rows, width, enter);
    pivot(t, rows, width, leave, enter);
    basis[leave] = enter;
  }
  const total = t[objective + width - 1];
  const column = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    if (basis[i] < cols) column[basis[i]] = t[i * width + width - 1] / total;
  }
  const row = new Float64Array(rows);
  for (let i = 0; i < rows; i++) row[i] = Math.max(0, t[objective + cols + i]) / total;
  return { value: 1 / total - shift, row: normalise(row), column: normalise(column) };
}

// Dantzig's rule (the most negative reduced cost) takes few pivots but can cycle on degenerate
// games; after this many pivots Bland's rule (the first negative one), which cannot, takes over.
const BLAND_AFTER = 50;

function entering(t: Float64Array, objective: number, width: number, bland: boolean): number {
  let enter = -1;
  let best = -PIVOT_EPS;
  for (let j = 0; j < width - 1; j++) {
    const c = t[objective + j];
    if (c < best) {
      enter = j;
      if (bland) break;
      best = c;
    }
  }
  return enter;
}

function ratioTest(
  t: Float64Array,
  basis: Int32Array,
  rows: number,
  width: number,
  enter: number,
): number {
  let leave = -1;
  let best = Infinity;
  for (let i = 0; i < rows; i++) {
    const a = t[i * width + enter];
    if (a <= PIVOT_EPS) continue;
    const ratio = t[i * width + width - 1] / a;
    if (ratio < best - 1e-15 || (Math.abs(ratio - best) <= 1e-15 && basis[i] < basis[leave])) {
      best = ratio;
      leave = i;
    }
  }
  // The program is bounded (every payoff is positive after the shift), so a column always has a
  // positive entry; reaching here would be a bug, not a property of the game.
  if (leave < 0) throw new Error('matrix game: unbounded program');
  return leave;
}

function pivot(t: Float64Array, rows: number, width: number, leave: number, enter: number): void {
  const base = leave * width;
  const p = t[base + enter];
  for (let j = 0; j < width; j++) t[base + j] /= p;
  for (let i = 0; i <= rows; i++) {
    if (i === leave) continue;
    const f = t[i * width + enter];
    if (f === 0) continue;
    const r = i * width;
    for (let j = 0; j < width; j++) t[r + j] -= f * t[base + j];
  }
}

// Rounding leaves the sum a hair off 1; callers show probabilities, so they must add up.
function normalise(p: Float64Array): Float64Array {
  let sum = 0;
  for (const x of p) sum += x;
  for (let k = 0; k < p.length; k++) p[k] /= sum;
  return p;
}
