/**
 * A player's games one by one (docs/ratings.md "A player's page"): each rated game in scope with
 * its event, round, opponent, factions, scores, result and the rating change it made, latest
 * first and paged.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import { dayString } from '../../domain/calendar-day.ts';
import type { EventRef, FactionRef } from '../entity-refs.ts';
import { eventRef, factionRef } from '../entity-refs.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { methodOf } from './methods/index.ts';
import type { RankingFacts, RankingParams } from './rankings.ts';

const RESULTS = ['loss', 'draw', 'win'] as const;

/** Games per page of a player's game list. */
export const PLAYER_GAMES_PAGE_SIZE = 50;

/** One rated game of the player, from their side. */
export interface PlayerGame<Ref> {
  date: string;
  event: EventRef;
  round: number | null;
  opponent: Ref;
  result: (typeof RESULTS)[number];
  score: number | null;
  opponentScore: number | null;
  faction: FactionRef | null;
  opponentFaction: FactionRef | null;
  /** Elo: this game's change; Glicko-2: its share of its period's change; points: null. */
  ratingChange: number | null;
}

export interface PlayerGames<Ref> {
  rows: PlayerGame<Ref>[];
  total: number;
  page: number;
  pageSize: number;
}

/** The rating change each game of `order` made to `player`, by game index; empty for points. */
export function ratingChanges(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  player: number,
  asOf: string | undefined,
): Map<number, number> {
  const { method, own } = methodOf(params);
  return method.gameChanges?.(facts, order, own, player, asOf) ?? new Map();
}

/**
 * Page `page` of the player's rated games `order` (processing order), latest first; sides
 * whose faction `factions` leaves out are not theirs to list (as their record counts them).
 */
export function playerGames<Ref>(
  snapshot: Snapshot,
  order: Int32Array,
  factions: ReadonlySet<number> | null,
  player: number,
  changes: Map<number, number>,
  page: number,
  ref: (player: number) => Ref,
): PlayerGames<Ref> {
  const own: number[] = [];
  const { faction, score, result } = snapshot;
  for (let i = order.length - 1; i >= 0; i -= 1) {
    throwIfCancelledEvery(i);
    const g = order[i];
    const r = snapshot.player[2 * g] === player ? 2 * g : 2 * g + 1;
    if (snapshot.player[r] !== player) continue;
    if (factions !== null && !factions.has(faction[r])) continue;
    own.push(r);
  }
  const pageSize = PLAYER_GAMES_PAGE_SIZE;
  const side = (r: number) => ({
    score: Number.isNaN(score[r]) ? null : score[r],
    faction: faction[r] >= 0 ? factionRef(snapshot, faction[r]) : null,
  });
  const rows = own.slice((page - 1) * pageSize, page * pageSize).map((r) => {
    const g = r >> 1;
    const event = snapshot.gameEvent[g];
    const mine = side(r);
    const theirs = side(r ^ 1);
    return {
      date: dayString(snapshot.events.startDay[event]),
      event: eventRef(snapshot, event),
      round: snapshot.gameRound[g] >= 0 ? snapshot.gameRound[g] : null,
      opponent: ref(snapshot.player[r ^ 1]),
      result: RESULTS[result[r]],
      score: mine.score,
      opponentScore: theirs.score,
      faction: mine.faction,
      opponentFaction: theirs.faction,
      ratingChange: changes.get(g) ?? null,
    };
  });
  return { rows, total: own.length, page, pageSize };
}
