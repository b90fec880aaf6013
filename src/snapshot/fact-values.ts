/**
 * Decoding of single fact values as the store writes them (src/store/read-facts.ts): result
 * codes, nullable flags, JSON columns, and dictionary ids through a raw-text cache.
 */
import type { MarginBands, PlacementRule, TeamRule } from '../domain/model.ts';
import { SIDE_DRAW, SIDE_WIN } from '../store/read-facts.ts';
import type { DictionaryBuilder } from './dictionary.ts';
import { RESULT_DRAW, RESULT_LOSS, RESULT_WIN } from './snapshot.ts';

/** The snapshot's result code (docs/data-model.md) of the store's side result. */
export function resultCode(result: number): number {
  if (result === SIDE_WIN) return RESULT_WIN;
  if (result === SIDE_DRAW) return RESULT_DRAW;
  return RESULT_LOSS;
}

/** Adds to a dictionary through a cache keyed by the raw text, sparing the trim and case fold. */
export function addCached(
  dict: DictionaryBuilder,
  cache: Map<string, number>,
  text: string | null,
): number {
  if (text === null) return -1;
  let id = cache.get(text);
  if (id === undefined) {
    id = dict.add(text);
    cache.set(text, id);
  }
  return id;
}

/** A nullable stored boolean as 1, 0 or -1 for unknown (docs/data-model.md). */
export function flag(value: number | null | undefined): number {
  return value === null || value === undefined ? -1 : value ? 1 : 0;
}

/** A system's margin bands from their JSON column; null when absent or unreadable. */
export function parseBands(json: string | null): MarginBands | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as MarginBands;
  } catch {
    return null;
  }
}

/** A system's placing rule from its JSON column; null when absent or unreadable. */
export function parsePlacementRule(json: string | null): PlacementRule | null {
  if (json === null) return null;
  try {
    const rule = JSON.parse(json) as PlacementRule;
    return Array.isArray(rule.rank) && rule.rank.length > 0 ? rule : null;
  } catch {
    return null;
  }
}

/** A system's team scoring rule from its JSON column; null when absent or unreadable. */
export function parseTeamRule(json: string | null): TeamRule | null {
  if (json === null) return null;
  try {
    const rule = JSON.parse(json) as TeamRule;
    return Array.isArray(rule.rank) && rule.rank.length > 0 ? rule : null;
  } catch {
    return null;
  }
}

/** A game's secondaries from their JSON column; the strings only, [] when absent or unreadable. */
export function parseSecondaries(json: string | null): string[] {
  if (json === null || json === '') return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
