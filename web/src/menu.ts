/**
 * The dashboard's pages by title, and the menu: every page but a player's, a faction's or an
 * event's, which are reached by their links and name themselves in their own h1. The frame
 * draws its menu from this list, and the browser tests visit every page of it.
 */
import { VIEWS } from './url-state.ts';
import type { View } from './url-state.ts';

export const PAGE_TITLES: Readonly<Record<View, string>> = {
  meta: 'Meta',
  matchups: 'Matchups',
  lists: 'Lists',
  scenarios: 'Scenarios',
  rankings: 'Rankings',
  events: 'Events',
  satellites: 'Satellites',
  strength: 'Strength',
  forecast: 'Forecasts',
  pairing: 'Team pairing',
  compare: 'Before/after',
  alike: 'Alike players',
  about: 'About the data',
  player: 'Player',
  faction: 'Faction',
  event: 'Event',
};

const ENTITY_VIEWS: ReadonlySet<View> = new Set(['player', 'faction', 'event']);

/** The menu's pages, in its order. */
export const MENU_VIEWS: readonly View[] = VIEWS.filter((v) => !ENTITY_VIEWS.has(v));
