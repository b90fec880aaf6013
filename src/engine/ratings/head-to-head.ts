/**
 * Head to head, as a forecast (docs/ratings.md "Head to head"): the expected score of one
 * player against another from their current ratings, and their past games against each other.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import { dayString } from '../../domain/calendar-day.ts';
import type { EventRef, FactionRef } from '../entity-refs.ts';
import { eventRef, factionRef } from '../entity-refs.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RATING_METHOD_IMPLEMENTATIONS } from './methods/index.ts';
import type { WinDrawLoss } from './player-history.ts';
import type { PlayerStanding, RankingMethod } from './rankings.ts';

const RESULTS = ['loss', 'draw', 'win'] as const;

/** One past game between the two, from the first player's side. */
export interface PastGame {
  date: string;
  event: EventRef;
  /** -1 when unknown. */
  round: number | null;
  result: (typeof RESULTS)[number];
  score: number | null;
  opponentScore: number | null;
  faction: FactionRef | null;
  opponentFaction: FactionRef | null;
}

export interface HeadToHead {
  /**
   * The first player's expected score against the second (win 1, draw ½): Glicko-2's E with the
   * opponent's g(RD) (Glickman 2012, step 3), or Elo's; null for points or an unrated player.
   */
  expectedScore: number | null;
  /** Their past rated games in scope, oldest first, and the first player's record in them. */
  games: PastGame[];
  record: WinDrawLoss;
}

/** The expected score of `a` against `b` by `method`, null when it forecasts nothing. */
export function expectedScore(
  method: RankingMethod,
  a: PlayerStanding | undefined,
  b: PlayerStanding | undefined,
): number | null {
  const expected = RATING_METHOD_IMPLEMENTATIONS[method].expected;
  if (a === undefined || b === undefined || expected === undefined) return null;
  return expected.pairing(a, b);
}

/** The rated games `order` (processing order) between players `a` and `b`, from a's side. */
export function pastGames(
  snapshot: Snapshot,
  order: ArrayLike<number>,
  a: number,
  b: number,
): { games: PastGame[]; record: WinDrawLoss } {
  const games: PastGame[] = [];
  const record: WinDrawLoss = { games: 0, wins: 0, draws: 0, losses: 0 };
  const { player, result, score, faction } = snapshot;
  for (let i = 0; i < order.length; i += 1) {
    throwIfCancelledEvery(i);
    const g = order[i];
    const own = player[2 * g] === a && player[2 * g + 1] === b ? 2 * g : 2 * g + 1;
    if (player[own] !== a || player[own ^ 1] !== b) continue;
    const side = (r: number) => ({
      score: Number.isNaN(score[r]) ? null : score[r],
      faction: faction[r] >= 0 ? factionRef(snapshot, faction[r]) : null,
    });
    const mine = side(own);
    const theirs = side(own ^ 1);
    const event = snapshot.gameEvent[g];
    games.push({
      date: dayString(snapshot.events.startDay[event]),
      event: eventRef(snapshot, event),
      round: snapshot.gameRound[g] >= 0 ? snapshot.gameRound[g] : null,
      result: RESULTS[result[own]],
      score: mine.score,
      opponentScore: theirs.score,
      faction: mine.faction,
      opponentFaction: theirs.faction,
    });
    record.games += 1;
    if (result[own] === 2) record.wins += 1;
    else if (result[own] === 1) record.draws += 1;
    else record.losses += 1;
  }
  return { games, record };
}
