/**
 * Per-event sums of squares behind the event-clustered interval
 * (docs/statistics.md#event-clustered-interval). For every key (a faction, a matchup cell, an
 * item pair, a scenario part and faction) and every event, y = successes (wins + draws/2) and
 * n = games are first summed over the event's sides, then y², y·n, n² and a count of events with
 * a game are added up. Those are additive across events, so they live in an event cube like
 * every other pre-aggregate and a request sums its scope's blocks.
 */
import type { Scope } from '../filter.ts';
import { buildCube, sumScope } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import type { EventOrder } from './event-order.ts';

export const CL_YY = 0;
export const CL_YN = 1;
export const CL_NN = 2;
export const CL_EVENTS = 3;
export const CLUSTER_STRIDE = 4;
/** Blocks of 32 and 1024 events, unless a cube asks for others. */
export const CLUSTER_SPANS: readonly number[] = [32, 1024];

/** Adds the sides of the event at `position`: add(key, successes, games) per counted side. */
export type ClusterFeed = (
  position: number,
  add: (key: number, successes: number, games: number) => void,
) => void;

export interface ClusterCube {
  readonly order: EventOrder;
  readonly cube: EventCube;
  readonly scan: EventScanner;
}

/**
 * The scanner of a cluster cube over `keys` keys: per event, each key's successes and games
 * summed from `feed`, then their squares and products added (docs/statistics.md).
 */
export function clusterScanner(keys: number, feed: ClusterFeed): EventScanner {
  const y = new Float64Array(keys);
  const n = new Float64Array(keys);
  const touched = new Int32Array(keys);
  let count = 0;
  const add = (key: number, successes: number, games: number) => {
    if (n[key] === 0 && y[key] === 0) touched[count++] = key;
    y[key] += successes;
    n[key] += games;
  };
  return (from, to, [acc]) => {
    for (let k = from; k < to; k++) {
      count = 0;
      feed(k, add);
      for (let i = 0; i < count; i++) {
        const key = touched[i];
        const b = key * CLUSTER_STRIDE;
        acc[b + CL_YY] += y[key] * y[key];
        acc[b + CL_YN] += y[key] * n[key];
        acc[b + CL_NN] += n[key] * n[key];
        if (n[key] > 0) acc[b + CL_EVENTS]++;
        y[key] = 0;
        n[key] = 0;
      }
    }
  };
}

/**
 * Builds a cluster cube over `keys` keys from a per-event feed (docs/statistics.md); `spans` as
 * buildCube's: a large key space wants coarse blocks, since each block's flush visits every key.
 */
export function buildClusterCube(
  order: EventOrder,
  keys: number,
  feed: ClusterFeed,
  spans: readonly number[] = CLUSTER_SPANS,
): EventCube {
  const planes = [{ keys, stride: CLUSTER_STRIDE }];
  return buildCube(order, planes, spans, clusterScanner(keys, feed));
}

/** The cluster sums of a scope, one plane (key * CLUSTER_STRIDE + slot). */
export function sumClusters(built: ClusterCube, scope: Scope): Float64Array {
  return sumScope(built.cube, built.order, scope, built.scan)[0];
}
