/** Elo as a rating method (docs/ratings.md#elo). */
import { RATING_METHODS } from '../../../../domain/rating-methods.ts';
import { throwIfCancelledEvery } from '../../../cancellation.ts';
import { eloExpected, newEloRecord, runEloColumns } from '../../elo.ts';
import { ratedColumns } from '../../rated-columns.ts';
import type { RatingMethod } from '../rating-method.ts';

export interface EloParams {
  k: number;
  initial: number;
}

export const DEFAULT_ELO: Readonly<EloParams> = Object.freeze({ k: 32, initial: 1500 });

export const eloMethod: RatingMethod<EloParams> = {
  spec: RATING_METHODS[1],
  defaults: DEFAULT_ELO,
  run({ facts, order }, params) {
    const rating = runEloColumns(facts.players, ratedColumns(facts, order), params);
    return { rating, rd: null, volatility: null, eventsScored: null };
  },
  /** The rating after the player's last game of that date or before. */
  history(facts, order, params, _factions, player) {
    const record = newEloRecord(order.length);
    runEloColumns(facts.players, ratedColumns(facts, order), params, record);
    return (_event, date) => {
      let rating = params.initial;
      for (let i = 0; i < order.length; i += 1) {
        throwIfCancelledEvery(i);
        const g = order[i];
        if (facts.events[facts.gameEvent[g]].start > date) break;
        if (facts.player[2 * g] === player) rating = record.postA[i];
        else if (facts.player[2 * g + 1] === player) rating = record.postB[i];
      }
      return { rating, rd: null };
    };
  },
  /** The rating after each of the player's games minus the rating before it. */
  gameChanges(facts, order, params, player) {
    const record = newEloRecord(order.length);
    runEloColumns(facts.players, ratedColumns(facts, order), params, record);
    const out = new Map<number, number>();
    for (let i = 0; i < order.length; i += 1) {
      throwIfCancelledEvery(i);
      const g = order[i];
      if (facts.player[2 * g] === player) out.set(g, record.postA[i] - record.preA[i]);
      else if (facts.player[2 * g + 1] === player) out.set(g, record.postB[i] - record.preB[i]);
    }
    return out;
  },
  expected: {
    pairing: (a, b) => eloExpected(a.rating, b.rating),
    beforeEachGame(facts, order, params) {
      const record = newEloRecord(order.length);
      runEloColumns(facts.players, ratedColumns(facts, order), params, record);
      const forecast = record.preA.map((ra, i) => eloExpected(ra, record.preB[i]));
      return { games: order, forecast };
    },
  },
};
