/**
 * The ranking methods a player can be ordered and rated by (docs/ratings.md), taken from the
 * methods' one list and shared by the Rankings page and a player's page so both read `method`
 * from the URL the same way.
 */
import { DEFAULT_METHOD, RATING_METHODS } from '../../src/domain/rating-methods.ts';
import type { RankingMethod } from '../../src/domain/rating-methods.ts';
import type { Params } from './url-state.ts';

/** [method, title] of every method, in the list's order (src/domain/rating-methods.ts). */
export const METHODS: ReadonlyArray<readonly [RankingMethod, string]> = RATING_METHODS.map(
  (m) => [m.name, m.title] as const,
);
export type Method = RankingMethod;

/** The URL's method, the default when absent or unknown (the server's default too). */
export function methodOf(params: Params): Method {
  return METHODS.find(([m]) => m === params.method)?.[0] ?? DEFAULT_METHOD;
}

export function methodName(method: Method): string {
  return METHODS.find(([m]) => m === method)?.[1] ?? method;
}
