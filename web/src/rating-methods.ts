/**
 * The ranking methods a player can be ordered and rated by (docs/ratings.md), shared by the
 * Rankings page and a player's page so both read `method` from the URL the same way.
 */
import type { Params } from './url-state.ts';

export const METHODS = [
  ['glicko2', 'Glicko-2'],
  ['elo', 'Elo'],
  ['points', 'Best-N points'],
] as const;
export type Method = (typeof METHODS)[number][0];

/** The URL's method, Glicko-2 when absent or unknown (the server's default too). */
export function methodOf(params: Params): Method {
  return METHODS.find(([m]) => m === params.method)?.[0] ?? 'glicko2';
}

export function methodName(method: Method): string {
  return METHODS.find(([m]) => m === method)?.[1] ?? method;
}
