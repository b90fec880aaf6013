/**
 * scenario (docs/statistics.md#scenario): the catalogue of scenarios, maps, deployments and
 * objectives of a system, with how often and when each was played in scope.
 */
import { SCENARIO_KINDS } from '../domain/model.ts';
import type { ScenarioKind } from '../domain/model.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { dayString } from '../domain/calendar-day.ts';
import { EMPTY_WARNING } from './engine-result.ts';
import type { EngineResult } from './engine-result.ts';
import { sumScope } from './cube/event-cube.ts';
import {
  DAY_BIAS,
  FIRST,
  GAMES,
  LAST,
  SCENARIO_STRIDE,
  scenarioCube,
} from './cube/scenario-cube.ts';
import { resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';

export interface ScenarioRequest extends CommonFilter {
  kinds: ScenarioKind[];
  search: string | null;
}

export interface ScenarioRow {
  kind: ScenarioKind;
  name: string;
  description: string | null;
  games: number;
  firstPlayed: string | null;
  lastPlayed: string | null;
}

export interface ScenarioData {
  scenarios: ScenarioRow[];
}

/** Lists the scenario catalogue in scope (docs/statistics.md#scenario). */
export function scenarioCatalogue(
  snapshot: Snapshot,
  request: ScenarioRequest,
): EngineResult<ScenarioData, ScenarioRequest> {
  const scope = resolveScope(snapshot, request);
  const systemId = snapshot.systems[scope.system].id;
  const search = request.search?.toLowerCase() ?? null;
  const rows: ScenarioRow[] = [];
  const { order, cube, scan, offsets } = scenarioCube(snapshot);
  const [acc] = sumScope(cube, order, scope, scan);
  for (const kind of request.kinds) {
    const dict = snapshot.scenarioDicts[kind];
    const n = dict.values.length;
    const base = offsets[kind];
    for (let id = 0; id < n; id++) {
      const name = dict.values[id];
      const key = `${systemId}\u0000${kind}\u0000${name.toLowerCase()}`;
      const inCatalogue = snapshot.scenarioDescriptions.has(key);
      const a = (base + id) * SCENARIO_STRIDE;
      const games = acc[a + GAMES];
      if (games === 0 && !inCatalogue) continue;
      if (search !== null && !name.toLowerCase().includes(search)) continue;
      rows.push({
        kind,
        name,
        description: snapshot.scenarioDescriptions.get(key) ?? null,
        games,
        firstPlayed: games > 0 ? dayString(DAY_BIAS - acc[a + FIRST]) : null,
        lastPlayed: games > 0 ? dayString(acc[a + LAST] - DAY_BIAS) : null,
      });
    }
  }
  const kindOrder = (k: ScenarioKind) => SCENARIO_KINDS.indexOf(k);
  rows.sort(
    (a, b) =>
      kindOrder(a.kind) - kindOrder(b.kind) || b.games - a.games || a.name.localeCompare(b.name),
  );
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  if (rows.length === 0) warnings.push('no scenario matches the filter');
  return { data: { scenarios: rows }, filter: request, sample, warnings };
}
