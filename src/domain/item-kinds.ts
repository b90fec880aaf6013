/**
 * The kinds of item a list is made of (docs/statistics.md#item-use-stats): its units, the
 * options taken in them, and its configuration, the list-level choices that are not units
 * (a battle formation, a lore; docs/data-model.md#lists).
 */
export const ITEM_KINDS = ['unit', 'option', 'configuration'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
