/**
 * scenario (DESIGN.md §5): the catalogue of scenarios, maps, deployments and objectives of a
 * system, with how often and when each was played in scope.
 */
import type { ScenarioPart, Snapshot } from '../snapshot/snapshot.ts';
import { SCENARIO_PARTS } from '../snapshot/snapshot.ts';
import { dayString } from '../snapshot/snapshot-builder.ts';
import { EMPTY_WARNING } from './common.ts';
import type { EngineResult } from './common.ts';
import { resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';
import { gamePartColumn, gameSecondaries } from './scenario-parts.ts';

export interface ScenarioRequest extends CommonFilter {
  kinds: ScenarioPart[];
  search: string | null;
}

export interface ScenarioRow {
  kind: ScenarioPart;
  name: string;
  description: string | null;
  games: number;
  firstPlayed: string | null;
  lastPlayed: string | null;
}

export interface ScenarioData {
  scenarios: ScenarioRow[];
}

/** Lists the scenario catalogue in scope (DESIGN.md §5 "scenario"). */
export function scenarioCatalogue(
  snapshot: Snapshot,
  request: ScenarioRequest,
): EngineResult<ScenarioData, ScenarioRequest> {
  const scope = resolveScope(snapshot, request);
  const systemId = snapshot.systems[scope.system].id;
  const search = request.search?.toLowerCase() ?? null;
  const rows: ScenarioRow[] = [];
  const buffer = new Int32Array(16);
  for (const kind of request.kinds) {
    const dict = snapshot.scenarioDicts[kind];
    const n = dict.values.length;
    const games = new Float64Array(n);
    const first = new Int32Array(n).fill(2 ** 31 - 1);
    const last = new Int32Array(n).fill(-(2 ** 31));
    const column = gamePartColumn(snapshot, kind);
    const { eventMask: mask, rowStart, rowEnd } = scope;
    for (let r = rowStart; r < rowEnd; r += 2) {
      const e = snapshot.rowEvent[r];
      if (mask[e] === 0) continue;
      const g = r >> 1;
      const day = snapshot.events.startDay[e];
      const k = column !== null ? (column[g] >= 0 ? 1 : 0) : gameSecondaries(snapshot, g, buffer);
      if (column !== null) buffer[0] = column[g];
      for (let i = 0; i < k; i++) {
        const id = buffer[i];
        games[id]++;
        if (day < first[id]) first[id] = day;
        if (day > last[id]) last[id] = day;
      }
    }
    for (let id = 0; id < n; id++) {
      const name = dict.values[id];
      const key = `${systemId}\u0000${kind}\u0000${name.toLowerCase()}`;
      const inCatalogue = snapshot.scenarioDescriptions.has(key);
      if (games[id] === 0 && !inCatalogue) continue;
      if (search !== null && !name.toLowerCase().includes(search)) continue;
      rows.push({
        kind,
        name,
        description: snapshot.scenarioDescriptions.get(key) ?? null,
        games: games[id],
        firstPlayed: games[id] > 0 ? dayString(first[id]) : null,
        lastPlayed: games[id] > 0 ? dayString(last[id]) : null,
      });
    }
  }
  const order = (k: ScenarioPart) => SCENARIO_PARTS.indexOf(k);
  rows.sort(
    (a, b) => order(a.kind) - order(b.kind) || b.games - a.games || a.name.localeCompare(b.name),
  );
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  if (rows.length === 0) warnings.push('no scenario matches the filter');
  return { data: { scenarios: rows }, filter: request, sample, warnings };
}
