/**
 * The joint model fitted to the games a common filter selects (docs/statistics.md#faction-strength):
 * what faction-strength and the skill-adjusted matchup cells read, with each faction's
 * non-mirror sides per window in scope (the weights that average a faction's window strengths).
 * Cached per snapshot (data version) and filter.
 */
import { NormalisedFilterProperties } from '../../domain/common-filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { resolveScope } from '../filter.ts';
import type { CommonFilter, Scope } from '../filter.ts';
import { Lru, cached } from '../ratings/lru.ts';
import { fitJoint } from './joint-model.ts';
import type { JointFit } from './joint-model.ts';
import { scopeRows } from './scope-rows.ts';
import type { StrengthGames } from './strength-games.ts';

export interface ScopeModel {
  readonly scope: Scope;
  readonly games: StrengthGames;
  readonly rows: Int32Array;
  readonly model: JointFit;
  /** Per faction f and window w: sidesIn[w · factions + f], its non-mirror sides in scope. */
  readonly sidesIn: Float64Array;
  /** Per faction: its non-mirror sides in scope. */
  readonly sides: Float64Array;
  readonly milliseconds: number;
}

const scopeModels = new WeakMap<Snapshot, Lru<ScopeModel>>();

function fitScope(snapshot: Snapshot, filter: CommonFilter): ScopeModel {
  const started = performance.now();
  const scope = resolveScope(snapshot, filter);
  const { games, rows } = scopeRows(snapshot, scope);
  const model = fitJoint(games, { rows });
  const f = games.factions;
  const windows = model.layout.windows;
  const sidesIn = new Float64Array(Math.max(1, windows) * f);
  const sides = new Float64Array(f);
  for (const r of rows) {
    const a = games.factionA[r];
    const b = games.factionB[r];
    if (a === b) continue;
    const base = games.window[r] * f;
    for (const side of [a, b]) {
      if (side < 0) continue;
      sidesIn[base + side] += 1;
      sides[side] += 1;
    }
  }
  return {
    scope,
    games,
    rows,
    model,
    sidesIn,
    sides,
    milliseconds: performance.now() - started,
  };
}

/**
 * What the model of a filter's games is kept under: the common filter's fields only, since a
 * route's own options (army-matchup's factions, the methodology switches) do not change the
 * games the model is fitted to.
 */
export function scopeModelKey(filter: CommonFilter): string {
  return JSON.stringify(
    Object.keys(NormalisedFilterProperties).map((k) => filter[k as keyof CommonFilter]),
  );
}

/** The joint model of the filter's games (docs/statistics.md#faction-strength), cached. */
export function scopeModel(snapshot: Snapshot, filter: CommonFilter): ScopeModel {
  let lru = scopeModels.get(snapshot);
  if (lru === undefined) scopeModels.set(snapshot, (lru = new Lru(8)));
  return cached(lru, scopeModelKey(filter), () => fitScope(snapshot, filter));
}

/**
 * Adds `weight` × a faction's strength in scope to the contrast `c`: its base plus its window
 * departures, each window weighted by the faction's share of its sides there.
 */
export function addFactionStrength(
  scopeFit: ScopeModel,
  faction: number,
  weight: number,
  c: Float64Array,
): void {
  const { layout } = scopeFit.model;
  const n = scopeFit.sides[faction];
  c[layout.factionStart + faction] += weight;
  if (n === 0) return;
  for (let w = 0; w < layout.windows; w += 1) {
    const share = scopeFit.sidesIn[w * layout.factions + faction] / n;
    if (share > 0) c[layout.windowColumn(faction, w)] += weight * share;
  }
}

/** Adds `weight` × m_a,b (= −m_b,a, 0 for a mirror) to the contrast `c`. */
export function addMatchup(
  scopeFit: ScopeModel,
  a: number,
  b: number,
  weight: number,
  c: Float64Array,
): void {
  const { layout } = scopeFit.model;
  if (a === b || !layout.terms.matchup) return;
  if (a < b) c[layout.pairColumn(a, b)] += weight;
  else c[layout.pairColumn(b, a)] -= weight;
}
