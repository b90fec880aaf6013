/**
 * Where an event's placings come from, as every event answer says it
 * (docs/statistics.md#standings): published, derived by its system's rule, or none, and when
 * the rule could not derive them for want of games, why.
 */
import { PLACEMENTS_DERIVED, PLACEMENTS_PUBLISHED } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';

export type EventPlacements = 'published' | 'derived' | 'none';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Why event `e` has no places though its system declares a rule: too few of its declared
 * entrants, or too few of its games, are in the source (docs/statistics.md#standings); null
 * when it is not so withheld.
 */
export function placementsWithheld(snapshot: Snapshot, e: number): string | null {
  const st = snapshot.standings;
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
  if (source !== PLACEMENTS_DERIVED)
    return { placements: 'none', placementRule: null, placementsWithheld: withheld };
  const rule = snapshot.systems[snapshot.events.system[e]].placementRule;
  return { placements: 'derived', placementRule: rule?.name ?? null, placementsWithheld: null };
}
