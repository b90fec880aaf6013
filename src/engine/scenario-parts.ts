/** How a game maps onto scenario parts (kinds), shared by the scenario routes. */
import { SCENARIO_KINDS } from '../domain/model.ts';
import type { ScenarioKind } from '../domain/model.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { invalidField } from '../domain/domain-error.ts';

/** Per-game dictionary id columns of the four game-level kinds. */
export function gamePartColumn(snapshot: Snapshot, kind: ScenarioKind): Int32Array | null {
  switch (kind) {
    case 'scenario':
      return snapshot.gameScenario;
    case 'map':
      return snapshot.gameMap;
    case 'deployment':
      return snapshot.gameDeployment;
    case 'primary':
      return snapshot.gamePrimary;
    default:
      return null;
  }
}

/**
 * Distinct secondaries of game g (the game's own list and what each side played for), written
 * into `out`; returns how many.
 */
export function gameSecondaries(snapshot: Snapshot, g: number, out: Int32Array): number {
  // No closures here: this runs once per game per request.
  let n = 0;
  const start = snapshot.gameSecondaryStart[g];
  const end = snapshot.gameSecondaryStart[g + 1];
  for (let k = start; k <= end + 1; k++) {
    const id =
      k < end
        ? snapshot.gameSecondaryIds[k]
        : k === end
          ? snapshot.secondary[2 * g]
          : snapshot.secondary[2 * g + 1];
    if (id < 0) continue;
    let dup = false;
    for (let i = 0; i < n; i++) {
      if (out[i] === id) {
        dup = true;
        break;
      }
    }
    if (!dup && n < out.length) out[n++] = id;
  }
  return n;
}

/** Normalises `kinds` (default all, in catalogue order). */
export function normaliseKinds(kinds: readonly ScenarioKind[] | undefined): ScenarioKind[] {
  if (kinds === undefined || kinds.length === 0) return [...SCENARIO_KINDS];
  return SCENARIO_KINDS.filter((k) => kinds.includes(k));
}

/** Resolves requested names against the dictionaries of `kinds`; an unknown name is a 400. */
export function resolveNames(
  snapshot: Snapshot,
  kinds: readonly ScenarioKind[],
  names: readonly string[],
): Map<ScenarioKind, Set<number>> | null {
  if (names.length === 0) return null;
  const out = new Map<ScenarioKind, Set<number>>(kinds.map((k) => [k, new Set<number>()]));
  names.forEach((name, i) => {
    const key = name.trim().toLowerCase();
    let found = false;
    for (const kind of kinds) {
      const id = snapshot.scenarioDicts[kind].index.get(key);
      if (id !== undefined) {
        out.get(kind)!.add(id);
        found = true;
      }
    }
    if (!found) {
      throw invalidField(
        `/names/${i}`,
        `unknown scenario name "${name}" (kinds searched: ${kinds.join(', ')})`,
      );
    }
  });
  return out;
}
