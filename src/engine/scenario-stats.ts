/**
 * scenario-stats (DESIGN.md §5): how scenarios play out: the first-turn side's results, who takes
 * the primary (attacker = the side that went first), how often secondaries are achieved, margin
 * bands, and each faction's results per scenario.
 */
import type { ScenarioPart, Snapshot } from '../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN } from '../snapshot/snapshot.ts';
import {
  EMPTY_WARNING,
  LOW_SAMPLE_GAMES,
  addBand,
  bandBounds,
  bandOf,
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
import { gamePartColumn, gameSecondaries, resolveNames } from './scenario-parts.ts';

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
// Per (key, faction) slots.
const F_GAMES = 0;
const F_WINS = 1;
const F_DRAWS = 2;
const F_SCORE_N = 3;
const F_SCORE_SUM = 4;
const F_SIDES = 5;
const FS = 6;

/** Computes scenario-stats for a normalised request (DESIGN.md §5 "scenario-stats"). */
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
  const bounds = bandBounds(snapshot, scope.system);
  const { eventMask: mask, rowStart, rowEnd } = scope;
  const { rowEvent, faction, score, result, firstTurn, primaryAchieved } = snapshot;
  const buffer = new Int32Array(16);
  // Game-level kinds as (column, key base) pairs, resolved once per request.
  const columns: Int32Array[] = [];
  const columnBase: number[] = [];
  for (const kind of kinds) {
    const column = gamePartColumn(snapshot, kind);
    if (column !== null) {
      columns.push(column);
      columnBase.push(offsets.get(kind)!);
    }
  }
  const nColumns = columns.length;
  const secBase = offsets.get('secondary') ?? -1;
  const gameKeys = new Int32Array(nColumns + buffer.length);

  for (let r = rowStart; r < rowEnd; r += 2) {
    if (mask[rowEvent[r]] === 0) continue;
    const g = r >> 1;
    let nk = 0;
    for (let c = 0; c < nColumns; c++) {
      const id = columns[c][g];
      if (id >= 0) gameKeys[nk++] = columnBase[c] + id;
    }
    if (secBase >= 0) {
      const n = gameSecondaries(snapshot, g, buffer);
      for (let i = 0; i < n; i++) gameKeys[nk++] = secBase + buffer[i];
    }
    if (nk === 0) continue;
    const first = firstTurn[r] === 1 ? r : firstTurn[r + 1] === 1 ? r + 1 : -1;
    const second = first < 0 ? -1 : first ^ 1;
    const mirror = faction[r] === faction[r + 1];
    const band = bandOf(result, score, bounds, g);
    for (let k = 0; k < nk; k++) {
      const key = gameKeys[k];
      const a = key * K;
      acc[a + GAMES]++;
      addBand(bands, key * 4, band);
      if (first >= 0) {
        acc[a + FT_GAMES]++;
        acc[a + FT_POINTS] += result[first];
        if (score[first] === score[first]) {
          acc[a + FT_SCORE_N]++;
          acc[a + FT_SCORE_SUM] += score[first];
        }
        const pf = primaryAchieved[first];
        const ps = primaryAchieved[second];
        if (pf >= 0 && ps >= 0 && !(pf === 1 && ps === 1)) {
          acc[a + PRI_KNOWN]++;
          if (pf === 1) acc[a + PRI_ATT]++;
          else if (ps === 1) acc[a + PRI_DEF]++;
          else acc[a + PRI_NONE]++;
        }
      }
      for (let s = r; s <= r + 1; s++) {
        const fb = (key * nF + faction[s]) * FS;
        facc[fb + F_SIDES]++;
        if (!mirror) {
          facc[fb + F_GAMES]++;
          if (result[s] === RESULT_WIN) facc[fb + F_WINS]++;
          else if (result[s] === RESULT_DRAW) facc[fb + F_DRAWS]++;
        }
        if (score[s] === score[s]) {
          facc[fb + F_SCORE_N]++;
          facc[fb + F_SCORE_SUM] += score[s];
        }
      }
    }
    // Secondaries are per side: the side's own objective and whether it achieved it.
    if (secBase >= 0) {
      for (let s = r; s <= r + 1; s++) {
        const id = snapshot.secondary[s];
        if (id < 0) continue;
        const a = (secBase + id) * K;
        acc[a + SEC_PICKED]++;
        const ach = snapshot.secondaryAchieved[s];
        if (ach < 0) continue;
        acc[a + SEC_KNOWN]++;
        acc[a + SEC_ACH] += ach;
        if (firstTurn[s] === 1) {
          acc[a + SEC_ATT_KNOWN]++;
          acc[a + SEC_ATT_ACH] += ach;
        } else if (firstTurn[s] === 0) {
          acc[a + SEC_DEF_KNOWN]++;
          acc[a + SEC_DEF_ACH] += ach;
        }
      }
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
