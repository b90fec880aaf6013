/**
 * Names that almost match (docs/import-formats.md#names-that-almost-match): an unknown faction
 * name one edit away from a known one is most likely a typo ("Ember Orc" for "Ember Orcs"), so
 * the import says "did you mean" instead of quietly taking it as a new faction.
 */

/**
 * Names shorter than this are never near misses: short codes such as "DH" and "BH" are one edit
 * apart by nature, and a suggestion between them would be noise.
 */
export const MIN_NEAR_LENGTH = 4;

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

/** The candidate keys one edit away from `key` (both already case-folded), in their order. */
export function nearKeys(key: string, candidates: Iterable<string>): string[] {
  if (key.length < MIN_NEAR_LENGTH) return [];
  const out: string[] = [];
  for (const candidate of candidates) {
    if (candidate.length >= MIN_NEAR_LENGTH && withinOneEdit(key, candidate)) out.push(candidate);
  }
  return out;
}
