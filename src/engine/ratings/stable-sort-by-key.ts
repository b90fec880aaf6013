/**
 * A stable sort of game indexes by a small integer key in linear time (a counting sort), for
 * the orders the ratings need over a million games: processing order and rating periods
 * (docs/ratings.md#which-games-are-rated). Equal keys keep their input order, so sorting by a
 * minor key and then by a major one gives the order by (major, minor, input position).
 */

/** Key ranges up to this many buckets, or up to the input's length, are counted. */
const MIN_BUCKETS = 1024;

/**
 * `values` reordered by `keys[i]` (the key of values[i]), ascending; equal keys keep their
 * input order. Integer keys whose range is linear in the input are counted; others (a range too
 * wide to count, non-integers) fall back to a comparison sort by (key, position), the same order.
 */
export function stableSortByKey(values: Int32Array, keys: ArrayLike<number>): Int32Array {
  const n = values.length;
  let min = Infinity;
  let max = -Infinity;
  let integers = true;
  for (let i = 0; i < n; i += 1) {
    const k = keys[i];
    if (k < min) min = k;
    if (k > max) max = k;
    if (!Number.isInteger(k)) integers = false;
  }
  if (n === 0) return new Int32Array(0);
  if (!integers || max - min + 1 > Math.max(MIN_BUCKETS, n)) return comparisonSort(values, keys);
  const starts = new Int32Array(max - min + 2);
  for (let i = 0; i < n; i += 1) starts[keys[i] - min + 1] += 1;
  for (let b = 1; b < starts.length; b += 1) starts[b] += starts[b - 1];
  const out = new Int32Array(n);
  for (let i = 0; i < n; i += 1) out[starts[keys[i] - min]++] = values[i];
  return out;
}

/** The same order by a comparison sort: key, then input position. */
function comparisonSort(values: Int32Array, keys: ArrayLike<number>): Int32Array {
  const position = Int32Array.from({ length: values.length }, (_, i) => i);
  position.sort((x, y) => keys[x] - keys[y] || x - y);
  return position.map((i) => values[i]);
}
