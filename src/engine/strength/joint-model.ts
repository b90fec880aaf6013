/**
 * The joint model of a game's expected score (docs/ratings.md#the-joint-model):
 *
 *   logit E = β·logit(E_glicko) + (a_A + d_A,w) − (a_B + d_B,w) + m_A,B
 *
 * with E_glicko today's Glicko-2 forecast from the ratings before the game's event, a_f a
 * faction's strength, d_f,w its departure in the game's window (rules version or year, so a
 * balance update can move it), and m_A,B = −m_B,A the matchup effect of the pair, all fitted by
 * penalised maximum likelihood (penalised-logistic.ts) under Gaussian priors that shrink the
 * departures and the matchups hard toward 0. Columns: [β] [a_f] [m_pair] [d_w,f], windows last
 * so that a backtest adding a window only appends columns.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { GaussianPrior, LogisticFit, SparseDesign } from './penalised-logistic.ts';
import { fitPenalisedLogistic, linearPredictor } from './penalised-logistic.ts';
import type { StrengthGames } from './strength-games.ts';

/** Which terms a model has: the joint model all, "faction only" no skill term. */
export interface ModelTerms {
  readonly skill: boolean;
  readonly matchup: boolean;
}

/** Prior standard deviations on the logit scale (docs/ratings.md#the-joint-model). */
export interface PriorScales {
  /** β's prior is centred on 1 (Glicko-2's own scale). */
  readonly skill: number;
  readonly faction: number;
  readonly window: number;
  readonly matchup: number;
}

export const DEFAULT_PRIOR_SCALES: PriorScales = Object.freeze({
  skill: 0.5,
  faction: 0.5,
  window: 0.25,
  matchup: 0.1,
});

export const JOINT_TERMS: ModelTerms = Object.freeze({ skill: true, matchup: true });
export const FACTION_TERMS: ModelTerms = Object.freeze({ skill: false, matchup: true });

/** Where each coefficient sits among the columns. */
export class JointLayout {
  readonly skillColumn: number;
  readonly factionStart: number;
  readonly pairStart: number;
  readonly windowStart: number;
  readonly columns: number;

  readonly terms: ModelTerms;
  readonly factions: number;
  readonly windows: number;
  constructor(terms: ModelTerms, factions: number, windows: number) {
    this.terms = terms;
    this.factions = factions;
    this.windows = windows;
    this.skillColumn = terms.skill ? 0 : -1;
    this.factionStart = terms.skill ? 1 : 0;
    this.pairStart = this.factionStart + factions;
    const pairs = terms.matchup ? (factions * (factions - 1)) / 2 : 0;
    this.windowStart = this.pairStart + pairs;
    this.columns = this.windowStart + factions * windows;
  }

  /** The column of m_a,b for a < b (row-major upper triangle). */
  pairColumn(a: number, b: number): number {
    const f = this.factions;
    return this.pairStart + a * f - (a * (a + 1)) / 2 + (b - a - 1);
  }

  /** A mask of the matchup columns: a game has one pair, so no two share a row. */
  pairMask(): Uint8Array {
    const mask = new Uint8Array(this.columns);
    mask.fill(1, this.pairStart, this.windowStart);
    return mask;
  }

  windowColumn(faction: number, window: number): number {
    return window < this.windows ? this.windowStart + window * this.factions + faction : -1;
  }
}

/** The logit of a probability, kept finite. */
export function logit(p: number): number {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(q / (1 - q));
}

/** Writes entry `e` of a row when the column exists; returns the next free entry. */
function put(col: Int32Array, val: Float64Array, e: number, c: number, v: number): number {
  if (c < 0) return e;
  col[e] = c;
  val[e] = v;
  return e + 1;
}

/** The (column, value) entries of a game's row, at most ROW_WIDTH, from index `at`. */
export function rowEntries(
  layout: JointLayout,
  a: number,
  b: number,
  window: number,
  skillX: number,
  col: Int32Array,
  val: Float64Array,
  at: number,
): void {
  col.fill(-1, at, at + ROW_WIDTH);
  let e = put(col, val, at, layout.skillColumn, skillX);
  if (a >= 0 && b >= 0 && a === b) return; // a mirror: faction terms cancel
  if (a >= 0) {
    e = put(col, val, e, layout.factionStart + a, 1);
    e = put(col, val, e, layout.windowColumn(a, window), 1);
  }
  if (b >= 0) {
    e = put(col, val, e, layout.factionStart + b, -1);
    e = put(col, val, e, layout.windowColumn(b, window), -1);
  }
  if (layout.terms.matchup && a >= 0 && b >= 0) {
    put(col, val, e, a < b ? layout.pairColumn(a, b) : layout.pairColumn(b, a), a < b ? 1 : -1);
  }
}

export const ROW_WIDTH = 6;

/** The games' rows a fit reads: the first n (a backtest's past), or a list (a scope). */
export type RowSelection = number | Int32Array;

function selectedCount(rows: RowSelection): number {
  return typeof rows === 'number' ? rows : rows.length;
}

function selectedRow(rows: RowSelection, i: number): number {
  return typeof rows === 'number' ? i : rows[i];
}

/** The design of the selected rows of the games under `layout`. */
export function jointDesign(
  games: StrengthGames,
  layout: JointLayout,
  rows: RowSelection,
): SparseDesign {
  const n = selectedCount(rows);
  const col = new Int32Array(n * ROW_WIDTH);
  const val = new Float64Array(n * ROW_WIDTH);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    throwIfCancelledEvery(i);
    const r = selectedRow(rows, i);
    const x = layout.terms.skill ? logit(games.expected[r]) : 0;
    const { factionA, factionB, window } = games;
    rowEntries(layout, factionA[r], factionB[r], window[r], x, col, val, i * ROW_WIDTH);
    y[i] = games.outcome[r];
  }
  return {
    rows: n,
    width: ROW_WIDTH,
    columns: layout.columns,
    col,
    val,
    offset: new Float64Array(n),
    y,
  };
}

/** The Gaussian prior of every column. */
export function jointPrior(layout: JointLayout, scales: PriorScales): GaussianPrior {
  const mean = new Float64Array(layout.columns);
  const precision = new Float64Array(layout.columns);
  const set = (from: number, to: number, sd: number): void => {
    precision.fill(1 / (sd * sd), from, to);
  };
  if (layout.skillColumn >= 0) {
    mean[layout.skillColumn] = 1;
    set(0, 1, scales.skill);
  }
  set(layout.factionStart, layout.pairStart, scales.faction);
  set(layout.pairStart, layout.windowStart, scales.matchup);
  set(layout.windowStart, layout.columns, scales.window);
  return { mean, precision };
}

/** A fitted model: its layout and its coefficients with their covariance factor. */
export interface JointFit {
  readonly layout: JointLayout;
  readonly fit: LogisticFit;
  /** The window the latest fitted game belongs to (what "now" means for a forecast). */
  readonly currentWindow: number;
}

export interface JointFitOptions {
  terms?: ModelTerms;
  scales?: PriorScales;
  /** The rows to fit on (default all). */
  rows?: RowSelection;
  /** A previous fit to start from (its coefficients, same terms; columns may grow). */
  start?: JointFit;
  tolerance?: number;
  maxIterations?: number;
}

/** Fits the joint model (or a reduced one) to the games' first rows (docs/ratings.md). */
export function fitJoint(games: StrengthGames, options: JointFitOptions = {}): JointFit {
  const rows = options.rows ?? games.count;
  const n = selectedCount(rows);
  let windows = 0;
  let latest = -1;
  for (let i = 0; i < n; i += 1) {
    throwIfCancelledEvery(i);
    const r = selectedRow(rows, i);
    windows = Math.max(windows, games.window[r] + 1);
    latest = Math.max(latest, r);
  }
  const factions = games.factions;
  const layout = new JointLayout(options.terms ?? JOINT_TERMS, factions, windows);
  const prior = jointPrior(layout, options.scales ?? DEFAULT_PRIOR_SCALES);
  let start: Float64Array | undefined;
  if (options.start !== undefined) {
    start = Float64Array.from(prior.mean);
    start.set(
      options.start.fit.theta.subarray(0, Math.min(layout.columns, options.start.layout.columns)),
    );
  }
  const fit = fitPenalisedLogistic(jointDesign(games, layout, rows), prior, {
    start,
    tolerance: options.tolerance,
    maxIterations: options.maxIterations,
  });
  return { layout, fit, currentWindow: latest >= 0 ? games.window[latest] : 0 };
}

/**
 * The whole system's design and prior under one layout (every window of the system), so that a
 * backtest fits growing prefixes of one design instead of building one per origin.
 */
export interface JointProblem {
  readonly games: StrengthGames;
  readonly layout: JointLayout;
  readonly design: SparseDesign;
  readonly prior: GaussianPrior;
}

export function jointProblem(
  games: StrengthGames,
  terms: ModelTerms = JOINT_TERMS,
  scales: PriorScales = DEFAULT_PRIOR_SCALES,
): JointProblem {
  const layout = new JointLayout(terms, games.factions, games.windows.length);
  return {
    games,
    layout,
    design: jointDesign(games, layout, games.count),
    prior: jointPrior(layout, scales),
  };
}

/** Fits the problem to its first `rows` games, starting from `start` when given. */
export function fitPrefix(
  problem: JointProblem,
  rows: number,
  start: JointFit | undefined,
  options: { maxIterations?: number; tolerance?: number } = {},
): JointFit {
  const fit = fitPenalisedLogistic(problem.design, problem.prior, {
    rows,
    start: start?.fit.theta,
    maxIterations: options.maxIterations,
    tolerance: options.tolerance,
  });
  return {
    layout: problem.layout,
    fit,
    currentWindow: rows > 0 ? problem.games.window[rows - 1] : 0,
  };
}

export { linearPredictor };
