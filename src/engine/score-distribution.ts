/**
 * A faction's score distribution on its system's scale (docs/statistics.md#score-distribution):
 * how many of its sides in scope scored each whole score from the scale's minimum to its
 * maximum (T9A: 0 to 20), as the sides behind its average score count them.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { throwIfCancelledEvery } from './cancellation.ts';
import { eventOrder, scopePositions } from './cube/event-order.ts';
import type { Scope } from './scope.ts';

/** Scales with more steps than this are not drawn score by score. */
const MAX_STEPS = 200;

export interface ScoreDistribution {
  /** The scale's ends: counts[i] is the sides that scored min + i. */
  min: number;
  max: number;
  counts: number[];
  /** Sides with a known score off the whole steps of the scale (kept out of counts). */
  offScale: number;
}

/**
 * Per faction of `factions`, its distribution over the scope's sides (every side, mirrors both
 * sides, as the average score counts them); null for every faction when the system declares
 * no scale or one too fine to draw step by step.
 */
export function scoreDistributions(
  snapshot: Snapshot,
  scope: Scope,
  factions: readonly number[],
): Map<number, ScoreDistribution> | null {
  const system = snapshot.systems[scope.system];
  const { scoreMin: min, scoreMax: max } = system;
  if (min === null || max === null || !Number.isInteger(min) || !Number.isInteger(max)) {
    return null;
  }
  if (max < min || max - min > MAX_STEPS) return null;
  const out = new Map<number, ScoreDistribution>();
  const slot = new Int32Array(snapshot.factions.length).fill(-1);
  for (const f of factions) {
    slot[f] = out.size;
    out.set(f, { min, max, counts: new Array<number>(max - min + 1).fill(0), offScale: 0 });
  }
  const rows = [...out.values()];
  const order = eventOrder(snapshot);
  const [start, end] = scopePositions(order, scope);
  const { faction, score } = snapshot;
  for (let k = start; k < end; k += 1) {
    throwIfCancelledEvery(k);
    if (scope.eventMask[order.event[k]] === 0) continue;
    for (let r = order.rowStart[k]; r < order.rowStart[k + 1]; r += 1) {
      const f = faction[r];
      if (f < 0 || slot[f] < 0) continue;
      const s = score[r];
      if (s !== s) continue;
      const row = rows[slot[f]];
      if (Number.isInteger(s) && s >= min && s <= max) row.counts[s - min] += 1;
      else row.offScale += 1;
    }
  }
  return out;
}
