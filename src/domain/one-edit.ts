/**
 * One edit between two strings (Damerau 1964: the single insertion, deletion, replacement or
 * swap of neighbours that most typing slips are), shared by the import's near-miss names and the
 * engine's duplicate-player suggestions.
 */

/**
 * Whether `a` becomes `b` with one edit: one character inserted, deleted or replaced, or two
 * neighbouring characters swapped. Equal strings are not one edit apart. Linear in the length,
 * so checking an unknown name against every alias of a system stays cheap.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length === long.length) {
    // One replacement, or a swap of two neighbours.
    if (short.slice(i + 1) === long.slice(i + 1)) return true;
    return (
      i + 1 < short.length &&
      short[i] === long[i + 1] &&
      short[i + 1] === long[i] &&
      short.slice(i + 2) === long.slice(i + 2)
    );
  }
  // One insertion into the shorter string.
  return short.slice(i) === long.slice(i + 1);
}
