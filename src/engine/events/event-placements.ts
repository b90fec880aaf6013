/**
 * Where an event's placings come from, as every event answer says it
 * (docs/statistics.md#standings): published, derived by its system's rule, or none, and when
 * there are none though the source or the rule would give them (too few games, or the event
 * still running), why.
 */
import { PLACEMENTS_DERIVED, PLACEMENTS_PUBLISHED } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { eventPairings } from './event-pairings.ts';

export type EventPlacements = 'published' | 'derived' | 'none';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Why event `e` has no places though its source or its system's rule would give them: it is
 * still running (docs/statistics.md#running-events), or too few of its declared entrants, or
 * of its games, are in the source (docs/statistics.md#standings); null when it is not so
 * withheld.
 */
export function placementsWithheld(snapshot: Snapshot, e: number): string | null {
  const st = snapshot.standings;
  const unplayed = eventPairings(snapshot).get(e)?.length ?? 0;
  if (unplayed > 0)
    return `the event is running (${plural(unplayed, 'game', 'games')} paired and not played yet): it has places once it is over`;
  if (st.eventWithheld[e] !== 1) return null;
  const players = st.eventGamePlayers[e];
  const games = Math.floor(st.eventGames[e]);
  const declared = snapshot.events.participants[e];
  if (declared > players && players < 0.75 * declared)
    return `the source holds ${plural(games, 'game', 'games')} of ${players} of ${declared} entrants`;
  const most = st.eventMostGames[e];
  const expected = Math.floor((players * most) / 2);
  return `the source holds ${games} of the ${expected} games its ${players} players would have played (${plural(most, 'game', 'games')} each)`;
}

/** Where event `e`'s placings come from, and the name of the rule that derived them. */
export function eventPlacements(
  snapshot: Snapshot,
  e: number,
): {
  placements: EventPlacements;
  placementRule: string | null;
  placementsWithheld: string | null;
} {
  const source = snapshot.standings.eventPlacements[e];
  const withheld = placementsWithheld(snapshot, e);
  if (source === PLACEMENTS_PUBLISHED)
    return { placements: 'published', placementRule: null, placementsWithheld: null };
  const rule = snapshot.systems[snapshot.events.system[e]].placementRule;
  if (source !== PLACEMENTS_DERIVED) {
    // A running event's order so far is by its rule where its places will be: say which.
    const current = snapshot.standings.eventCurrent[e] === PLACEMENTS_DERIVED;
    const placementRule = current ? (rule?.name ?? null) : null;
    return { placements: 'none', placementRule, placementsWithheld: withheld };
  }
  return { placements: 'derived', placementRule: rule?.name ?? null, placementsWithheld: null };
}
