/**
 * A player's own page (docs/ratings.md "A player's page"): their rating after each rated event,
 * as the leaderboard cut off at that event's start date would give it, and their record per
 * event and per faction. Pure over RankingFacts.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import { newEloRecord, runEloColumns } from './elo.ts';
import { eventPoints } from './event-points.ts';
import { idleRd } from './glicko2.ts';
import { bestNTotal } from './points.ts';
import { eventPeriods, glicko2Run } from './rankings.ts';
import type { RankingFacts, RankingParams } from './rankings.ts';
import { ratedColumns } from './rated-columns.ts';

/** Games, wins, draws and losses of some sides. */
export interface WinDrawLoss {
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** The player after one rated event. */
export interface HistoryPoint extends WinDrawLoss {
  /** Event index. */
  event: number;
  date: string;
  rating: number;
  /** Glicko-2 only. */
  rd: number | null;
}

export interface PlayerHistory {
  points: HistoryPoint[];
  /** Per faction index: the player's record with it. */
  factions: Map<number, WinDrawLoss>;
}

const emptyRecord = (): WinDrawLoss => ({ games: 0, wins: 0, draws: 0, losses: 0 });

function addResult(record: WinDrawLoss, result: number): void {
  record.games += 1;
  if (result === 2) record.wins += 1;
  else if (result === 1) record.draws += 1;
  else record.losses += 1;
}

/** The player's counted sides per event (in event order) and per faction. */
function tallies(
  facts: RankingFacts,
  order: Int32Array,
  factions: ReadonlySet<number> | null,
  player: number,
) {
  const perEvent = new Map<number, WinDrawLoss>();
  const perFaction = new Map<number, WinDrawLoss>();
  for (const g of order) {
    for (const r of [2 * g, 2 * g + 1]) {
      if (facts.player[r] !== player) continue;
      const f = facts.faction[r];
      if (factions !== null && !factions.has(f)) continue;
      const e = facts.gameEvent[g];
      if (!perEvent.has(e)) perEvent.set(e, emptyRecord());
      if (!perFaction.has(f)) perFaction.set(f, emptyRecord());
      addResult(perEvent.get(e)!, facts.result[r]);
      addResult(perFaction.get(f)!, facts.result[r]);
    }
  }
  return { perEvent, perFaction };
}

type Valuer = (event: number, date: string) => { rating: number; rd: number | null };

/**
 * Glicko-2 values as of the end of a date: event periods idle the player through the events
 * of that date they did not play; calendar periods answer the period holding the event.
 */
function glicko2Valuer(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  player: number,
  asOf: string | undefined,
): Valuer {
  const g2 = params.glicko2;
  const run = glicko2Run(facts, order, g2, false, { asOf, trackPlayer: player });
  const tracked = run.tracked ?? [];
  const gameOf = new Map<number, number>();
  for (const g of order) if (!gameOf.has(facts.gameEvent[g])) gameOf.set(facts.gameEvent[g], g);
  const initial = { rating: g2.initialRating, rd: g2.initialRd, volatility: g2.initialVolatility };
  if (g2.period !== 'event') {
    return (event) => {
      const period = run.periodOf(gameOf.get(event)!);
      const state = tracked.findLast((t) => t.period <= period) ?? initial;
      return { rating: state.rating, rd: state.rd };
    };
  }
  const periods = eventPeriods(facts, order);
  return (_event, date) => {
    let last = -1;
    while (last + 1 < periods.length && facts.events[periods[last + 1]].start <= date) last += 1;
    const t = tracked.findLast((x) => x.period <= last);
    if (t === undefined) return { rating: initial.rating, rd: initial.rd };
    return { rating: t.rating, rd: idleRd(t, last - t.period, g2.initialRd) };
  };
}

/** Elo: the rating after the player's last game of that date or before. */
function eloValuer(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  player: number,
): Valuer {
  const record = newEloRecord(order.length);
  runEloColumns(facts.players, ratedColumns(facts, order), params.elo, record);
  return (_event, date) => {
    let rating = params.elo.initial;
    for (let i = 0; i < order.length; i += 1) {
      throwIfCancelledEvery(i);
      const g = order[i];
      if (facts.events[facts.gameEvent[g]].start > date) break;
      if (facts.player[2 * g] === player) rating = record.postA[i];
      else if (facts.player[2 * g + 1] === player) rating = record.postB[i];
    }
    return { rating, rd: null };
  };
}

/** Points: the best-N total over the player's scored events of that date or before. */
function pointsValuer(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  factions: ReadonlySet<number> | null,
  player: number,
): Valuer {
  const scored = eventPoints(facts, order, params.points, factions).scored.get(player) ?? [];
  return (_event, date) => {
    const scores = scored.filter((s) => facts.events[s.event].start <= date).map((s) => s.score);
    return { rating: bestNTotal(scores, params.points.bestN), rd: null };
  };
}

/**
 * The player's rating after each event with a rated game of theirs in `order` (processing
 * order), oldest first, with their record there and per faction.
 */
export function playerHistory(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  factions: ReadonlySet<number> | null,
  player: number,
  asOf?: string,
): PlayerHistory {
  const { perEvent, perFaction } = tallies(facts, order, factions, player);
  const value =
    params.method === 'elo'
      ? eloValuer(facts, order, params, player)
      : params.method === 'points'
        ? pointsValuer(facts, order, params, factions, player)
        : glicko2Valuer(facts, order, params, player, asOf);
  const points: HistoryPoint[] = [];
  for (const [event, record] of perEvent) {
    const date = facts.events[event].start;
    points.push({ event, date, ...value(event, date), ...record });
  }
  return { points, factions: perFaction };
}
