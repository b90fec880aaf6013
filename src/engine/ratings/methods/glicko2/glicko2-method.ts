/** Glicko-2 as a rating method (docs/ratings.md#glicko-2). */
import { RATING_METHODS } from '../../../../domain/rating-methods.ts';
import { throwIfCancelledEvery } from '../../../cancellation.ts';
import { glicko2Expected, glicko2GameShare, idleRd } from '../../glicko2.ts';
import type { RankingFacts } from '../../ranking-facts.ts';
import type { HistoryValuer, RatingMethod } from '../rating-method.ts';
import { DEFAULT_GLICKO2, eventPeriods, glicko2Run } from './glicko2-run.ts';
import type { Glicko2Params } from './glicko2-run.ts';

/**
 * Values as of the end of a date: event periods idle the player through the events of that
 * date they did not play; calendar periods answer the period holding the event.
 */
function history(
  facts: RankingFacts,
  order: Int32Array,
  g2: Glicko2Params,
  player: number,
  asOf: string | undefined,
): HistoryValuer {
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

/**
 * Each of the player's games' share of its period's change: the game's own term of the period's
 * update (Glickman 2012, step 7), so one period's shares add up to its change.
 */
function gameChanges(
  facts: RankingFacts,
  order: Int32Array,
  g2: Glicko2Params,
  player: number,
  asOf: string | undefined,
): Map<number, number> {
  const out = new Map<number, number>();
  const run = glicko2Run(facts, order, g2, true, { asOf, trackPlayer: player });
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

export const glicko2Method: RatingMethod<Glicko2Params> = {
  spec: RATING_METHODS[0],
  defaults: DEFAULT_GLICKO2,
  run({ facts, order, asOf }, params) {
    const { rating, rd, volatility } = glicko2Run(facts, order, params, false, { asOf });
    return { rating, rd, volatility, eventsScored: null };
  },
  history: (facts, order, params, _factions, player, asOf) =>
    history(facts, order, params, player, asOf),
  gameChanges,
  expected: {
    // E with the opponent's g(RD) (Glickman 2012, step 3).
    pairing: (a, b) => glicko2Expected(a.rating, b.rating, b.rd ?? 0),
    beforeEachGame(facts, order, params, asOf) {
      const run = glicko2Run(facts, order, params, true, { asOf });
      const { preRatingA, preRatingB, preRdB } = run;
      const forecast = preRatingA!.map((ra, i) => glicko2Expected(ra, preRatingB![i], preRdB![i]));
      return { games: run.periodOrder, forecast };
    },
  },
};
