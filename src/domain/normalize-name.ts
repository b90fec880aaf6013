/**
 * Name normalisation for imports: display names are trimmed with inner white space folded;
 * lookup keys are additionally Unicode-normalised (NFKC) and case-folded, so that "Vermin Swarm",
 * " vermin  swarm" and "VERMIN SWARM" meet in one alias.
 */

/** Trims and folds runs of white space to one space. */
export function cleanName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ');
}

/** The case-folded key an alias table is looked up by. */
export function nameKey(name: string): string {
  return cleanName(name).toLowerCase();
}
