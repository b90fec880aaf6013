/**
 * Dense Cholesky factorisation and solves for the symmetric positive definite systems of the
 * penalised Newton fit (Golub & Van Loan, "Matrix Computations", 4th ed., §4.2): the prior's
 * precision on the diagonal keeps every system positive definite, so no pivoting is needed.
 */

/**
 * Σ a[x + m]·a[y + m] over m < n, four products at a time: the factorisation's inner loop,
 * where independent sums let the CPU overlap the multiplications.
 */
function rowDot(a: Float64Array, x: number, y: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let m = 0;
  for (; m + 3 < n; m += 4) {
    s0 += a[x + m] * a[y + m];
    s1 += a[x + m + 1] * a[y + m + 1];
    s2 += a[x + m + 2] * a[y + m + 2];
    s3 += a[x + m + 3] * a[y + m + 3];
  }
  for (; m < n; m += 1) s0 += a[x + m] * a[y + m];
  return s0 + s1 + (s2 + s3);
}

/**
 * Factors the k×k matrix `a` (row-major, lower triangle read) in place into L with A = L·Lᵀ
 * (Golub & Van Loan §4.2.5); false when a pivot is not positive.
 */
export function choleskyInPlace(a: Float64Array, k: number): boolean {
  for (let j = 0; j < k; j += 1) {
    const rowJ = j * k;
    const d = a[rowJ + j] - rowDot(a, rowJ, rowJ, j);
    if (!(d > 0)) return false;
    const pivot = Math.sqrt(d);
    a[rowJ + j] = pivot;
    for (let i = j + 1; i < k; i += 1) {
      const rowI = i * k;
      a[rowI + j] = (a[rowI + j] - rowDot(a, rowI, rowJ, j)) / pivot;
    }
  }
  return true;
}

/** Solves L·Lᵀ·x = b for x (forward then back substitution), b overwritten (§4.2). */
export function choleskySolve(l: Float64Array, k: number, b: Float64Array): Float64Array {
  for (let i = 0; i < k; i += 1) {
    let s = b[i];
    for (let m = 0; m < i; m += 1) s -= l[i * k + m] * b[m];
    b[i] = s / l[i * k + i];
  }
  for (let i = k - 1; i >= 0; i -= 1) {
    let s = b[i];
    for (let m = i + 1; m < k; m += 1) s -= l[m * k + i] * b[m];
    b[i] = s / l[i * k + i];
  }
  return b;
}

/** cᵀ·A⁻¹·c from A's factor: ‖L⁻¹c‖² (one forward substitution, §4.2). */
export function choleskyQuadratic(l: Float64Array, k: number, c: Float64Array): number {
  const z = Float64Array.from(c);
  let sum = 0;
  for (let i = 0; i < k; i += 1) {
    let s = z[i];
    for (let m = 0; m < i; m += 1) s -= l[i * k + m] * z[m];
    z[i] = s / l[i * k + i];
    sum += z[i] * z[i];
  }
  return sum;
}
