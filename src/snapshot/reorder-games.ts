/**
 * Moves the games and sides, collected in arrival order, into snapshot order (src/snapshot/
 * game-order.ts): the game and side columns of the snapshot, written once.
 */
import type { GameColumns, SideColumns } from './snapshot.ts';

/** The columns as they arrived: per game, and per side (2 per game, a game's sides adjacent). */
export interface ArrivalColumns {
  gEvent: Int32Array;
  gRound: Int32Array;
  /** Scenario, map, deployment, primary ids. */
  gParts: readonly Int32Array[];
  /** A game's secondaries are gSecondaryIds[gSecondaryStart[g] .. gSecondaryStart[g + 1]). */
  gSecondaryStart: Int32Array;
  gSecondaryIds: Int32Array;
  nSecondaryIds: number;
  /** A game's store id is the UTF-8 bytes gIdBytes[gIdStart[g] .. gIdStart[g + 1]). */
  gIdStart: Int32Array;
  gIdBytes: Uint8Array;
  nIdBytes: number;
  sFaction: Int32Array;
  sSubfaction: Int32Array;
  sPlayer: Int32Array;
  sScore: Float64Array;
  sResult: Int8Array;
  sFirst: Int8Array;
  sPrimary: Int8Array;
  sSecondary: Int32Array;
  sSecondaryAchieved: Int8Array;
  sList: Int32Array;
}

/** The game columns in snapshot order; `order[g]` is the arrival index of the g-th game. */
export function reorderGameColumns(order: Int32Array, arrival: ArrivalColumns): GameColumns {
  const nGames = order.length;
  const { gEvent, gRound, gParts, gSecondaryStart, gSecondaryIds } = arrival;
  const gameEvent = new Int32Array(nGames);
  const gameRound = new Int32Array(nGames);
  const gameParts = [0, 1, 2, 3].map(() => new Int32Array(nGames));
  const gameSecondaryStart = new Int32Array(nGames + 1);
  const secondaryIds = new Int32Array(arrival.nSecondaryIds);
  const gameIdStart = new Int32Array(nGames + 1);
  const gameIdBytes = new Uint8Array(arrival.nIdBytes);
  let nSecondaries = 0;
  let nIdBytes = 0;
  for (let g = 0; g < nGames; g++) {
    const src = order[g];
    gameIdStart[g] = nIdBytes;
    const id = arrival.gIdBytes.subarray(arrival.gIdStart[src], arrival.gIdStart[src + 1]);
    gameIdBytes.set(id, nIdBytes);
    nIdBytes += id.length;
    gameEvent[g] = gEvent[src];
    gameRound[g] = gRound[src];
    for (let p = 0; p < 4; p++) gameParts[p][g] = gParts[p][src];
    gameSecondaryStart[g] = nSecondaries;
    for (let i = gSecondaryStart[src]; i < gSecondaryStart[src + 1]; i++) {
      secondaryIds[nSecondaries++] = gSecondaryIds[i];
    }
  }
  gameSecondaryStart[nGames] = nSecondaries;
  gameIdStart[nGames] = nIdBytes;
  return {
    games: nGames,
    gameEvent,
    gameRound,
    gameScenario: gameParts[0],
    gameMap: gameParts[1],
    gameDeployment: gameParts[2],
    gamePrimary: gameParts[3],
    gameSecondaryStart,
    gameSecondaryIds: secondaryIds,
    gameIdStart,
    gameIdBytes,
  };
}

/** The side columns in snapshot order: rows 2g and 2g+1 are the sides of the g-th game. */
export function reorderSideColumns(order: Int32Array, arrival: ArrivalColumns): SideColumns {
  const nSides = order.length * 2;
  const a = arrival;
  const rowEvent = new Int32Array(nSides);
  const faction = new Int32Array(nSides);
  const opponent = new Int32Array(nSides);
  const subfaction = new Int32Array(nSides);
  const player = new Int32Array(nSides);
  const score = new Float64Array(nSides);
  const result = new Uint8Array(nSides);
  const firstTurn = new Int8Array(nSides);
  const primaryAchieved = new Int8Array(nSides);
  const secondary = new Int32Array(nSides);
  const secondaryAchieved = new Int8Array(nSides);
  const list = new Int32Array(nSides);
  for (let g = 0; g < order.length; g++) {
    const src = order[g];
    const event = a.gEvent[src];
    for (let s = 0; s < 2; s++) {
      const r = 2 * g + s;
      const o = 2 * src + s;
      rowEvent[r] = event;
      faction[r] = a.sFaction[o];
      opponent[r] = a.sFaction[o ^ 1];
      subfaction[r] = a.sSubfaction[o];
      player[r] = a.sPlayer[o];
      score[r] = a.sScore[o];
      result[r] = a.sResult[o];
      firstTurn[r] = a.sFirst[o];
      primaryAchieved[r] = a.sPrimary[o];
      secondary[r] = a.sSecondary[o];
      secondaryAchieved[r] = a.sSecondaryAchieved[o];
      list[r] = a.sList[o];
    }
  }
  return {
    sides: nSides,
    rowEvent,
    faction,
    opponent,
    subfaction,
    player,
    score,
    result,
    firstTurn,
    primaryAchieved,
    secondary,
    secondaryAchieved,
    list,
  };
}
