/** A snapshot's lists as CSR columns (docs/architecture.md#the-snapshot-and-its-lifecycle). */

import { TypedColumn } from '../domain/typed-column.ts';
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
  // Typed columns, not arrays: at ten million games a plain array of tens of millions of items
  // was reallocated as it grew and then copied once more into its typed array.
  const items = new TypedColumn(Int32Array);
  const picks = new TypedColumn(Int32Array);
  for (let l = 0; l < nLists; l++) {
    listStart[l] = items.length;
    const segment = flat.subarray(counts[l], counts[l + 1]).sort();
    for (let i = 0; i < segment.length; i++) {
      if (i > 0 && segment[i] === segment[i - 1]) picks.data[picks.length - 1]++;
      else {
        items.push(segment[i]);
        picks.push(1);
      }
    }
  }
  listStart[nLists] = items.length;
  return { listStart, listItems: items.done(), listPicks: picks.done() };
}
