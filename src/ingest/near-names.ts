/**
 * Names that almost match (docs/import-formats.md#names-that-almost-match): an unknown faction
 * name one edit away from a known one is most likely a typo ("Ember Orc" for "Ember Orcs"), so
 * the import says "did you mean" instead of quietly taking it as a new faction.
 */
import { withinOneEdit } from '../domain/one-edit.ts';

/**
 * Names shorter than this are never near misses: short codes such as "DH" and "BH" are one edit
 * apart by nature, and a suggestion between them would be noise.
 */
export const MIN_NEAR_LENGTH = 4;

export { withinOneEdit };

/** The candidate keys one edit away from `key` (both already case-folded), in their order. */
export function nearKeys(key: string, candidates: Iterable<string>): string[] {
  if (key.length < MIN_NEAR_LENGTH) return [];
  const out: string[] = [];
  for (const candidate of candidates) {
    if (candidate.length >= MIN_NEAR_LENGTH && withinOneEdit(key, candidate)) out.push(candidate);
  }
  return out;
}
