/**
 * faction-stats (DESIGN.md §5): how each faction performs in the scope of the common filter.
 * One pass over the scope's rows, one over its standings.
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
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
  meanInterval,
  newBandCounter,
  winRate,
  winRateInterval,
} from './common.ts';
import type { EngineResult, FactionRef, MarginBandCounts } from './common.ts';
import { resolveFactions, resolveScope, sampleOf } from './filter.ts';
import type { CommonFilter } from './filter.ts';
import type { Interval } from './intervals.ts';
import { computeSkill } from './ratings/snapshot-facts.ts';

export type GroupBy = 'none' | 'month' | 'quarter';

export interface FactionStatsRequest extends CommonFilter {
  factions: string[];
  excludeMirrors: boolean;
  minGames: number;
  groupBy: GroupBy;
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
  undefeated: number;
  topShare: number | null;
  skill: Skill | null;
  lowSample: boolean;
  series?: SeriesPoint[];
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

// Per-faction accumulator slots, stride S.
const SIDES = 0;
const GAMES = 1;
const WINS = 2;
const DRAWS = 3;
const LOSSES = 4;
const MIRRORS = 5;
const SCORE_N = 6;
const SCORE_SUM = 7;
const SCORE_SQ = 8;
const FT_GAMES = 9;
const FT_POINTS = 10;
const FT_SCORE_N = 11;
const FT_SCORE_SUM = 12;
const ST_GAMES = 13;
const ST_POINTS = 14;
const ST_SCORE_N = 15;
const ST_SCORE_SUM = 16;
const S = 17;

// Series slots, stride P.
const P_SIDES = 0;
const P_GAMES = 1;
const P_WINS = 2;
const P_DRAWS = 3;
const P_LOSSES = 4;
const P_SCORE_N = 5;
const P_SCORE_SUM = 6;
const P = 7;

/** Largest players x factions bitmap worth allocating per request; above it a Set is used. */
const MAX_BITMAP = 64 * 1024 * 1024;

function periodKey(day: number, groupBy: GroupBy): number {
  const d = new Date(day * 86_400_000);
  const month = d.getUTCFullYear() * 12 + d.getUTCMonth();
  return groupBy === 'quarter' ? Math.floor(month / 3) : month;
}

function periodLabel(key: number, groupBy: GroupBy): string {
  if (groupBy === 'quarter') return `${Math.floor(key / 4)}-Q${(key % 4) + 1}`;
  return `${Math.floor(key / 12)}-${String((key % 12) + 1).padStart(2, '0')}`;
}

/** Computes faction-stats for a normalised request (DESIGN.md §5 "faction-stats"). */
export function factionStats(
  snapshot: Snapshot,
  request: FactionStatsRequest,
): EngineResult<FactionStatsData, FactionStatsRequest> {
  const scope = resolveScope(snapshot, request);
  const selected = resolveFactions(snapshot, scope.system, request.factions, '/factions');
  const nF = snapshot.factions.length;
  const acc = new Float64Array(nF * S);
  const { eventMask: mask, rowStart, rowEnd } = scope;
  const { rowEvent, faction, opponent, score, result, firstTurn, player } = snapshot;
  const excludeMirrors = request.excludeMirrors;
  const eventHasGames = new Uint8Array(snapshot.events.count);

  const nPlayers = snapshot.players.length;
  const useBitmap = nF * nPlayers <= MAX_BITMAP;
  const seen = useBitmap ? new Uint8Array(nF * nPlayers) : null;
  const seenSet = useBitmap ? null : new Set<number>();
  const players = new Float64Array(nF);

  const groupBy = request.groupBy;
  let periodBase = 0;
  let nPeriods = 0;
  let eventPeriod: Int32Array | null = null;
  if (groupBy !== 'none') {
    eventPeriod = new Int32Array(snapshot.events.count);
    let min = Infinity;
    let max = -Infinity;
    for (let e = 0; e < snapshot.events.count; e++) {
      if (mask[e] === 0) continue;
      const key = periodKey(snapshot.events.startDay[e], groupBy);
      eventPeriod[e] = key;
      if (key < min) min = key;
      if (key > max) max = key;
    }
    if (min <= max) {
      periodBase = min;
      nPeriods = max - min + 1;
    }
  }
  const series = new Float64Array(nF * Math.max(nPeriods, 1) * P);

  let ftN = 0;
  let ftSum = 0;
  let stN = 0;
  let stSum = 0;
  let totalSides = 0;
  const bands = newBandCounter();
  const bounds = bandBounds(snapshot, scope.system);

  for (let r = rowStart; r < rowEnd; r++) {
    const e = rowEvent[r];
    if (mask[e] === 0) continue;
    eventHasGames[e] = 1;
    const f = faction[r];
    const base = f * S;
    const mirror = opponent[r] === f;
    const res = result[r];
    const sc = score[r];
    const hasScore = sc === sc;
    const ft = firstTurn[r];
    totalSides++;
    acc[base + SIDES]++;
    if (hasScore) {
      acc[base + SCORE_N]++;
      acc[base + SCORE_SUM] += sc;
      acc[base + SCORE_SQ] += sc * sc;
    }
    if (mirror && (r & 1) === 0) acc[base + MIRRORS]++;
    const counted = !(mirror && excludeMirrors);
    if (counted) {
      acc[base + GAMES]++;
      if (res === RESULT_WIN) acc[base + WINS]++;
      else if (res === RESULT_DRAW) acc[base + DRAWS]++;
      else acc[base + LOSSES]++;
    }
    if (ft === 1) {
      if (counted) {
        acc[base + FT_GAMES]++;
        acc[base + FT_POINTS] += res;
      }
      if (hasScore) {
        acc[base + FT_SCORE_N]++;
        acc[base + FT_SCORE_SUM] += sc;
        ftN++;
        ftSum += sc;
      }
    } else if (ft === 0) {
      if (counted) {
        acc[base + ST_GAMES]++;
        acc[base + ST_POINTS] += res;
      }
      if (hasScore) {
        acc[base + ST_SCORE_N]++;
        acc[base + ST_SCORE_SUM] += sc;
        stN++;
        stSum += sc;
      }
    }
    const p = player[r];
    if (p >= 0) {
      if (seen !== null) {
        const k = f * nPlayers + p;
        if (seen[k] === 0) {
          seen[k] = 1;
          players[f]++;
        }
      } else {
        const k = f * nPlayers + p;
        if (!seenSet!.has(k)) {
          seenSet!.add(k);
          players[f]++;
        }
      }
    }
    if (eventPeriod !== null) {
      const pb = (f * nPeriods + (eventPeriod[e] - periodBase)) * P;
      series[pb + P_SIDES]++;
      if (hasScore) {
        series[pb + P_SCORE_N]++;
        series[pb + P_SCORE_SUM] += sc;
      }
      if (counted) {
        series[pb + P_GAMES]++;
        if (res === RESULT_WIN) series[pb + P_WINS]++;
        else if (res === RESULT_DRAW) series[pb + P_DRAWS]++;
        else series[pb + P_LOSSES]++;
      }
    }
    if ((r & 1) === 0) addBand(bands, 0, bandOf(result, score, bounds, r >> 1));
  }

  // Standings of events with a counted game.
  const st = snapshot.standings;
  const entries = new Float64Array(nF);
  const eventWins = new Float64Array(nF);
  const undefeated = new Float64Array(nF);
  const top = new Float64Array(nF);
  let totalTop = 0;
  for (let i = 0; i < st.count; i++) {
    if (eventHasGames[st.event[i]] === 0) continue;
    const f = st.faction[i];
    if (st.top[i]) totalTop++;
    if (f < 0) continue;
    entries[f]++;
    if (st.placement[i] === 1) eventWins[f]++;
    if (st.undefeated[i]) undefeated[f]++;
    if (st.top[i]) top[f]++;
  }

  const sample = sampleOf(snapshot, scope);
  const candidates = selected ?? snapshot.systems[scope.system].factions;
  let hhi = 0;
  for (const f of snapshot.systems[scope.system].factions) {
    if (totalSides > 0) hhi += (acc[f * S + SIDES] / totalSides) ** 2;
  }
  const rows: FactionStatsRow[] = [];
  for (const f of candidates) {
    const a = (slot: number) => acc[f * S + slot];
    if (a(SIDES) === 0) continue;
    const games = a(GAMES);
    if (games < request.minGames) continue;
    const metaShare = totalSides > 0 ? a(SIDES) / totalSides : null;
    const row: FactionStatsRow = {
      faction: factionRef(snapshot, f),
      sides: a(SIDES),
      games,
      wins: a(WINS),
      draws: a(DRAWS),
      losses: a(LOSSES),
      mirrorGames: a(MIRRORS),
      winRate: winRate(a(WINS), a(DRAWS), games),
      winRateInterval: winRateInterval(a(WINS), a(DRAWS), games),
      avgScore: mean(a(SCORE_N), a(SCORE_SUM)),
      avgScoreInterval: meanInterval(a(SCORE_N), a(SCORE_SUM), a(SCORE_SQ)),
      players: players[f],
      entries: entries[f],
      metaShare,
      firstTurn: {
        games: a(FT_GAMES),
        winRate: a(FT_GAMES) > 0 ? a(FT_POINTS) / 2 / a(FT_GAMES) : null,
        avgScore: mean(a(FT_SCORE_N), a(FT_SCORE_SUM)),
      },
      secondTurn: {
        games: a(ST_GAMES),
        winRate: a(ST_GAMES) > 0 ? a(ST_POINTS) / 2 / a(ST_GAMES) : null,
        avgScore: mean(a(ST_SCORE_N), a(ST_SCORE_SUM)),
      },
      eventWins: eventWins[f],
      undefeated: undefeated[f],
      topShare:
        totalTop > 0 && metaShare !== null && metaShare > 0 ? top[f] / totalTop / metaShare : null,
      // Strong army or strong players? Elo expectation on pre-game Glicko-2 ratings (issue 4).
      skill: computeSkill(snapshot, scope, f),
      lowSample: games < LOW_SAMPLE_GAMES,
    };
    if (groupBy !== 'none') {
      const points: SeriesPoint[] = [];
      for (let k = 0; k < nPeriods; k++) {
        const pb = (f * nPeriods + k) * P;
        if (series[pb + P_SIDES] === 0) continue;
        const g = series[pb + P_GAMES];
        const w = series[pb + P_WINS];
        const d = series[pb + P_DRAWS];
        points.push({
          period: periodLabel(periodBase + k, groupBy),
          sides: series[pb + P_SIDES],
          games: g,
          wins: w,
          draws: d,
          losses: series[pb + P_LOSSES],
          winRate: winRate(w, d, g),
          winRateInterval: winRateInterval(w, d, g),
          avgScore: mean(series[pb + P_SCORE_N], series[pb + P_SCORE_SUM]),
        });
      }
      row.series = points;
    }
    rows.push(row);
  }
  rows.sort(
    (x, y) => y.games - x.games || y.sides - x.sides || (x.faction.id < y.faction.id ? -1 : 1),
  );

  const warnings: string[] = [];
  if (sample.games === 0) warnings.push(EMPTY_WARNING);
  else if (rows.length === 0) warnings.push('no faction matches the filter and minGames');
  return {
    data: {
      factions: rows,
      summary: {
        games: sample.games,
        events: sample.events,
        avgScoreFirstTurn: mean(ftN, ftSum),
        avgScoreSecondTurn: mean(stN, stSum),
        marginBands: bandsOf(snapshot, scope.system, bands),
        diversity: {
          hhi: totalSides > 0 ? hhi : null,
          effectiveFactions: totalSides > 0 && hhi > 0 ? 1 / hhi : null,
        },
      },
    },
    filter: request,
    sample,
    warnings,
  };
}
