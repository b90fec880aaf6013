/**
 * The ascending order of a list of doubles as a permutation, for the sorts on a request's path
 * (docs/architecture.md#where-an-answers-cpu-goes): Benjamini–Hochberg ranks every p-value an
 * answer holds (1,400 on the T9A set), and V8 sorts a Float64Array by comparisons at about a
 * tenth of a microsecond an element; a least-significant-digit radix sort on the bytes of the
 * doubles does it in a few hundredths.
 */
import { endianness } from 'node:os';

// A non-negative double's IEEE 754 bit pattern read as an unsigned integer orders as the double
// does, so its bytes can be sorted from the least significant up. The byte views below assume the
// least significant byte first, as on every platform Node supports today; another order falls
// back to comparisons.
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Indices of `values` ordered by value, ties in index order (stable); Knuth, TAOCP vol. 3,
 * §5.2.5 (radix sorting) for non-negative finite values, a comparison sort otherwise.
 */
export function ascendingOrder(values: Float64Array): Int32Array {
  const n = values.length;
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let radix = LITTLE_ENDIAN;
  // -0 has the sign bit set and would sort after every positive value by its bits.
  for (let i = 0; i < n && radix; i++) {
    const v = values[i];
    radix = (v > 0 && v < Infinity) || Object.is(v, 0);
  }
  if (!radix) return order.sort((a, b) => values[a] - values[b] || a - b);
  const bytes = new Uint8Array(values.buffer, values.byteOffset, n * 8);
  let next = new Int32Array(n);
  const counts = new Int32Array(256);
  for (let digit = 0; digit < 8; digit++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[bytes[i * 8 + digit]]++;
    // A byte every value shares (the exponent's, for p-values mostly) orders nothing.
    if (counts[bytes[digit]] === n) continue;
    for (let b = 0, at = 0; b < 256; b++) {
      const c = counts[b];
      counts[b] = at;
      at += c;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k];
      next[counts[bytes[i * 8 + digit]]++] = i;
    }
    [order, next] = [next, order];
  }
  return order;
}
