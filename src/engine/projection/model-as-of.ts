/**
 * The joint model as it stood on a day (docs/event-projection.md#the-model): fitted to the
 * system's games of events that started before that day only, as the forecast-accuracy backtest
 * fits its rolling origins (backtest.ts: the same design, a prefix of its rows, warm-started
 * from a fit already made), with its draw model and the distribution of game scores those games
 * show. Kept per snapshot, system and day.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { BACKTEST_FIT } from '../strength/backtest.ts';
import { fitDrawModel } from '../strength/draw-model.ts';
import type { DrawModel } from '../strength/draw-model.ts';
import { fitPrefix, jointProblem, logit } from '../strength/joint-model.ts';
import type { JointFit, JointProblem } from '../strength/joint-model.ts';
import { predictJoint } from '../strength/joint-prediction.ts';
import { strengthData } from '../strength/strength-games.ts';
import type { StrengthGames } from '../strength/strength-games.ts';

export interface ModelAsOf {
  readonly games: StrengthGames;
  /** Rows 0 .. end − 1 of `games` are the ones fitted (events before the day). */
  readonly end: number;
  readonly model: JointFit;
  readonly draws: DrawModel;
  /**
   * With a score total: how often each score 0 .. total was scored in those games (both sides,
   * plus a half of every score so that none is impossible), summing to 1; else null.
   */
  readonly scores: Float64Array | null;
}

interface SystemFits {
  readonly problem: JointProblem;
  readonly byEnd: Map<number, ModelAsOf>;
}

/** At most this many days' models are kept per system: an event asks for one. */
const KEPT = 32;

const fits = new WeakMap<Snapshot, Map<number, SystemFits>>();

/** The first row of `games` whose event starts on `day` or later (rows ascend by day). */
function firstRowOn(games: StrengthGames, day: number): number {
  let lo = 0;
  let hi = games.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (games.day[mid] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The kept fit nearest to `end` rows: the start of the next fit. */
function nearest(byEnd: Map<number, ModelAsOf>, end: number): JointFit | undefined {
  let best: ModelAsOf | undefined;
  for (const [e, m] of byEnd) {
    if (best === undefined || Math.abs(e - end) < Math.abs(best.end - end)) best = m;
  }
  return best?.model;
}

/** The share of each score 0 .. total over the fitted games' sides, every score given a half. */
function scoreShares(snapshot: Snapshot, games: StrengthGames, end: number, total: number) {
  const counts = new Float64Array(total + 1).fill(0.5);
  for (let r = 0; r < end; r++) {
    for (const side of [0, 1]) {
      const s = Math.round(snapshot.score[2 * games.game[r] + side]);
      if (s >= 0 && s <= total) counts[s]++;
    }
  }
  const sum = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => c / sum);
}

/** The model of `system` fitted to the games of events that started before `day`. */
export function modelAsOf(snapshot: Snapshot, system: number, day: number): ModelAsOf {
  let bySystem = fits.get(snapshot);
  if (bySystem === undefined) fits.set(snapshot, (bySystem = new Map()));
  let sys = bySystem.get(system);
  if (sys === undefined) {
    const games = strengthData(snapshot).systems[system];
    sys = { problem: jointProblem(games), byEnd: new Map() };
    bySystem.set(system, sys);
  }
  const games = sys.problem.games;
  const end = firstRowOn(games, day);
  const kept = sys.byEnd.get(end);
  if (kept !== undefined) return kept;
  const start = nearest(sys.byEnd, end);
  const model = fitPrefix(sys.problem, end, start, start === undefined ? {} : BACKTEST_FIT);
  const eta = new Float64Array(end);
  for (let r = 0; r < end; r++) {
    const x = logit(games.expected[r]);
    eta[r] = predictJoint(
      model,
      games.factionA[r],
      games.factionB[r],
      games.window[r],
      x,
      false,
    ).eta;
  }
  const draws = fitDrawModel(eta, games.result.subarray(0, end));
  const total = snapshot.systems[system].scoreTotal;
  const scores =
    games.scoreShare && total !== null && Number.isInteger(total) && total > 0 && total <= 1000
      ? scoreShares(snapshot, games, end, total)
      : null;
  const value: ModelAsOf = { games, end, model, draws, scores };
  if (sys.byEnd.size >= KEPT) sys.byEnd.delete(sys.byEnd.keys().next().value!);
  sys.byEnd.set(end, value);
  return value;
}
