/**
 * Glicko-2 over the rated games in processing order, in rating periods (docs/ratings.md#glicko-2):
 * one per event, ordered by start then id, or calendar weeks or months.
 */
import { monthIndex, weekIndex } from '../../../../domain/calendar-day.ts';
import { eventStartRanks } from '../../event-start-ranks.ts';
import { runGlicko2Columns } from '../../glicko2.ts';
import type { Glicko2Result } from '../../glicko2.ts';
import type { RankingFacts } from '../../ranking-facts.ts';
import { ratedColumns } from '../../rated-columns.ts';
import { stableSortByKey } from '../../stable-sort-by-key.ts';

export type RatingPeriod = 'event' | 'week' | 'month';

export interface Glicko2Params {
  initialRating: number;
  initialRd: number;
  initialVolatility: number;
  tau: number;
  period: RatingPeriod;
}

export const DEFAULT_GLICKO2: Readonly<Glicko2Params> = Object.freeze({
  initialRating: 1500,
  initialRd: 350,
  initialVolatility: 0.06,
  tau: 0.5,
  period: 'event',
});

/** The events holding the games `order`, as event periods run: by start, then id. */
export function eventPeriods(facts: RankingFacts, order: ArrayLike<number>): number[] {
  const { events, gameEvent } = facts;
  const { rank } = eventStartRanks(facts);
  const seen = new Uint8Array(events.length);
  const held: number[] = [];
  for (let i = 0; i < order.length; i += 1) {
    const e = gameEvent[order[i]];
    if (seen[e] === 0) {
      seen[e] = 1;
      held.push(e);
    }
  }
  return held.sort((x, y) => {
    if (rank[x] !== rank[y]) return rank[x] - rank[y];
    const ix = events[x].id;
    const iy = events[y].id;
    return ix < iy ? -1 : ix > iy ? 1 : 0;
  });
}

/** What a Glicko-2 run may do besides rating (docs/ratings.md "Inactivity"). */
export interface Glicko2RunOptions {
  /** Idle players through the events they sit out (default true; skill rates without). */
  idleEvents?: boolean;
  /** Calendar periods: idle players through the period holding this date too. */
  asOf?: string;
  /** Record this player's values after each of their periods. */
  trackPlayer?: number;
}

/**
 * Per event index, its rating period: its ordinal among the events of `order` (by start, then
 * id), or the calendar week or month of its start; and the period holding `asOf`.
 */
function periodKeys(
  facts: RankingFacts,
  order: ArrayLike<number>,
  period: RatingPeriod,
  asOf: string | undefined,
): { eventPeriod: Float64Array; finalPeriod: number | undefined } {
  const { events } = facts;
  const eventPeriod = new Float64Array(events.length);
  if (period === 'event') {
    eventPeriods(facts, order).forEach((e, i) => (eventPeriod[e] = i));
    return { eventPeriod, finalPeriod: undefined };
  }
  const index = period === 'week' ? weekIndex : monthIndex;
  for (let e = 0; e < events.length; e += 1) eventPeriod[e] = index(events[e].start);
  return { eventPeriod, finalPeriod: asOf === undefined ? undefined : index(asOf) };
}

/**
 * Glicko-2 over the games `order` (in processing order). Event periods are ordered by event
 * start, then event id, so that each event's games form one contiguous period. Returns the
 * period order used: `periodOrder[k]` is the game index behind the k-th rated game, and the
 * period of each game.
 */
export function glicko2Run(
  facts: RankingFacts,
  order: ArrayLike<number>,
  params: Glicko2Params,
  recordPreRatings = false,
  options: Glicko2RunOptions = {},
): Glicko2Result & { periodOrder: Int32Array; periodOf: (g: number) => number } {
  const { gameEvent } = facts;
  const { eventPeriod, finalPeriod } = periodKeys(facts, order, params.period, options.asOf);
  // A stable sort by period keeps the processing order inside each period.
  const keys = new Float64Array(order.length);
  for (let i = 0; i < order.length; i += 1) keys[i] = eventPeriod[gameEvent[order[i]]];
  const periodOrder = stableSortByKey(Int32Array.from(order), keys);
  const result = runGlicko2Columns(facts.players, ratedColumns(facts, periodOrder, eventPeriod), {
    initialRating: params.initialRating,
    initialRd: params.initialRd,
    initialVolatility: params.initialVolatility,
    tau: params.tau,
    calendarPeriods: params.period !== 'event' || options.idleEvents !== false,
    finalPeriod,
    recordPreRatings,
    trackPlayer: options.trackPlayer,
  });
  return { ...result, periodOrder, periodOf: (g) => eventPeriod[gameEvent[g]] };
}
