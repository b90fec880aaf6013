/** Pieces every statistics function shares: result envelope parts, faction refs, rates, bands. */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { RESULT_WIN } from '../snapshot/snapshot.ts';
import type { CommonFilter } from './filter.ts';
import { meanInterval, wilson } from './intervals.ts';
import type { Interval } from './intervals.ts';

/** Rows under this many games carry lowSample: true (DESIGN.md §5). */
export const LOW_SAMPLE_GAMES = 30;

export interface FactionRef {
  id: string;
  name: string;
}

export interface Sample {
  events: number;
  games: number;
}

/** What every engine function returns besides its data: the sample and any warnings. */
export interface EngineResult<TData, TFilter = CommonFilter> {
  data: TData;
  filter: TFilter;
  sample: Sample;
  warnings: string[];
}

export interface MarginBandCount {
  games: number;
  /** Games in this band over decided games whose winner's score is known. */
  share: number | null;
}

export interface MarginBandCounts {
  decisive: MarginBandCount;
  normal: MarginBandCount;
  close: MarginBandCount;
}

export function factionRef(snapshot: Snapshot, faction: number): FactionRef {
  const f = snapshot.factions[faction];
  return { id: f.id, name: f.name };
}

/** (wins + draws / 2) / games, or null without games. */
export function winRate(wins: number, draws: number, games: number): number | null {
  return games > 0 ? (wins + draws / 2) / games : null;
}

export function winRateInterval(wins: number, draws: number, games: number): Interval | null {
  return wilson(wins + draws / 2, games);
}

export function mean(n: number, sum: number): number | null {
  return n > 0 ? sum / n : null;
}

export { meanInterval };

/** Counters of decided games by the winner's score band: [decisive, normal, close, decidedKnown]. */
export function newBandCounter(): Float64Array {
  return new Float64Array(4);
}

/** Adds game g (rows 2g, 2g+1) to a band counter when it has a winner with a known score. */
export function countBand(
  snapshot: Snapshot,
  system: number,
  g: number,
  counter: Float64Array,
): void {
  const bands = snapshot.systems[system].marginBands;
  const r = 2 * g;
  const winner =
    snapshot.result[r] === RESULT_WIN ? r : snapshot.result[r + 1] === RESULT_WIN ? r + 1 : -1;
  if (winner < 0) return;
  const score = snapshot.score[winner];
  if (Number.isNaN(score)) return;
  counter[3]++;
  if (bands === null) return;
  if (score >= bands.decisive.min && score <= bands.decisive.max) counter[0]++;
  else if (score >= bands.normal.min && score <= bands.normal.max) counter[1]++;
  else if (score >= bands.close.min && score <= bands.close.max) counter[2]++;
}

/** The margin bands of a counter, or null when the system defines none. */
export function bandsOf(
  snapshot: Snapshot,
  system: number,
  c: Float64Array,
): MarginBandCounts | null {
  if (snapshot.systems[system].marginBands === null) return null;
  const band = (i: number): MarginBandCount => ({
    games: c[i],
    share: c[3] > 0 ? c[i] / c[3] : null,
  });
  return { decisive: band(0), normal: band(1), close: band(2) };
}

export const EMPTY_WARNING = 'no games match the filter';
