/**
 * The first few of a list in the order a comparator gives, without sorting the whole list: what
 * a page of a long sorted list needs (docs/statistics.md#item-use-stats).
 */

/**
 * The first `count` of `items` in the order of a stable sort by `compare` (ties keep their
 * order in `items`), as `items.slice().sort(compare).slice(0, count)` would give. A bounded heap
 * of the `count` best so far: about n + count·log(count)·log(n/count) comparisons instead of
 * the sort's n·log(n), when the page is short beside the list.
 */
export function firstInOrder<T>(
  items: readonly T[],
  count: number,
  compare: (a: T, b: T) => number,
): T[] {
  const n = items.length;
  const k = Math.max(0, Math.min(count, n));
  // A page that is most of the list gains nothing from the heap.
  if (k * 4 >= n) return [...items].sort(compare).slice(0, k);
  // Ties go to the earlier item, as a stable sort keeps them: the order is total.
  const before = (i: number, j: number) => compare(items[i], items[j]) || i - j;
  // A max-heap of indices: its root is the worst of the best k so far.
  const heap = new Int32Array(k);
  let size = 0;
  const siftDown = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const worse = right < size && before(heap[left], heap[right]) < 0 ? right : left;
      if (before(heap[at], heap[worse]) >= 0) return;
      [heap[at], heap[worse]] = [heap[worse], heap[at]];
      at = worse;
    }
  };
  for (let i = 0; i < n; i++) {
    if (size < k) {
      // Sift up.
      let at = size++;
      heap[at] = i;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (before(heap[parent], heap[at]) >= 0) break;
        [heap[parent], heap[at]] = [heap[at], heap[parent]];
        at = parent;
      }
    } else if (k > 0 && before(i, heap[0]) < 0) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return Array.from(heap)
    .sort(before)
    .map((i) => items[i]);
}
