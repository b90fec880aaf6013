/** A snapshot's lists as CSR columns (docs/architecture.md#the-snapshot-and-its-lifecycle). */

import type { ListColumns } from './snapshot.ts';

/**
 * Groups the (list, item) incidence pairs, in arrival order, by list, and collapses an item
 * repeated in one list into (item, picks).
 */
export function buildLists(
  nLists: number,
  incList: Int32Array,
  incItem: Int32Array,
  nInc: number,
): ListColumns {
  const counts = new Int32Array(nLists + 1);
  for (let i = 0; i < nInc; i++) counts[incList[i] + 1]++;
  for (let l = 0; l < nLists; l++) counts[l + 1] += counts[l];
  const fill = counts.slice(0, nLists);
  const flat = new Int32Array(nInc);
  for (let i = 0; i < nInc; i++) flat[fill[incList[i]]++] = incItem[i];
  const listStart = new Int32Array(nLists + 1);
  const items: number[] = [];
  const picks: number[] = [];
  for (let l = 0; l < nLists; l++) {
    listStart[l] = items.length;
    const segment = flat.subarray(counts[l], counts[l + 1]).sort();
    for (let i = 0; i < segment.length; i++) {
      if (i > 0 && segment[i] === segment[i - 1]) picks[picks.length - 1]++;
      else {
        items.push(segment[i]);
        picks.push(1);
      }
    }
  }
  listStart[nLists] = items.length;
  return {
    listStart,
    listItems: Int32Array.from(items),
    listPicks: Int32Array.from(picks),
  };
}
