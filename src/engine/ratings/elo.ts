/**
 * Elo (Elo, "The Rating of Chessplayers", 1978): one update per game in processing order,
 * expected score 1 / (1 + 10^((Rb − Ra) / 400)), a draw scoring one half.
 */
import type { RatedGame } from './glicko2.ts';

export interface EloOptions {
  k: number;
  initial: number;
}

/** Elo's expected score of a player rated `ra` against one rated `rb`. */
export function eloExpected(ra: number, rb: number): number {
  return 1 / (1 + Math.pow(10, (rb - ra) / 400));
}

/** Runs Elo over games in order; `period` is ignored (every game is its own update). */
export function runElo(
  players: number,
  games: readonly Pick<RatedGame, 'a' | 'b' | 'scoreA' | 'scoreB'>[],
  options: EloOptions,
): Float64Array {
  const rating = new Float64Array(players).fill(options.initial);
  for (const { a, b, scoreA, scoreB } of games) {
    const ea = eloExpected(rating[a], rating[b]);
    const eb = 1 - ea;
    rating[a] += options.k * (scoreA - ea);
    rating[b] += options.k * (scoreB - eb);
  }
  return rating;
}
