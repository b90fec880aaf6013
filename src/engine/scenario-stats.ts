/**
 * scenario-stats (DESIGN.md §5): how scenarios play out: the first-turn side's results, who takes
 * the primary (attacker = the side that went first), how often secondaries are achieved, margin
 * bands, and each faction's results per scenario.
 */
import type { ScenarioPart, Snapshot } from '../snapshot/snapshot.ts';
import {
  EMPTY_WARNING,
  LOW_SAMPLE_GAMES,
  bandsOf,
  factionRef,
  mean,
  winRate,
  winRateInterval,
} from './common.ts';
import type { EngineResult, FactionRef, MarginBandCounts } from './common.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';
import type { Interval } from './intervals.ts';
import { resolveNames } from './scenario-parts.ts';
import { sumScope } from './cube/event-cube.ts';
import { partOffsets } from './cube/scenario-cube.ts';
import {
  F_DRAWS,
  F_GAMES,
  F_SCORE_N,
  F_SCORE_SUM,
  F_SIDES,
  F_WINS,
  PAIR_STRIDE as FS,
  SECONDARY_STRIDE,
  SEC_ACH as C_SEC_ACH,
  SEC_ATT_ACH as C_SEC_ATT_ACH,
  SEC_ATT_KNOWN as C_SEC_ATT_KNOWN,
  SEC_DEF_ACH as C_SEC_DEF_ACH,
  SEC_DEF_KNOWN as C_SEC_DEF_KNOWN,
  SEC_KNOWN as C_SEC_KNOWN,
  SEC_PICKED as C_SEC_PICKED,
  expandClasses,
  scenarioStatsCube,
} from './cube/scenario-stats-cube.ts';

export interface ScenarioStatsRequest extends CommonFilter {
  kinds: ScenarioPart[];
  names: string[];
  factions: string[];
  minGames: number;
}

export interface ScenarioFactionRow {
  faction: FactionRef;
  games: number;
  winRate: number | null;
  winRateInterval: Interval | null;
  avgScore: number | null;
  lowSample: boolean;
}

export interface ScenarioStatsRow {
  kind: ScenarioPart;
  name: string;
  games: number;
  firstTurn: { games: number; winRate: number | null; avgScore: number | null };
  primary: { attacker: number; defender: number; none: number } | null;
  secondary: {
    picked: number;
    achieved: number;
    achievedRate: number | null;
    attackerRate: number | null;
    defenderRate: number | null;
  } | null;
  marginBands: MarginBandCounts | null;
  factions: ScenarioFactionRow[];
}

export interface ScenarioStatsData {
  scenarios: ScenarioStatsRow[];
}

// Per-key slots.
const GAMES = 0;
const FT_GAMES = 1;
const FT_POINTS = 2;
const FT_SCORE_N = 3;
const FT_SCORE_SUM = 4;
const PRI_KNOWN = 5;
const PRI_ATT = 6;
const PRI_DEF = 7;
const PRI_NONE = 8;
const SEC_PICKED = 9;
const SEC_KNOWN = 10;
const SEC_ACH = 11;
const SEC_ATT_KNOWN = 12;
const SEC_ATT_ACH = 13;
const SEC_DEF_KNOWN = 14;
const SEC_DEF_ACH = 15;
const K = 16;

/**
 * Computes scenario-stats for a normalised request (DESIGN.md §5 "scenario-stats") from the
 * per-class pre-aggregates of the events in scope (cube/scenario-stats-cube.ts).
 */
export function scenarioStats(
  snapshot: Snapshot,
  request: ScenarioStatsRequest,
): EngineResult<ScenarioStatsData, ScenarioStatsRequest> {
  const scope = resolveScope(snapshot, request);
  const selected = resolveFactions(snapshot, scope.system, request.factions, '/factions');
  const names = resolveNames(snapshot, request.kinds, request.names);
  const nF = snapshot.factions.length;
  const kinds = request.kinds;
  const offsets = new Map<ScenarioPart, number>();
  let nKeys = 0;
  for (const kind of kinds) {
    offsets.set(kind, nKeys);
    nKeys += snapshot.scenarioDicts[kind].values.length;
  }
  const acc = new Float64Array(nKeys * K);
  const facc = new Float64Array(nKeys * nF * FS);
  const bands = new Float64Array(nKeys * 4);
  // Request keys follow the requested kinds; class keys follow SCENARIO_PARTS (partOffsets).
  const [global, globalKeys] = partOffsets(snapshot);
  const toRequest = new Int32Array(globalKeys).fill(-1);
  for (const kind of kinds) {
    const n = snapshot.scenarioDicts[kind].values.length;
    for (let id = 0; id < n; id++) toRequest[global[kind] + id] = offsets.get(kind)! + id;
  }
  const built = scenarioStatsCube(snapshot);
  const [cls, pairs, sec] = sumScope(built.cube, built.order, scope, built.scan);
  expandClasses(built, cls, pairs, toRequest, nF, acc, K, bands, facc);
  const secBase = offsets.get('secondary') ?? -1;
  if (secBase >= 0) {
    const nSec = snapshot.scenarioDicts.secondary.values.length;
    for (let id = 0; id < nSec; id++) {
      const a = (secBase + id) * K;
      const b = id * SECONDARY_STRIDE;
      acc[a + SEC_PICKED] += sec[b + C_SEC_PICKED];
      acc[a + SEC_KNOWN] += sec[b + C_SEC_KNOWN];
      acc[a + SEC_ACH] += sec[b + C_SEC_ACH];
      acc[a + SEC_ATT_KNOWN] += sec[b + C_SEC_ATT_KNOWN];
      acc[a + SEC_ATT_ACH] += sec[b + C_SEC_ATT_ACH];
      acc[a + SEC_DEF_KNOWN] += sec[b + C_SEC_DEF_KNOWN];
      acc[a + SEC_DEF_ACH] += sec[b + C_SEC_DEF_ACH];
    }
  }

  const factionList = selected ?? snapshot.systems[scope.system].factions;
  const rows: ScenarioStatsRow[] = [];
  const ratio = (x: number, n: number) => (n > 0 ? x / n : null);
  for (const kind of kinds) {
    const base = offsets.get(kind)!;
    const dict = snapshot.scenarioDicts[kind];
    const wanted = names?.get(kind) ?? null;
    if (names !== null && (wanted === null || wanted.size === 0)) continue;
    for (let id = 0; id < dict.values.length; id++) {
      if (wanted !== null && !wanted.has(id)) continue;
      const key = base + id;
      const a = (slot: number) => acc[key * K + slot];
      const games = a(GAMES);
      if (games === 0 || games < request.minGames) continue;
      const factions: ScenarioFactionRow[] = [];
      for (const f of factionList) {
        const fb = (key * nF + f) * FS;
        if (facc[fb + F_SIDES] === 0) continue;
        const fg = facc[fb + F_GAMES];
        if (fg < request.minGames) continue;
        factions.push({
          faction: factionRef(snapshot, f),
          games: fg,
          winRate: winRate(facc[fb + F_WINS], facc[fb + F_DRAWS], fg),
          winRateInterval: winRateInterval(facc[fb + F_WINS], facc[fb + F_DRAWS], fg),
          avgScore: mean(facc[fb + F_SCORE_N], facc[fb + F_SCORE_SUM]),
          lowSample: fg < LOW_SAMPLE_GAMES,
        });
      }
      factions.sort((x, y) => y.games - x.games || (x.faction.id < y.faction.id ? -1 : 1));
      rows.push({
        kind,
        name: dict.values[id],
        games,
        firstTurn: {
          games: a(FT_GAMES),
          winRate: a(FT_GAMES) > 0 ? a(FT_POINTS) / 2 / a(FT_GAMES) : null,
          avgScore: mean(a(FT_SCORE_N), a(FT_SCORE_SUM)),
        },
        primary:
          a(PRI_KNOWN) > 0
            ? { attacker: a(PRI_ATT), defender: a(PRI_DEF), none: a(PRI_NONE) }
            : null,
        secondary:
          kind === 'secondary' && a(SEC_PICKED) > 0
            ? {
                picked: a(SEC_PICKED),
                achieved: a(SEC_ACH),
                achievedRate: ratio(a(SEC_ACH), a(SEC_KNOWN)),
                attackerRate: ratio(a(SEC_ATT_ACH), a(SEC_ATT_KNOWN)),
                defenderRate: ratio(a(SEC_DEF_ACH), a(SEC_DEF_KNOWN)),
              }
            : null,
        marginBands: bandsOf(snapshot, scope.system, bands, key * 4),
        factions,
      });
    }
  }
  rows.sort((x, y) => kinds.indexOf(x.kind) - kinds.indexOf(y.kind) || y.games - x.games);
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (rows.length === 0) warnings.push('no scenario matches the filter and minGames');
  return { data: { scenarios: rows }, filter: request, sample, warnings };
}
