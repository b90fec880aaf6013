/**
 * The columns every table of list choices shares (the Lists page, a faction's items): the item's
 * name with its category under it (the download keeps both as columns of their own), and its
 * skill-adjusted delta with its interval.
 */
import type { ItemRow } from '../types.ts';
import { DeltaBar } from './delta-bar.tsx';
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

/** The skill-adjusted delta with its 95 % interval, greyed when that spans 0. */
export const SKILL_COLUMN: Column<ItemRow> = {
  key: 'skill',
  label: 'Skill-adjusted',
  numeric: true,
  optional: true,
  define: 'skillAdjusted',
  csv: [
    ['skillAdjustedDelta', (r) => r.skillAdjustedDelta],
    ['skillAdjustedLow', (r) => r.skillAdjustedInterval?.low ?? null],
    ['skillAdjustedHigh', (r) => r.skillAdjustedInterval?.high ?? null],
  ],
  render: (r) => <DeltaBar value={r.skillAdjustedDelta} interval={r.skillAdjustedInterval} />,
  testId: 'skill-adjusted',
};
