/**
 * Elo (Elo, "The Rating of Chessplayers", 1978): one update per game in processing order,
 * expected score 1 / (1 + 10^((Rb − Ra) / 400)), a draw scoring one half.
 */
import { throwIfCancelled } from '../cancellation.ts';
import { columnsOfRatedGames } from './rated-columns.ts';
import type { RatedGame } from './rated-columns.ts';
import type { RatedColumns } from './rated-columns.ts';

export interface EloOptions {
  k: number;
  initial: number;
}

/** Elo's expected score of a player rated `ra` against one rated `rb`. */
export function eloExpected(ra: number, rb: number): number {
  return 1 / (1 + Math.pow(10, (rb - ra) / 400));
}

/** Per game (input order): both players' ratings before and after it. */
export interface EloRecord {
  preA: Float64Array;
  preB: Float64Array;
  postA: Float64Array;
  postB: Float64Array;
}

/**
 * Runs Elo over games in order; `period` is ignored (every game is its own update). With
 * `record`, each game's ratings before and after are written into it.
 */
export function runElo(
  players: number,
  games: readonly Pick<RatedGame, 'a' | 'b' | 'scoreA' | 'scoreB'>[],
  options: EloOptions,
  record?: EloRecord,
): Float64Array {
  return runEloColumns(players, columnsOfRatedGames(games), options, record);
}

/** runElo over games as columns (rated-columns.ts); the same numbers, no object per game. */
export function runEloColumns(
  players: number,
  games: Pick<RatedColumns, 'length' | 'a' | 'b' | 'scoreA' | 'scoreB'>,
  options: EloOptions,
  record?: EloRecord,
): Float64Array {
  const rating = new Float64Array(players).fill(options.initial);
  const { a, b, scoreA, scoreB } = games;
  for (let i = 0; i < games.length; i += 1) {
    // A cancelled run stops here rather than after every game (cancellation.ts).
    if ((i & 0x3fff) === 0) throwIfCancelled();
    const pa = a[i];
    const pb = b[i];
    const ea = eloExpected(rating[pa], rating[pb]);
    const eb = 1 - ea;
    if (record !== undefined) {
      record.preA[i] = rating[pa];
      record.preB[i] = rating[pb];
    }
    rating[pa] += options.k * (scoreA[i] - ea);
    rating[pb] += options.k * (scoreB[i] - eb);
    if (record !== undefined) {
      record.postA[i] = rating[pa];
      record.postB[i] = rating[pb];
    }
  }
  return rating;
}

/** An empty record for `n` games. */
export function newEloRecord(n: number): EloRecord {
  return {
    preA: new Float64Array(n),
    preB: new Float64Array(n),
    postA: new Float64Array(n),
    postB: new Float64Array(n),
  };
}
