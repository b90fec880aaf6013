/**
 * Estimates read off the joint model of a scope (docs/statistics.md#faction-strength): a
 * faction's expected score against the field and a pair's expected score, each after pilot
 * skill (equal ratings), as a 95 % interval from the coefficients' covariance mapped through the
 * logistic function.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { CommonFilter } from '../filter.ts';
import { Z95 } from '../intervals.ts';
import { contrastVariance, expit } from './joint-prediction.ts';
import { addFactionStrength, addMatchup, scopeModel } from './scope-model.ts';
import type { ScopeModel } from './scope-model.ts';

/** A value with its 95 % interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

function estimateOf(fit: ScopeModel, contrast: Float64Array): Estimate {
  let eta = 0;
  const theta = fit.model.fit.theta;
  for (let j = 0; j < contrast.length; j += 1) eta += contrast[j] * theta[j];
  const sd = Math.sqrt(contrastVariance(fit.model, contrast));
  return { value: expit(eta), low: expit(eta - Z95 * sd), high: expit(eta + Z95 * sd) };
}

/**
 * The expected score of an average pilot of faction f (system index) against an average
 * opponent of the field: f's strength minus the field's side-weighted mean strength, plus f's
 * matchups weighted by the field's sides (docs/statistics.md#faction-strength); null when f has
 * no non-mirror game in scope.
 */
export function factionEstimate(fit: ScopeModel, f: number): Estimate | null {
  if (fit.sides[f] === 0) return null;
  let total = 0;
  for (const n of fit.sides) total += n;
  const c = new Float64Array(fit.model.layout.columns);
  addFactionStrength(fit, f, 1, c);
  for (let g = 0; g < fit.sides.length; g += 1) {
    const share = fit.sides[g] / total;
    if (share === 0) continue;
    addFactionStrength(fit, g, -share, c);
    addMatchup(fit, f, g, share, c);
  }
  return estimateOf(fit, c);
}

/**
 * The skill-adjusted expected score of faction a against faction b (system indexes) between
 * equally rated players: their strengths in scope and their pair's effect; ½ for a mirror; null
 * when either has no game in scope.
 */
export function matchupEstimate(fit: ScopeModel, a: number, b: number): Estimate | null {
  if (fit.sides[a] === 0 || fit.sides[b] === 0) return null;
  if (a === b) return { value: 0.5, low: 0.5, high: 0.5 };
  const c = new Float64Array(fit.model.layout.columns);
  addFactionStrength(fit, a, 1, c);
  addFactionStrength(fit, b, -1, c);
  addMatchup(fit, a, b, 1, c);
  return estimateOf(fit, c);
}

/**
 * The skill-adjusted expected score per matchup cell of the filter's scope, for army-matchup's
 * cells: a function of two snapshot faction indexes (docs/statistics.md#faction-strength).
 */
export function skillAdjustedMatchups(
  snapshot: Snapshot,
  filter: CommonFilter,
): (faction: number, opponent: number) => Estimate | null {
  const fit = scopeModel(snapshot, filter);
  const local = new Map(snapshot.systems[fit.scope.system].factions.map((f, i) => [f, i]));
  return (faction, opponent) => {
    const a = local.get(faction);
    const b = local.get(opponent);
    return a === undefined || b === undefined ? null : matchupEstimate(fit, a, b);
  };
}
