/**
 * Name normalisation for imports: display names are trimmed with inner white space folded;
 * lookup keys are additionally Unicode-normalised (NFKC) and case-folded, so that "Vermin Swarm",
 * " vermin  swarm" and "VERMIN SWARM" meet in one alias.
 */

/**
 * Printable ASCII words separated by single spaces: NFKC leaves such a name as it is and there is
 * no white space to trim or fold, so it is already clean. Most names in an import are, and
 * `normalize` is a noticeable part of validating a game with its lists.
 */
const CLEAN_ASCII = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** Trims and folds runs of white space to one space. */
export function cleanName(name: string): string {
  if (CLEAN_ASCII.test(name)) return name;
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ');
}

/** The case-folded key an alias table is looked up by. */
export function nameKey(name: string): string {
  return cleanName(name).toLowerCase();
}
