/**
 * A player's games one by one (docs/ratings.md "A player's page"): each rated game in scope with
 * its event, round, opponent, factions, scores, result and the rating change it made, latest
 * first and paged.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import { dayString } from '../../domain/calendar-day.ts';
import type { EventRef, FactionRef } from '../common.ts';
import { eventRef, factionRef } from '../common.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { newEloRecord, runEloColumns } from './elo.ts';
import { glicko2GameShare } from './glicko2.ts';
import { glicko2Run } from './rankings.ts';
import type { RankingFacts, RankingParams } from './rankings.ts';
import { ratedColumns } from './rated-columns.ts';

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
  const out = new Map<number, number>();
  if (params.method === 'elo') {
    const record = newEloRecord(order.length);
    runEloColumns(facts.players, ratedColumns(facts, order), params.elo, record);
    for (let i = 0; i < order.length; i += 1) {
      const g = order[i];
      if (facts.player[2 * g] === player) out.set(g, record.postA[i] - record.preA[i]);
      else if (facts.player[2 * g + 1] === player) out.set(g, record.postB[i] - record.preB[i]);
    }
  }
  if (params.method !== 'glicko2') return out;
  const run = glicko2Run(facts, order, params.glicko2, true, { asOf, trackPlayer: player });
  const rdAfter = new Map((run.tracked ?? []).map((t) => [t.period, t.rd]));
  const { periodOrder } = run;
  for (let i = 0; i < periodOrder.length; i += 1) {
    throwIfCancelledEvery(i);
    const g = periodOrder[i];
    const mine = facts.player[2 * g] === player ? 0 : facts.player[2 * g + 1] === player ? 1 : -1;
    if (mine < 0) continue;
    const rd = rdAfter.get(run.periodOf(g));
    if (rd === undefined) continue;
    const a = mine === 0;
    const ownRating = (a ? run.preRatingA : run.preRatingB)![i];
    const opponentRating = (a ? run.preRatingB : run.preRatingA)![i];
    const opponentRd = (a ? run.preRdB : run.preRdA)![i];
    const score = facts.result[2 * g + mine] / 2;
    out.set(g, glicko2GameShare(ownRating, rd, opponentRating, opponentRd, score));
  }
  return out;
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
