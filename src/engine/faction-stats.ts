/**
 * faction-stats (docs/statistics.md#faction-stats): how each faction performs in the scope of the
 * common filter.
 * Adds per-event pre-aggregates instead of scanning the scope's sides.
 */
import { monthOfDay } from '../domain/calendar-day.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { EMPTY_WARNING, LOW_SAMPLE_GAMES } from './engine-result.ts';
import { bandsOf } from './margin-bands.ts';
import { factionRef } from './entity-refs.ts';
import {
  mean,
  meanInterval,
  assertIntervalFitsDraws,
  winRate,
  winRateInterval,
} from './win-rate.ts';
import type { Methodology } from '../domain/methodology.ts';
import type { EngineResult } from './engine-result.ts';
import type { FactionRef } from './entity-refs.ts';
import type { MarginBandCounts } from './margin-bands.ts';
import { scoreDistributions } from './score-distribution.ts';
import type { ScoreDistribution } from './score-distribution.ts';
import { addBlock, newTargets, sumScope } from './cube/event-cube.ts';
import { visitScope } from './cube/event-order.ts';
import {
  E_BANDS,
  E_FT_N,
  E_FT_SUM,
  E_ST_N,
  E_ST_SUM,
  ENTRIES,
  EVENT_WINS,
  DERIVED_EVENT_WINS,
  FACTION_STRIDE,
  factionOver,
  FT_M_GAMES,
  FT_M_POINTS,
  FT_NM_GAMES,
  FT_NM_POINTS,
  FT_SCORE_N,
  FT_SCORE_SUM,
  MIRRORS,
  M_DRAWS,
  M_LOSSES,
  M_SIDES,
  M_WINS,
  NM_DRAWS,
  NM_GAMES,
  NM_LOSSES,
  NM_WINS,
  SCORE_N,
  SCORE_SQ,
  SCORE_SUM,
  SIDES,
  SKILL_ACTUAL,
  SKILL_EXPECTED,
  SKILL_N,
  ST_M_GAMES,
  ST_M_POINTS,
  ST_NM_GAMES,
  ST_NM_POINTS,
  ST_SCORE_N,
  ST_SCORE_SUM,
  UNDEFEATED,
  factionCube,
} from './cube/faction-cube.ts';
import { countPlayers } from './cube/player-pairs.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter, Scope } from './filter.ts';
import type { Interval } from './intervals.ts';
import { adjustComparisons, compareTallies } from './compare.ts';
import { clusteredRateInterval } from './win-rate.ts';
import type { IntervalKind } from './win-rate.ts';
import { sumClusters } from './cube/cluster-cube.ts';
import { factionClusters } from './cube/cluster-cubes.ts';
import {
  MAX_RUN_GAMES,
  RT_ENTRIES,
  RT_ONE_LOSS,
  RT_UNDEFEATED,
  RUN_STRIDE,
  runKey,
  runTableCube,
} from './cube/run-table-cube.ts';
import type { Comparison } from './compare.ts';
import type { OverRepresentation } from './over-representation.ts';

export type GroupBy = 'none' | 'month' | 'quarter';

export interface FactionStatsRequest extends CommonFilter, Partial<Methodology> {
  factions: string[];
  excludeMirrors: boolean;
  minGames: number;
  groupBy: GroupBy;
  /** A second filter whose figures each row carries (docs/statistics.md#compareto). */
  compareTo?: CommonFilter | null;
  /** Wilson (default) or event-clustered winRateInterval (docs/statistics.md). */
  interval?: IntervalKind;
  /** Give each row its score distribution (docs/statistics.md#score-distribution). */
  scoreDistribution?: boolean;
}

export interface TurnStats {
  games: number;
  winRate: number | null;
  avgScore: number | null;
}

export interface SeriesPoint {
  /** "2025-10" (month) or "2025-Q4" (quarter). */
  period: string;
  sides: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  winRate: number | null;
  winRateInterval: Interval | null;
  avgScore: number | null;
}

/** Entries of one length (games played in the event) and how many ran the table. */
export interface RunTheTable {
  games: number;
  entries: number;
  undefeated: number;
  undefeatedShare: number;
  /** 2^−games: the share if every game were a coin flip. */
  coinFlipUndefeated: number;
  atMostOneLoss: number;
  atMostOneLossShare: number;
  /** (games + 1) · 2^−games. */
  coinFlipAtMostOneLoss: number;
}

export interface Skill {
  expectedWinRate: number | null;
  overExpected: number | null;
}

export interface FactionStatsRow {
  faction: FactionRef;
  sides: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  mirrorGames: number;
  winRate: number | null;
  winRateInterval: Interval | null;
  avgScore: number | null;
  avgScoreInterval: Interval | null;
  players: number;
  entries: number;
  metaShare: number | null;
  firstTurn: TurnStats;
  secondTurn: TurnStats;
  eventWins: number;
  /** Of eventWins, those at events whose places are derived (docs/statistics.md#standings). */
  derivedEventWins: number;
  undefeated: number;
  topShare: number | null;
  overRepresentation: OverRepresentation;
  skill: Skill | null;
  runTheTable: RunTheTable[];
  lowSample: boolean;
  series?: SeriesPoint[];
  compare?: Comparison;
  scoreDistribution?: ScoreDistribution | null;
}

export interface FactionStatsData {
  factions: FactionStatsRow[];
  summary: {
    games: number;
    events: number;
    avgScoreFirstTurn: number | null;
    avgScoreSecondTurn: number | null;
    marginBands: MarginBandCounts | null;
    diversity: { hhi: number | null; effectiveFactions: number | null };
  };
}

function periodKey(day: number, groupBy: GroupBy): number {
  const month = monthOfDay(day);
  return groupBy === 'quarter' ? Math.floor(month / 3) : month;
}

function periodLabel(key: number, groupBy: GroupBy): string {
  if (groupBy === 'quarter') return `${Math.floor(key / 4)}-Q${(key % 4) + 1}`;
  return `${Math.floor(key / 12)}-${String((key % 12) + 1).padStart(2, '0')}`;
}

/** Totals of the counters `excludeMirrors` chooses between, from a faction-plane cell. */
function counted(acc: Float64Array, base: number, excludeMirrors: boolean) {
  const m = excludeMirrors ? 0 : 1;
  return {
    games: acc[base + NM_GAMES] + m * acc[base + M_SIDES],
    wins: acc[base + NM_WINS] + m * acc[base + M_WINS],
    draws: acc[base + NM_DRAWS] + m * acc[base + M_DRAWS],
    losses: acc[base + NM_LOSSES] + m * acc[base + M_LOSSES],
    ftGames: acc[base + FT_NM_GAMES] + m * acc[base + FT_M_GAMES],
    ftPoints: acc[base + FT_NM_POINTS] + m * acc[base + FT_M_POINTS],
    stGames: acc[base + ST_NM_GAMES] + m * acc[base + ST_M_GAMES],
    stPoints: acc[base + ST_NM_POINTS] + m * acc[base + ST_M_POINTS],
  };
}

function skillOf(acc: Float64Array, base: number): Skill | null {
  const n = acc[base + SKILL_N];
  if (n === 0) return null;
  const expectedWinRate = acc[base + SKILL_EXPECTED] / n;
  return { expectedWinRate, overExpected: acc[base + SKILL_ACTUAL] / n - expectedWinRate };
}

/**
 * A faction's entries per games played, with the shares that lost no game and at most one
 * beside a coin flip's (docs/statistics.md#run-the-table).
 */
function runTheTable(run: Float64Array, faction: number): RunTheTable[] {
  const out: RunTheTable[] = [];
  for (let g = 1; g <= MAX_RUN_GAMES; g++) {
    const b = runKey(faction, g) * RUN_STRIDE;
    const entries = run[b + RT_ENTRIES];
    if (entries === 0) continue;
    out.push({
      games: g,
      entries,
      undefeated: run[b + RT_UNDEFEATED],
      undefeatedShare: run[b + RT_UNDEFEATED] / entries,
      coinFlipUndefeated: 2 ** -g,
      atMostOneLoss: run[b + RT_ONE_LOSS],
      atMostOneLossShare: run[b + RT_ONE_LOSS] / entries,
      coinFlipAtMostOneLoss: (g + 1) * 2 ** -g,
    });
  }
  return out;
}

/**
 * The scope's totals, adding every event on its own so that each event's sums also go to its
 * period (month or quarter of its start), which `periods` collects.
 */
function sumByPeriod(
  snapshot: Snapshot,
  scope: Scope,
  groupBy: Exclude<GroupBy, 'none'>,
  periods: Map<number, Float64Array[]>,
): Float64Array[] {
  const { order, cube } = factionCube(snapshot);
  const totals = newTargets(cube.planes);
  const startDay = snapshot.events.startDay;
  visitScope(
    order,
    scope,
    [],
    () => undefined,
    (k) => {
      addBlock(cube, 0, k, totals);
      const key = periodKey(startDay[order.event[k]], groupBy);
      let target = periods.get(key);
      if (target === undefined) {
        target = newTargets(cube.planes);
        periods.set(key, target);
      }
      addBlock(cube, 0, k, target);
    },
  );
  return totals;
}

/** One faction's series: its counts per period in which it played, oldest first. */
function seriesOf(
  periods: Map<number, Float64Array[]>,
  periodKeys: readonly number[],
  base: number,
  request: FactionStatsRequest,
): SeriesPoint[] {
  const { excludeMirrors, groupBy, draws: rule } = request;
  const points: SeriesPoint[] = [];
  for (const key of periodKeys) {
    const p = periods.get(key)![0];
    if (p[base + SIDES] === 0) continue;
    const pc = counted(p, base, excludeMirrors);
    points.push({
      period: periodLabel(key, groupBy),
      sides: p[base + SIDES],
      games: pc.games,
      wins: pc.wins,
      draws: pc.draws,
      losses: pc.losses,
      winRate: winRate(pc.wins, pc.draws, pc.games, rule),
      winRateInterval: winRateInterval(pc.wins, pc.draws, pc.games, rule),
      avgScore: mean(p[base + SCORE_N], p[base + SCORE_SUM]),
    });
  }
  return points;
}

/** The Herfindahl-Hirschman index of the system's meta shares (docs/statistics.md#hhi). */
function diversityOf(
  factions: readonly number[],
  acc: Float64Array,
  totalSides: number,
): { hhi: number | null; effectiveFactions: number | null } {
  if (totalSides === 0) return { hhi: null, effectiveFactions: null };
  let hhi = 0;
  for (const f of factions) hhi += (acc[f * FACTION_STRIDE + SIDES] / totalSides) ** 2;
  return { hhi, effectiveFactions: hhi > 0 ? 1 / hhi : null };
}

/** Each row's score distribution over the scope (docs/statistics.md#score-distribution). */
function attachScoreDistributions(snapshot: Snapshot, scope: Scope, rows: FactionStatsRow[]) {
  const systemId = snapshot.systems[scope.system].id;
  const indexes = rows.map((r) => snapshot.factionIndex.get(`${systemId}\u0000${r.faction.id}`)!);
  const found = scoreDistributions(snapshot, scope, indexes);
  rows.forEach((r, i) => (r.scoreDistribution = found?.get(indexes[i]) ?? null));
}

/**
 * Computes faction-stats for a normalised request (docs/statistics.md#faction-stats), adding the
 * per-event pre-aggregates of the events in scope (cube/faction-cube.ts).
 */
export function factionStats(
  snapshot: Snapshot,
  request: FactionStatsRequest,
): EngineResult<FactionStatsData, FactionStatsRequest> {
  assertIntervalFitsDraws(request.draws ?? 'half', request.interval);
  const scope = resolveScope(snapshot, request);
  const selected = resolveFactions(snapshot, scope.system, request.factions, '/factions');
  const { order, cube, scan } = factionCube(snapshot);
  const groupBy = request.groupBy;
  const periods = new Map<number, Float64Array[]>();
  const [acc, ev] =
    groupBy === 'none'
      ? sumScope(cube, order, scope, scan)
      : sumByPeriod(snapshot, scope, groupBy, periods);
  const players = countPlayers(snapshot, scope);
  const runs = runTableCube(snapshot);
  const [run] = sumScope(runs.cube, runs.order, scope, runs.scan);
  // The second window is summed from the same cube, so compareTo costs one more sumScope.
  const compareScope = request.compareTo ? resolveScope(snapshot, request.compareTo) : null;
  const clusters =
    request.interval === 'event-clustered' ? sumClusters(factionClusters(snapshot), scope) : null;
  const other = compareScope === null ? null : sumScope(cube, order, compareScope, scan)[0];
  const { excludeMirrors, draws: rule } = request;
  const periodKeys = [...periods.keys()].sort((a, b) => a - b);

  let totalSides = 0;
  for (let f = 0; f < snapshot.factions.length; f++) totalSides += acc[f * FACTION_STRIDE + SIDES];
  const sample = sampleOf(snapshot, scope);
  const candidates = selected ?? snapshot.systems[scope.system].factions;
  const rows: FactionStatsRow[] = [];
  for (const f of candidates) {
    const base = f * FACTION_STRIDE;
    const a = (slot: number) => acc[base + slot];
    if (a(SIDES) === 0) continue;
    const c = counted(acc, base, excludeMirrors);
    const games = c.games;
    if (games < request.minGames) continue;
    const over = factionOver(acc, base, ev);
    const metaShare = totalSides > 0 ? a(SIDES) / totalSides : null;
    const row: FactionStatsRow = {
      faction: factionRef(snapshot, f),
      sides: a(SIDES),
      games,
      wins: c.wins,
      draws: c.draws,
      losses: c.losses,
      mirrorGames: a(MIRRORS),
      winRate: winRate(c.wins, c.draws, games, rule),
      winRateInterval:
        clusters === null
          ? winRateInterval(c.wins, c.draws, games, rule)
          : clusteredRateInterval(
              clusters,
              2 * f + (excludeMirrors ? 0 : 1),
              c.wins + c.draws / 2,
              games,
            ),
      avgScore: mean(a(SCORE_N), a(SCORE_SUM)),
      avgScoreInterval: meanInterval(a(SCORE_N), a(SCORE_SUM), a(SCORE_SQ)),
      players: players[f],
      entries: a(ENTRIES),
      metaShare,
      firstTurn: {
        games: c.ftGames,
        winRate: c.ftGames > 0 ? c.ftPoints / 2 / c.ftGames : null,
        avgScore: mean(a(FT_SCORE_N), a(FT_SCORE_SUM)),
      },
      secondTurn: {
        games: c.stGames,
        winRate: c.stGames > 0 ? c.stPoints / 2 / c.stGames : null,
        avgScore: mean(a(ST_SCORE_N), a(ST_SCORE_SUM)),
      },
      eventWins: a(EVENT_WINS),
      derivedEventWins: a(DERIVED_EVENT_WINS),
      undefeated: a(UNDEFEATED),
      // Top entries over entries of the same placed events (docs/statistics.md#top-share).
      topShare: over.topTen.ratio,
      overRepresentation: over,
      // Strong army or strong players? Elo expectation on pre-game Glicko-2 ratings
      // (docs/statistics.md#skill).
      skill: skillOf(acc, base),
      runTheTable: runTheTable(run, f),
      lowSample: games < LOW_SAMPLE_GAMES,
    };
    if (other !== null) row.compare = compareTallies(c, counted(other, base, excludeMirrors), rule);
    if (groupBy !== 'none') {
      row.series = seriesOf(periods, periodKeys, base, request);
    }
    rows.push(row);
  }
  rows.sort(
    (x, y) => y.games - x.games || y.sides - x.sides || (x.faction.id < y.faction.id ? -1 : 1),
  );
  adjustComparisons(rows.flatMap((r) => (r.compare === undefined ? [] : [r.compare])));
  if (request.scoreDistribution === true) attachScoreDistributions(snapshot, scope, rows);

  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (rows.length === 0) warnings.push('no faction matches the filter and minGames');
  return {
    data: {
      factions: rows,
      summary: {
        games: sample.games,
        events: sample.events,
        avgScoreFirstTurn: mean(ev[E_FT_N], ev[E_FT_SUM]),
        avgScoreSecondTurn: mean(ev[E_ST_N], ev[E_ST_SUM]),
        marginBands: bandsOf(snapshot, scope.system, ev, E_BANDS),
        diversity: diversityOf(snapshot.systems[scope.system].factions, acc, totalSides),
      },
    },
    filter: request,
    sample,
    warnings,
    ...(compareScope === null ? {} : { meta: { compareSample: sampleOf(snapshot, compareScope) } }),
  };
}
