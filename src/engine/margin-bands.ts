/**
 * Decided games counted by the winner's score band, decisive, normal or close, where the system
 * defines bands (docs/statistics.md#margin-bands).
 */
import type { Snapshot } from '../snapshot/snapshot.ts';
import { RESULT_WIN } from '../snapshot/snapshot.ts';

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
