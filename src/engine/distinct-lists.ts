/**
 * The lists behind a scope's list-games (docs/statistics.md#item-use-stats): a list is one
 * player's list at one event, played in as many games as they played there, so the lists in
 * scope are far fewer than the game sides with a list that item-use-stats counts.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { throwIfCancelledEvery } from './cancellation.ts';
import { eventOrder, scopePositions } from './cube/event-order.ts';
import type { Scope } from './scope.ts';

/** Distinct lists played by the scope's sides whose faction `keep` marks (keep[f] >= 0). */
export function distinctLists(snapshot: Snapshot, scope: Scope, keep: Int32Array): number {
  const seen = new Uint8Array(snapshot.lists);
  const order = eventOrder(snapshot);
  const [start, end] = scopePositions(order, scope);
  const { list, faction } = snapshot;
  let n = 0;
  for (let k = start; k < end; k += 1) {
    throwIfCancelledEvery(k);
    if (scope.eventMask[order.event[k]] === 0) continue;
    for (let r = order.rowStart[k]; r < order.rowStart[k + 1]; r += 1) {
      const l = list[r];
      if (l < 0 || seen[l] === 1 || faction[r] < 0 || keep[faction[r]] < 0) continue;
      seen[l] = 1;
      n += 1;
    }
  }
  return n;
}
