/**
 * Dense Cholesky factorisation and solves for the symmetric positive definite systems of the
 * penalised Newton fit (Golub & Van Loan, "Matrix Computations", 4th ed., §4.2): the prior's
 * precision on the diagonal keeps every system positive definite, so no pivoting is needed.
 */

/**
 * Factors the k×k matrix `a` (row-major, lower triangle read) in place into L with A = L·Lᵀ
 * (Golub & Van Loan §4.2.5, the inner-product form); false when a pivot is not positive. Four
 * rows below the pivot are reduced together, so each entry of the pivot's row is read once for
 * four of them.
 */
export function choleskyInPlace(a: Float64Array, k: number): boolean {
  for (let j = 0; j < k; j += 1) {
    const rowJ = j * k;
    let d = a[rowJ + j];
    for (let m = 0; m < j; m += 1) d -= a[rowJ + m] * a[rowJ + m];
    if (!(d > 0)) return false;
    const pivot = Math.sqrt(d);
    a[rowJ + j] = pivot;
    let i = j + 1;
    for (; i + 3 < k; i += 4) {
      const r0 = i * k;
      const r1 = r0 + k;
      const r2 = r1 + k;
      const r3 = r2 + k;
      let s0 = a[r0 + j];
      let s1 = a[r1 + j];
      let s2 = a[r2 + j];
      let s3 = a[r3 + j];
      for (let m = 0; m < j; m += 1) {
        const v = a[rowJ + m];
        s0 -= a[r0 + m] * v;
        s1 -= a[r1 + m] * v;
        s2 -= a[r2 + m] * v;
        s3 -= a[r3 + m] * v;
      }
      a[r0 + j] = s0 / pivot;
      a[r1 + j] = s1 / pivot;
      a[r2 + j] = s2 / pivot;
      a[r3 + j] = s3 / pivot;
    }
    for (; i < k; i += 1) {
      const r0 = i * k;
      let s0 = a[r0 + j];
      for (let m = 0; m < j; m += 1) s0 -= a[r0 + m] * a[rowJ + m];
      a[r0 + j] = s0 / pivot;
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
