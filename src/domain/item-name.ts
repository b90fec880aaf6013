/**
 * The name of a list item (a unit, an option, a configuration choice) as one item, however its
 * list builder punctuated it (docs/import-formats.md#item-names): cleaned as every name is, and
 * with the serial ("Oxford") comma before a list's last "and" or "or" dropped, so that "General,
 * Disciplined, and Wildheart" and "General, Disciplined and Wildheart" are one item.
 */
import { cleanName } from './normalize-name.ts';

/** ", X, and Y" → ", X and Y": a comma already names the list, the last one says nothing more. */
const SERIAL_COMMA = /(,[^,]+), (and|or) /g;

/** Spec: docs/import-formats.md#item-names. */
export function itemName(name: string): string {
  const clean = cleanName(name);
  return clean.includes(', ') ? clean.replace(SERIAL_COMMA, '$1 $2 ') : clean;
}
