/**
 * The cluster cubes of the four rate-bearing routes (docs/statistics.md#event-clustered-interval),
 * keyed as each route keys its rows, built on first use and kept per snapshot.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { buildClusterCube } from './cluster-cube.ts';
import type { ClusterCube, ClusterFeed } from './cluster-cube.ts';
import { eventOrder } from './event-order.ts';
import { itemCube } from './item-cube.ts';
import { partOffsets } from './scenario-cube.ts';
import { scenarioStatsCube } from './scenario-stats-cube.ts';

type Kind = 'faction' | 'matchup' | 'item' | 'scenario';
const caches: Record<Kind, WeakMap<Snapshot, ClusterCube>> = {
  faction: new WeakMap(),
  matchup: new WeakMap(),
  item: new WeakMap(),
  scenario: new WeakMap(),
};

function cached(
  kind: Kind,
  snapshot: Snapshot,
  make: () => { keys: number; feed: ClusterFeed; spans?: readonly number[] },
): ClusterCube {
  const hit = caches[kind].get(snapshot);
  if (hit !== undefined) return hit;
  const { keys, feed, spans } = make();
  const built = buildClusterCube(snapshot, keys, feed, spans);
  caches[kind].set(snapshot, built);
  return built;
}

/** Key faction * 2 + 0: non-mirror sides (excludeMirrors); + 1: every side. */
export function factionClusters(snapshot: Snapshot): ClusterCube {
  return cached('faction', snapshot, () => {
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
}

/** Key faction * factions + opponent; mirror cells are left out (their rate is 0.5 by rule). */
export function matchupClusters(snapshot: Snapshot): ClusterCube {
  return cached('matchup', snapshot, () => {
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
}

/** Key: the item cube's (faction, item) pair id; counted (non-mirror) sides with a list. */
export function itemClusters(snapshot: Snapshot): ClusterCube {
  return cached('item', snapshot, () => {
    const { rowStart } = eventOrder(snapshot);
    const { pairItem, pairFaction } = itemCube(snapshot);
    const { faction, opponent, result, list, listStart, listItems } = snapshot;
    const nItems = snapshot.items.length;
    const pairIndex = new Int32Array(snapshot.factions.length * nItems).fill(-1);
    for (let p = 0; p < pairItem.length; p++) pairIndex[pairFaction[p] * nItems + pairItem[p]] = p;
    return {
      // Many pairs: coarse blocks, as the item cube keeps.
      spans: [256, 4096],
      keys: pairItem.length,
      feed: (k, add) => {
        for (let r = rowStart[k], end = rowStart[k + 1]; r < end; r++) {
          const l = list[r];
          const f = faction[r];
          if (l < 0 || opponent[r] === f) continue;
          for (let i = listStart[l]; i < listStart[l + 1]; i++) {
            add(pairIndex[f * nItems + listItems[i]], result[r] / 2, 1);
          }
        }
      },
    };
  });
}

/** Key: scenario part key * factions + faction; non-mirror sides, as scenario-stats counts. */
export function scenarioClusters(snapshot: Snapshot): ClusterCube {
  return cached('scenario', snapshot, () => {
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
}
