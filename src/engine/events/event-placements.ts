/**
 * Where an event's placings come from, as every event answer says it
 * (docs/statistics.md#standings): published, derived by its system's rule, or none.
 */
import { PLACEMENTS_DERIVED, PLACEMENTS_PUBLISHED } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';

export type EventPlacements = 'published' | 'derived' | 'none';

/** Where event `e`'s placings come from, and the name of the rule that derived them. */
export function eventPlacements(
  snapshot: Snapshot,
  e: number,
): { placements: EventPlacements; placementRule: string | null } {
  const source = snapshot.standings.eventPlacements[e];
  if (source === PLACEMENTS_PUBLISHED) return { placements: 'published', placementRule: null };
  if (source !== PLACEMENTS_DERIVED) return { placements: 'none', placementRule: null };
  const rule = snapshot.systems[snapshot.events.system[e]].placementRule;
  return { placements: 'derived', placementRule: rule?.name ?? null };
}
