/**
 * A player merge (docs/data-model.md#player-merges): one person's two ids made one, as a record
 * that can be undone rather than a rewrite of the games.
 */

/** What the other id held when it was merged. */
export interface PlayerMergeMoved {
  games: number;
  entries: number;
}

export interface PlayerMerge {
  id: number;
  /** The id kept: every figure names the person by it. */
  keep: string;
  /** The id merged into `keep`; it still answers, for `keep`. */
  other: string;
  note: string;
  /** ISO 8601 UTC. */
  mergedAt: string;
  /** ISO 8601 UTC when undone; null while it stands. */
  undoneAt: string | null;
  moved: PlayerMergeMoved;
}

/**
 * Each merged id and the id it counts as, following chains (a merged into b, b into c: a counts
 * as c); the standing merges in the order made.
 */
export function mergedIds(
  merges: readonly Pick<PlayerMerge, 'keep' | 'other'>[],
): Map<string, string> {
  const into = new Map(merges.map((m) => [m.other, m.keep]));
  const resolved = new Map<string, string>();
  for (const other of into.keys()) {
    let keep = into.get(other)!;
    // A merge never takes an id already merged, so chains end; the bound is a guard.
    for (let hops = 0; into.has(keep) && hops < into.size; hops++) keep = into.get(keep)!;
    resolved.set(other, keep);
  }
  return resolved;
}
