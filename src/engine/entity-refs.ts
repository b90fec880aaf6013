/** A faction or an event as answers name it: its id and its name (docs/http-api.md). */
import type { Snapshot } from '../snapshot/snapshot.ts';

export interface FactionRef {
  id: string;
  name: string;
}

/** An event as answers name it. */
export interface EventRef {
  id: string;
  name: string;
}

/** The event at index `event` of the snapshot. */
export function eventRef(snapshot: Snapshot, event: number): EventRef {
  return { id: snapshot.events.ids[event], name: snapshot.events.names[event] };
}

export function factionRef(snapshot: Snapshot, faction: number): FactionRef {
  const f = snapshot.factions[faction];
  return { id: f.id, name: f.name };
}
