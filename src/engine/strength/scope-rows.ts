/**
 * The joint model's rows a common filter selects (docs/ratings.md#the-joint-model): the
 * modelled games of the scope's system whose event the filter keeps, in rating order.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { Scope } from '../scope.ts';
import { strengthData } from './strength-games.ts';
import type { StrengthGames } from './strength-games.ts';

/** The scope's system's modelled games and the rows of them the scope keeps. */
export function scopeRows(
  snapshot: Snapshot,
  scope: Scope,
): { games: StrengthGames; rows: Int32Array } {
  const games = strengthData(snapshot).systems[scope.system];
  const kept = new Int32Array(games.count);
  let n = 0;
  for (let r = 0; r < games.count; r += 1) {
    if (scope.eventMask[games.event[r]] === 1) kept[n++] = r;
  }
  return { games, rows: kept.slice(0, n) };
}
