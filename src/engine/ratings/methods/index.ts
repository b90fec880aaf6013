/**
 * The rating methods' implementations, one per method of src/domain/rating-methods.ts, and the
 * parameters of a ranking: the method and one parameter object per method, named as it is.
 */
import type { RankingMethod } from '../../../domain/rating-methods.ts';
import type { PointsOptions } from '../points.ts';
import { eloMethod } from './elo/elo-method.ts';
import type { EloParams } from './elo/elo-method.ts';
import { glicko2Method } from './glicko2/glicko2-method.ts';
import { pointsMethod } from './points/points-method.ts';
import type { Glicko2Params } from './glicko2/glicko2-run.ts';
import type { RatingMethod } from './rating-method.ts';

/** Each method's parameters, by its name. */
export interface MethodParams {
  glicko2: Glicko2Params;
  elo: EloParams;
  points: PointsOptions;
}

export interface RankingParams extends MethodParams {
  method: RankingMethod;
}

/** Every method's implementation, by name: the compiler asks for one per described method. */
export const RATING_METHOD_IMPLEMENTATIONS: {
  readonly [M in RankingMethod]: RatingMethod<MethodParams[M]>;
} = {
  glicko2: glicko2Method,
  elo: eloMethod,
  points: pointsMethod,
};

/** The implementation of `params.method`, and its own parameters out of `params`. */
export function methodOf(params: RankingParams): {
  method: RatingMethod<unknown>;
  own: unknown;
} {
  return {
    method: RATING_METHOD_IMPLEMENTATIONS[params.method] as RatingMethod<unknown>,
    own: params[params.method],
  };
}
