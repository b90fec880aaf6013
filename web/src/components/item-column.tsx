/**
 * The item column every table of list choices starts with (the Lists page, a faction's items):
 * the item's name with its category under it; the download keeps both as columns of their own.
 */
import type { ItemRow } from '../types.ts';
import type { Column } from './sortable-table.tsx';

export const ITEM_COLUMN: Column<ItemRow> = {
  key: 'item',
  label: 'Item',
  csv: [
    ['item', (r) => r.item.name],
    ['category', (r) => r.item.category],
  ],
  render: (r) => (
    <>
      {r.item.name}
      <small class="category">{r.item.category}</small>
    </>
  ),
};
