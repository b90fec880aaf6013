/** Pieces every statistics function shares: result envelope parts, faction refs, rates, bands. */
import type { PredictionQuality } from './ratings/prediction-quality.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { RESULT_WIN } from '../snapshot/snapshot.ts';
import type { CommonFilter } from './filter.ts';
import { clusteredInterval, meanInterval, wilson } from './intervals.ts';
import type { Interval } from './intervals.ts';
import type { ShrinkageMeta } from './shrinkage.ts';
import type { DrawRule } from '../domain/methodology.ts';
import { DomainError } from '../domain/domain-error.ts';

/** Rows under this many games carry lowSample: true (docs/statistics.md#mingames-and-lowsample). */
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
  /** Route-specific parts of meta, present only when the request asks for them. */
  meta?: ExtraMeta;
}

/** meta fields some answers add (docs/statistics.md#compareto, #shrunk-win-rate). */
export interface ExtraMeta {
  /** The sample of the compareTo filter, when one is given. */
  compareSample?: Sample;
  /** The fitted prior of shrunkWinRate. */
  shrinkage?: ShrinkageMeta;
  /** How well the rating method predicted the games in scope (docs/ratings.md). */
  predictionQuality?: PredictionQuality | null;
}

/** An event as answers name it. */
export interface EventRef {
  id: string;
  name: string;
}

/** The event at index `event` of the snapshot. */
export function eventRef(snapshot: Snapshot, event: number): EventRef {
  return { id: snapshot.events.ids[event], name: snapshot.events.names[event] };
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

/**
 * A win rate's successes and trials under the draw rule (docs/statistics.md#methodology-switches):
 * a draw is half a success of one game, or no game at all.
 */
export function rateCounts(
  wins: number,
  draws: number,
  games: number,
  rule: DrawRule = 'half',
): { successes: number; trials: number } {
  return rule === 'half'
    ? { successes: wins + draws / 2, trials: games }
    : { successes: wins, trials: games - draws };
}

/** (wins + draws / 2) / games (or wins / (games − draws)), or null without games counted. */
export function winRate(
  wins: number,
  draws: number,
  games: number,
  rule: DrawRule = 'half',
): number | null {
  const { successes, trials } = rateCounts(wins, draws, games, rule);
  return trials > 0 ? successes / trials : null;
}

/** The Wilson interval of the win rate on the games the draw rule counts. */
export function winRateInterval(
  wins: number,
  draws: number,
  games: number,
  rule: DrawRule = 'half',
): Interval | null {
  const { successes, trials } = rateCounts(wins, draws, games, rule);
  return wilson(successes, trials);
}

/**
 * Refuses draws "exclude" with event-clustered intervals: the cluster planes hold each event's
 * wins + draws/2 only (docs/statistics.md#methodology-switches).
 */
export function assertIntervalFitsDraws(rule: DrawRule, interval: IntervalKind | undefined): void {
  if (rule === 'exclude' && interval === 'event-clustered') {
    const detail = 'draws "exclude" has Wilson intervals only; ask interval "wilson"';
    throw new DomainError('invalid-query', detail, [{ pointer: '/draws', detail }]);
  }
}

/** How rate intervals are computed (docs/statistics.md#event-clustered-interval). */
export type IntervalKind = 'wilson' | 'event-clustered';

/**
 * The event-clustered interval of the rate of `key` in a cluster plane (cube/cluster-cube.ts:
 * slots Σy², Σyn, Σn², events) for `successes` of `games` (docs/statistics.md).
 */
export function clusteredRateInterval(
  clusters: Float64Array,
  key: number,
  successes: number,
  games: number,
): Interval | null {
  const b = key * 4;
  return clusteredInterval(
    successes,
    games,
    clusters[b],
    clusters[b + 1],
    clusters[b + 2],
    clusters[b + 3],
  );
}

export function mean(n: number, sum: number): number | null {
  return n > 0 ? sum / n : null;
}

export { meanInterval };

/** Counters of decided games by the winner's score band: [decisive, normal, close, decidedKnown]. */
export function newBandCounter(): Float64Array {
  return new Float64Array(4);
}

/** Band bounds of a system as a flat array [dMin, dMax, nMin, nMax, cMin, cMax], or null. */
export function bandBounds(snapshot: Snapshot, system: number): Float64Array | null {
  const b = snapshot.systems[system].marginBands;
  if (b === null) return null;
  return Float64Array.of(
    b.decisive.min,
    b.decisive.max,
    b.normal.min,
    b.normal.max,
    b.close.min,
    b.close.max,
  );
}

/**
 * The band of game g: 0 decisive, 1 normal, 2 close, 3 decided but in no band (or the system
 * has none), -1 not decided or the winner's score unknown.
 */
export function bandOf(
  result: Uint8Array,
  score: Float64Array,
  bounds: Float64Array | null,
  g: number,
): number {
  const r = 2 * g;
  const winner = result[r] === RESULT_WIN ? r : result[r + 1] === RESULT_WIN ? r + 1 : -1;
  if (winner < 0) return -1;
  const s = score[winner];
  if (s !== s) return -1;
  if (bounds === null) return 3;
  if (s >= bounds[0] && s <= bounds[1]) return 0;
  if (s >= bounds[2] && s <= bounds[3]) return 1;
  if (s >= bounds[4] && s <= bounds[5]) return 2;
  return 3;
}

/** Adds a band (from bandOf) to a counter [decisive, normal, close, decidedKnown] at offset. */
export function addBand(counter: Float64Array, offset: number, band: number): void {
  if (band < 0) return;
  counter[offset + 3]++;
  if (band < 3) counter[offset + band]++;
}

/** The margin bands of a counter, or null when the system defines none. */
export function bandsOf(
  snapshot: Snapshot,
  system: number,
  c: Float64Array,
  offset = 0,
): MarginBandCounts | null {
  if (snapshot.systems[system].marginBands === null) return null;
  const band = (i: number): MarginBandCount => ({
    games: c[offset + i],
    share: c[offset + 3] > 0 ? c[offset + i] / c[offset + 3] : null,
  });
  return { decisive: band(0), normal: band(1), close: band(2) };
}

export const EMPTY_WARNING = 'no games match the filter';
