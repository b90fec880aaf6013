/**
 * A player's index in a snapshot by id, for the routes that name players (docs/http-api.md):
 * one map per snapshot, built on first use and dropped with the snapshot.
 */
import { DomainError } from '../domain/domain-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';

const playerIndexes = new WeakMap<Snapshot, Map<string, number>>();

/**
 * The player index of `id` (of the player it is merged into, for a merged id); an id the data does not hold is an unknown-record DomainError (a
 * 404, docs/problems.md) pointing at `pointer`.
 */
export function playerIndexOf(snapshot: Snapshot, id: string, pointer: string): number {
  const p = findPlayerIndex(snapshot, id);
  if (p < 0) {
    throw new DomainError('unknown-record', `no player "${id}" in the data`, [
      { pointer, detail: `unknown player "${id}"` },
    ]);
  }
  return p;
}

/** The player index of `id` (of the player it is merged into, for a merged id), -1 when the data does not hold it. */
export function findPlayerIndex(snapshot: Snapshot, id: string): number {
  let index = playerIndexes.get(snapshot);
  if (index === undefined) {
    index = new Map(snapshot.players.map((p, i) => [p, i]));
    // A merged id answers for the id it is merged into (docs/data-model.md#player-merges).
    for (const { other, keep } of snapshot.merges) {
      const kept = index.get(keep);
      if (kept !== undefined) index.set(other, kept);
    }
    playerIndexes.set(snapshot, index);
  }
  return index.get(id) ?? -1;
}
