/**
 * army-matchup (docs/statistics.md#army-matchup): faction-versus-faction results from the row
 * faction's side.
 * A mirror cell counts each mirror game once and has a win rate of exactly 0.5.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { EMPTY_WARNING, LOW_SAMPLE_GAMES } from './engine-result.ts';
import { assertIntervalFitsDraws, mean, rateCounts, winRate, winRateInterval } from './win-rate.ts';
import { factionRef } from './entity-refs.ts';
import type { Methodology } from '../domain/methodology.ts';
import type { DrawRule } from '../domain/methodology.ts';
import type { EngineResult } from './engine-result.ts';
import type { FactionRef } from './entity-refs.ts';
import { sumScope } from './cube/event-cube.ts';
import {
  DRAWS,
  GAMES,
  LOSSES,
  MATCHUP_STRIDE,
  SCORE_N,
  SCORE_SUM,
  WINS,
  matchupCube,
} from './cube/matchup-cube.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';
import { wilson } from './intervals.ts';
import type { Interval } from './intervals.ts';
import { adjustComparisons, compareTallies } from './compare.ts';
import { clusteredRateInterval } from './win-rate.ts';
import type { IntervalKind } from './win-rate.ts';
import { sumClusters } from './cube/cluster-cube.ts';
import { matchupClusters } from './cube/cluster-cubes.ts';
import { PriorFit, shrunkRate } from './shrinkage.ts';
import type { ShrinkageMeta } from './shrinkage.ts';
import type { Comparison, Tally } from './compare.ts';
import { skillAdjustedMatchups } from './strength/strength-estimates.ts';
import type { Estimate } from './strength/strength-estimates.ts';

export interface ArmyMatchupRequest extends CommonFilter, Partial<Methodology> {
  factions: string[];
  opponents: string[];
  minGames: number;
  /** A second filter whose figures each cell carries (docs/statistics.md#compareto). */
  compareTo?: CommonFilter | null;
  /** Wilson (default) or event-clustered winRateInterval (docs/statistics.md). */
  interval?: IntervalKind;
  /** Fit the joint model to the scope and give each cell its skill-adjusted score (costly). */
  skillAdjusted?: boolean;
}

export interface MatchupCell {
  faction: string;
  opponent: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  winRate: number | null;
  winRateInterval: Interval | null;
  /** winRate pulled toward the row faction's overall rate (docs/statistics.md#shrunk-win-rate). */
  shrunkWinRate: number | null;
  avgScore: number | null;
  /**
   * The row faction's expected score against the column's between equally rated players, from
   * the joint model of the scope (docs/statistics.md#faction-strength); ½ for a mirror.
   */
  skillAdjusted: Estimate | null;
  lowSample: boolean;
  compare?: Comparison;
}

export interface ArmyMatchupData {
  factions: FactionRef[];
  cells: MatchupCell[];
}

/** Computes the matchup matrix for a normalised request (docs/statistics.md#army-matchup). */
export function armyMatchup(
  snapshot: Snapshot,
  request: ArmyMatchupRequest,
): EngineResult<ArmyMatchupData, ArmyMatchupRequest> {
  assertIntervalFitsDraws(request.draws ?? 'half', request.interval);
  const scope = resolveScope(snapshot, request);
  const rowsSel = resolveFactions(snapshot, scope.system, request.factions, '/factions');
  const colsSel = resolveFactions(snapshot, scope.system, request.opponents, '/opponents');
  const nF = snapshot.factions.length;
  const { order, cube, scan } = matchupCube(snapshot);
  const [acc] = sumScope(cube, order, scope, scan);
  const compareScope = request.compareTo ? resolveScope(snapshot, request.compareTo) : null;
  const other = compareScope === null ? null : sumScope(cube, order, compareScope, scan)[0];
  const systemFactions = snapshot.systems[scope.system].factions;
  const clusters =
    request.interval === 'event-clustered' ? sumClusters(matchupClusters(snapshot), scope) : null;
  const rule = request.draws ?? 'half';
  const prior = matchupPrior(acc, systemFactions, nF, rule);
  const rows = rowsSel ?? systemFactions;
  const cols = colsSel ?? systemFactions;
  const cells: MatchupCell[] = [];
  const present = new Set<number>();
  const adjusted =
    request.skillAdjusted === true && acc.some((v) => v > 0)
      ? skillAdjustedMatchups(snapshot, request)
      : null;
  for (const f of rows) {
    for (const o of cols) {
      const base = (f * nF + o) * MATCHUP_STRIDE;
      const games = acc[base + GAMES];
      if (games === 0 || games < request.minGames) continue;
      // Mirror cells are in unless asked out (docs/statistics.md#methodology-switches).
      if (f === o && request.mirrors === 'exclude') continue;
      present.add(f);
      const wins = acc[base + WINS];
      // A mirror game has one draw side pair or one win and one loss: halve the drawn sides.
      const draws = f === o ? acc[base + DRAWS] / 2 : acc[base + DRAWS];
      const counted = rateCounts(wins, draws, games, rule);
      const cell: MatchupCell = {
        faction: snapshot.factions[f].id,
        opponent: snapshot.factions[o].id,
        games,
        wins,
        draws,
        losses: acc[base + LOSSES],
        winRate: f === o ? (counted.trials > 0 ? 0.5 : null) : winRate(wins, draws, games, rule),
        winRateInterval:
          f === o
            ? wilson(counted.trials / 2, counted.trials)
            : clusters === null
              ? winRateInterval(wins, draws, games, rule)
              : clusteredRateInterval(clusters, f * nF + o, wins + draws / 2, games),
        shrunkWinRate:
          f === o
            ? 0.5
            : shrunkRate(
                counted.successes,
                counted.trials,
                prior.rowMean[f],
                prior.fit.priorStrength,
              ),
        avgScore: mean(acc[base + SCORE_N], acc[base + SCORE_SUM]),
        skillAdjusted: adjusted === null ? null : adjusted(f, o),
        lowSample: games < LOW_SAMPLE_GAMES,
      };
      if (other !== null) cell.compare = compareCell(other, base, f === o, cell, rule);
      cells.push(cell);
    }
  }
  if (other !== null) adjustMatchups(cells);
  const sample = sampleOf(snapshot, scope);
  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (cells.length === 0) warnings.push('no matchup matches the filter and minGames');
  return {
    data: {
      factions: rows.filter((f) => present.has(f)).map((f) => factionRef(snapshot, f)),
      cells,
    },
    filter: request,
    sample,
    warnings,
    meta: {
      shrinkage: prior.fit,
      ...(compareScope === null ? {} : { compareSample: sampleOf(snapshot, compareScope) }),
    },
  };
}

/**
 * The prior of shrunkWinRate (docs/statistics.md#shrunk-win-rate): each row faction's win rate
 * over all its non-mirror cells in scope as the prior mean, and one strength fitted over every
 * non-mirror cell of the system, whatever factions, opponents and minGames select; draws
 * counted by the request's rule.
 */
function matchupPrior(
  acc: Float64Array,
  factions: readonly number[],
  nF: number,
  rule: DrawRule,
): { rowMean: (number | null)[]; fit: ShrinkageMeta } {
  const rowMean: (number | null)[] = new Array<number | null>(nF).fill(null);
  const counts = (base: number) =>
    rateCounts(acc[base + WINS], acc[base + DRAWS], acc[base + GAMES], rule);
  for (const f of factions) {
    let s = 0;
    let n = 0;
    for (const o of factions) {
      if (o === f) continue;
      const c = counts((f * nF + o) * MATCHUP_STRIDE);
      s += c.successes;
      n += c.trials;
    }
    rowMean[f] = n > 0 ? s / n : null;
  }
  const fit = new PriorFit();
  for (const f of factions) {
    for (const o of factions) {
      if (o === f) continue;
      const c = counts((f * nF + o) * MATCHUP_STRIDE);
      fit.add(c.successes, c.trials, rowMean[f]);
    }
  }
  return { rowMean, fit: fit.result() };
}

/**
 * Corrects the cells' changes for their number (docs/statistics.md#emphasis): a matchup and its
 * mirror image (A v B, B v A) are one comparison, counted once and copied to both.
 */
function adjustMatchups(cells: MatchupCell[]): void {
  const first = new Map<string, MatchupCell>();
  const family: Comparison[] = [];
  for (const c of cells) {
    const key =
      c.faction < c.opponent ? `${c.faction}~${c.opponent}` : `${c.opponent}~${c.faction}`;
    if (c.compare !== undefined && !first.has(key)) {
      first.set(key, c);
      family.push(c.compare);
    }
  }
  adjustComparisons(family);
  for (const c of cells) {
    const key =
      c.faction < c.opponent ? `${c.faction}~${c.opponent}` : `${c.opponent}~${c.faction}`;
    const one = first.get(key)?.compare;
    if (c.compare === undefined || one === undefined || one === c.compare) continue;
    c.compare.adjustedPValue = one.adjustedPValue;
    c.compare.emphasised = one.emphasised && c.compare.excludesZero === true;
  }
}

/**
 * A cell's comparison with the same cell of the compareTo scope; a mirror cell's rate is 0.5 in
 * both, so its difference is taken on half the games as successes, as its Wilson interval is.
 */
function compareCell(
  other: Float64Array,
  base: number,
  mirror: boolean,
  own: Tally,
  rule: DrawRule,
): Comparison {
  const games = other[base + GAMES];
  const tally = {
    games,
    wins: other[base + WINS],
    draws: mirror ? other[base + DRAWS] / 2 : other[base + DRAWS],
    losses: other[base + LOSSES],
  };
  if (!mirror) return compareTallies(own, tally, rule);
  const half = (t: Tally): Tally => {
    const g = rateCounts(t.wins, t.draws, t.games, rule).trials;
    return { games: g, wins: g / 2, draws: 0, losses: g / 2 };
  };
  return { ...compareTallies(half(own), half(tally)), ...tally };
}
