/**
 * A round in progress for the live tests (docs/data-model.md#unplayed-games): the demo slice's
 * last completed event with its last round's games as `change` makes them, and `unplayed`, which
 * makes a game paired but not played.
 */
import type { CanonicalDocument, Event, Game } from '../../src/domain/model.ts';
import { demoSlice } from './test-app.ts';

/** The demo slice with its last completed event's last round as `change` makes it. */
export function lastRound(change: (g: Game) => Game): { doc: CanonicalDocument; event: Event } {
  const slice = demoSlice();
  const events = slice.events ?? [];
  const i = events.findLastIndex((e) => e.status === 'completed' && (e.games?.length ?? 0) > 0);
  const games = events[i].games ?? [];
  const round = Math.max(...games.map((g) => g.round ?? 0));
  const event = { ...events[i], games: games.map((g) => (g.round === round ? change(g) : g)) };
  return { doc: { ...slice, events: events.with(i, event) }, event };
}

/** A game paired but not played: its two players and factions, no result. */
export const unplayed = (g: Game): Game => ({
  ...g,
  sides: [
    { player: g.sides[0].player, faction: g.sides[0].faction },
    { player: g.sides[1].player, faction: g.sides[1].faction },
  ],
});
