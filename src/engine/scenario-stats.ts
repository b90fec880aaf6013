/**
 * scenario-stats (docs/statistics.md#scenario-stats): how scenarios play out: the first-turn side's
 * results, who takes the primary (attacker = the side that went first), how often secondaries are
 * achieved, margin bands, and each faction's results per scenario.
 */
import { SCENARIO_KINDS } from '../domain/model.ts';
import type { ScenarioKind } from '../domain/model.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { EMPTY_WARNING, LOW_SAMPLE_GAMES } from './engine-result.ts';
import { bandsOf } from './margin-bands.ts';
import { factionRef } from './entity-refs.ts';
import { mean, winRate, winRateInterval } from './win-rate.ts';
import type { EngineResult } from './engine-result.ts';
import type { FactionRef } from './entity-refs.ts';
import type { MarginBandCounts } from './margin-bands.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';
import type { Interval } from './intervals.ts';
import { resolveNames } from './scenario-parts.ts';
import { PriorFit, shrunkRate } from './shrinkage.ts';
import { clusteredRateInterval } from './win-rate.ts';
import type { IntervalKind } from './win-rate.ts';
import { sumClusters } from './cube/cluster-cube.ts';
import { scenarioClusters } from './cube/cluster-cubes.ts';
import type { ShrinkageMeta } from './shrinkage.ts';
import { partOffsets } from './cube/scenario-cube.ts';
import {
  CLASS_STRIDE,
  C_BANDS,
  C_FT_GAMES as FT_GAMES,
  C_FT_POINTS as FT_POINTS,
  C_FT_SCORE_N as FT_SCORE_N,
  C_FT_SCORE_SUM as FT_SCORE_SUM,
  C_GAMES as GAMES,
  C_PRI_ATT as PRI_ATT,
  C_PRI_DEF as PRI_DEF,
  C_PRI_KNOWN as PRI_KNOWN,
  C_PRI_NONE as PRI_NONE,
  F_DRAWS,
  F_GAMES,
  F_SCORE_N,
  F_SCORE_SUM,
  F_SIDES,
  F_WINS,
  PAIR_STRIDE as FS,
  SECONDARY_STRIDE,
  SEC_ACH,
  SEC_ATT_ACH,
  SEC_ATT_KNOWN,
  SEC_DEF_ACH,
  SEC_DEF_KNOWN,
  SEC_KNOWN,
  SEC_PICKED,
  clearScope,
  scenarioStatsCube,
  sumScenarioScope,
} from './cube/scenario-stats-cube.ts';

export interface ScenarioStatsRequest extends CommonFilter {
  kinds: ScenarioKind[];
  names: string[];
  factions: string[];
  minGames: number;
  /** Wilson (default) or event-clustered winRateInterval (docs/statistics.md). */
  interval?: IntervalKind;
}

export interface ScenarioFactionRow {
  faction: FactionRef;
  games: number;
  winRate: number | null;
  winRateInterval: Interval | null;
  /**
   * winRate pulled toward the faction's rate over the kind (docs/statistics.md#shrunk-win-rate).
   */
  shrunkWinRate: number | null;
  avgScore: number | null;
  lowSample: boolean;
}

export interface ScenarioStatsRow {
  kind: ScenarioKind;
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

/** The kind whose part keys hold `key` (the last kind starting at or before it: empty
 * dictionaries share their successor's offset). */
function kindOf(offsets: Readonly<Record<ScenarioKind, number>>, key: number): ScenarioKind {
  let found: ScenarioKind = SCENARIO_KINDS[0];
  for (const kind of SCENARIO_KINDS) if (offsets[kind] <= key) found = kind;
  return found;
}

/**
 * Computes scenario-stats for a normalised request (docs/statistics.md#scenario-stats) from the
 * per-part pre-aggregates of the events in scope (cube/scenario-stats-cube.ts).
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
  // Part keys follow SCENARIO_KINDS (partOffsets); `kinds` is in that order too (normaliseKinds).
  const [offsets] = partOffsets(snapshot);
  const built = scenarioStatsCube(snapshot);
  const factionList = selected ?? snapshot.systems[scope.system].factions;
  const listed = new Uint8Array(nF);
  for (const f of factionList) listed[f] = 1;
  const rows: ScenarioStatsRow[] = [];
  const clusters =
    request.interval === 'event-clustered' ? sumClusters(scenarioClusters(snapshot), scope) : null;
  let shrinkage: ShrinkageMeta = { priorStrength: null, cells: 0 };
  // The scratch is per snapshot: every exit path must leave it cleared for the next request.
  try {
    const sums = sumScenarioScope(snapshot, built, scope);
    // Touched keys ascending are the kinds in order, each kind's ids ascending, as a loop over
    // the dictionaries visits them; touched (key, faction) cells ascending group by key likewise.
    const keys = sums.cls.sortKeys();
    const cells = sums.pairs.sortKeys();
    const av = sums.cls.values;
    const fv = sums.pairs.values;
    const sec = sums.sec.values;
    const ratio = (x: number, n: number) => (n > 0 ? x / n : null);
    const prior = scenarioPrior(cells, fv, nF, (key) => {
      const kind = kindOf(offsets, key);
      return kinds.includes(kind) ? SCENARIO_KINDS.indexOf(kind) : -1;
    });
    shrinkage = prior.fit;
    let cell = 0;
    for (const key of keys) {
      const kind = kindOf(offsets, key);
      if (!kinds.includes(kind)) continue;
      const id = key - offsets[kind];
      const dict = snapshot.scenarioDicts[kind];
      const wanted = names?.get(kind) ?? null;
      if (names !== null && (wanted === null || wanted.size === 0)) continue;
      if (wanted !== null && !wanted.has(id)) continue;
      const a = (slot: number) => av[key * CLASS_STRIDE + slot];
      const sb = id * SECONDARY_STRIDE;
      const sv = (slot: number) => (kind === 'secondary' ? sec[sb + slot] : 0);
      const games = a(GAMES);
      if (games === 0 || games < request.minGames) continue;
      const factions: ScenarioFactionRow[] = [];
      while (cell < cells.length && cells[cell] < key * nF) cell++;
      for (; cell < cells.length && cells[cell] < (key + 1) * nF; cell++) {
        const f = cells[cell] - key * nF;
        if (listed[f] === 0) continue;
        const fb = cells[cell] * FS;
        if (fv[fb + F_SIDES] === 0) continue;
        const fg = fv[fb + F_GAMES];
        if (fg < request.minGames) continue;
        factions.push({
          faction: factionRef(snapshot, f),
          games: fg,
          winRate: winRate(fv[fb + F_WINS], fv[fb + F_DRAWS], fg),
          winRateInterval:
            clusters === null
              ? winRateInterval(fv[fb + F_WINS], fv[fb + F_DRAWS], fg)
              : clusteredRateInterval(
                  clusters,
                  cells[cell],
                  fv[fb + F_WINS] + fv[fb + F_DRAWS] / 2,
                  fg,
                ),
          shrunkWinRate: shrunkRate(
            fv[fb + F_WINS] + fv[fb + F_DRAWS] / 2,
            fg,
            prior.mean(key, f),
            shrinkage.priorStrength,
          ),
          avgScore: mean(fv[fb + F_SCORE_N], fv[fb + F_SCORE_SUM]),
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
          sv(SEC_PICKED) > 0
            ? {
                picked: sv(SEC_PICKED),
                achieved: sv(SEC_ACH),
                achievedRate: ratio(sv(SEC_ACH), sv(SEC_KNOWN)),
                attackerRate: ratio(sv(SEC_ATT_ACH), sv(SEC_ATT_KNOWN)),
                defenderRate: ratio(sv(SEC_DEF_ACH), sv(SEC_DEF_KNOWN)),
              }
            : null,
        marginBands: bandsOf(snapshot, scope.system, av, key * CLASS_STRIDE + C_BANDS),
        factions,
      });
    }
  } finally {
    clearScope(built);
  }
  rows.sort((x, y) => kinds.indexOf(x.kind) - kinds.indexOf(y.kind) || y.games - x.games);
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (rows.length === 0) warnings.push('no scenario matches the filter and minGames');
  return { data: { scenarios: rows }, filter: request, sample, warnings, meta: { shrinkage } };
}

/**
 * The prior of shrunkWinRate (docs/statistics.md#shrunk-win-rate): a (part, faction) cell's
 * prior mean is the faction's win rate over every part of the same kind in scope, and one
 * strength is fitted over the cells of the kinds asked for (`kindIndex` −1: not asked for).
 */
function scenarioPrior(
  cells: ArrayLike<number>,
  fv: Float64Array,
  nF: number,
  kindIndex: (key: number) => number,
): { mean: (key: number, faction: number) => number | null; fit: ShrinkageMeta } {
  const kindOfKey = new Map<number, number>();
  const sums = new Float64Array(SCENARIO_KINDS.length * nF * 2);
  const success = (fb: number) => fv[fb + F_WINS] + fv[fb + F_DRAWS] / 2;
  const visit = (each: (slot: number, fb: number) => void) => {
    for (let i = 0; i < cells.length; i++) {
      const key = Math.floor(cells[i] / nF);
      let kind = kindOfKey.get(key);
      if (kind === undefined) {
        kind = kindIndex(key);
        kindOfKey.set(key, kind);
      }
      if (kind >= 0) each(kind * nF + (cells[i] - key * nF), cells[i] * FS);
    }
  };
  visit((slot, fb) => {
    sums[2 * slot] += success(fb);
    sums[2 * slot + 1] += fv[fb + F_GAMES];
  });
  const meanOf = (slot: number) =>
    sums[2 * slot + 1] > 0 ? sums[2 * slot] / sums[2 * slot + 1] : null;
  const fit = new PriorFit();
  visit((slot, fb) => fit.add(success(fb), fv[fb + F_GAMES], meanOf(slot)));
  return {
    mean: (key, faction) => {
      const kind = kindOfKey.get(key) ?? -1;
      return kind < 0 ? null : meanOf(kind * nF + faction);
    },
    fit: fit.result(),
  };
}
