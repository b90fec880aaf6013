/**
 * The cluster cubes of the four rate-bearing routes (docs/statistics.md#event-clustered-interval),
 * keyed as each route keys its rows, built on first use and kept per snapshot.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { buildClusterCube, clusterScanner } from './cluster-cube.ts';
import type { EventCube } from './event-cube.ts';
import { snapshotCache } from '../snapshot-cache.ts';
import type { ClusterCube, ClusterFeed } from './cluster-cube.ts';
import { eventOrder } from './event-order.ts';
import { DRAWS, GAMES, ITEM_STRIDE, WINS, itemCube } from './item-cube.ts';
import { partOffsets } from './scenario-cube.ts';
import { scenarioStatsCube } from './scenario-stats-cube.ts';

/** How a route's rows feed the cluster sums: the key space and each event's sides. */
interface ClusterSource {
  readonly keys: number;
  readonly feed: ClusterFeed;
  readonly spans?: readonly number[];
}

/** A cluster cube built once per snapshot from the source `make` describes. */
function clusterCache(
  name: string,
  make: (snapshot: Snapshot) => ClusterSource,
): (snapshot: Snapshot) => ClusterCube {
  return snapshotCache({
    name,
    build: (snapshot): EventCube => {
      const { keys, feed, spans } = make(snapshot);
      return buildClusterCube(eventOrder(snapshot), keys, feed, spans);
    },
    attach: (snapshot, cube): ClusterCube => {
      const { keys, feed } = make(snapshot);
      return { order: eventOrder(snapshot), cube, scan: clusterScanner(keys, feed) };
    },
  });
}

/** Key faction * 2 + 0: non-mirror sides (excludeMirrors); + 1: every side. */
export const factionClusters = clusterCache('faction-clusters', (snapshot) => {
  const { rowStart } = eventOrder(snapshot);
  const { faction, opponent, result } = snapshot;
  return {
    keys: snapshot.factions.length * 2,
    feed: (k, add) => {
      for (let r = rowStart[k], end = rowStart[k + 1]; r < end; r++) {
        const f = faction[r];
        if (opponent[r] !== f) add(2 * f, result[r] / 2, 1);
        add(2 * f + 1, result[r] / 2, 1);
      }
    },
  };
});

/** Key faction * factions + opponent; mirror cells are left out (their rate is 0.5 by rule). */
export const matchupClusters = clusterCache('matchup-clusters', (snapshot) => {
  const { rowStart } = eventOrder(snapshot);
  const { faction, opponent, result } = snapshot;
  const nF = snapshot.factions.length;
  return {
    keys: nF * nF,
    feed: (k, add) => {
      for (let r = rowStart[k], end = rowStart[k + 1]; r < end; r++) {
        if (faction[r] !== opponent[r]) add(faction[r] * nF + opponent[r], result[r] / 2, 1);
      }
    },
  };
});

/** Key: the item cube's (faction, item) pair id; counted (non-mirror) sides with a list. */
export const itemClusters = clusterCache('item-clusters', (snapshot) => {
  const { pairItem, pairIndex, cells } = itemCube(snapshot);
  const { start, list, faction, values } = cells;
  const { listStart, listItems } = snapshot;
  const nItems = snapshot.items.length;
  return {
    // Many pairs, and a cluster cell per (pair, event): coarse blocks only.
    spans: [256, 4096],
    keys: pairItem.length,
    // A cell's counted sides add their successes and games to each item of its list, as each
    // side would one by one (sums of halves and integers: the same numbers).
    feed: (k, add) => {
      for (let c = start[k]; c < start[k + 1]; c++) {
        const games = values[c * ITEM_STRIDE + GAMES];
        if (games === 0) continue;
        const y = values[c * ITEM_STRIDE + WINS] + values[c * ITEM_STRIDE + DRAWS] / 2;
        const fb = faction[c] * nItems;
        for (let i = listStart[list[c]]; i < listStart[list[c] + 1]; i++) {
          add(pairIndex[fb + listItems[i]], y, games);
        }
      }
    },
  };
});

/** Key: scenario part key * factions + faction; non-mirror sides, as scenario-stats counts. */
export const scenarioClusters = clusterCache('scenario-clusters', (snapshot) => {
  const { rowStart } = eventOrder(snapshot);
  const { gameClass, classStart, classKeys } = scenarioStatsCube(snapshot);
  const { faction, opponent, result } = snapshot;
  const nF = snapshot.factions.length;
  const [, partKeys] = partOffsets(snapshot);
  return {
    spans: [256, 4096],
    keys: partKeys * nF,
    feed: (k, add) => {
      for (let r = rowStart[k], end = rowStart[k + 1]; r < end; r++) {
        const f = faction[r];
        if (opponent[r] === f) continue;
        const cls = gameClass[r >> 1];
        for (let i = classStart[cls]; i < classStart[cls + 1]; i++) {
          add(classKeys[i] * nF + f, result[r] / 2, 1);
        }
      }
    },
  };
});
