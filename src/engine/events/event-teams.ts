/**
 * A team event's teams for its page (docs/statistics.md#team-events): the team standings of
 * team-standings.ts with each member named as an entry, in player id order.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { entryRef } from './event-facts.ts';
import type { EntryRef } from './event-facts.ts';
import { teamStandings } from './team-standings.ts';
import type { EventTeams as TeamStandings, TeamMatch, TeamRow } from './team-standings.ts';

export type EventTeams = TeamStandings<EntryRef>;
export type { TeamMatch, TeamRow };

/** The teams of event `e` when its entries name any; null when they name none. */
export function eventTeams(snapshot: Snapshot, e: number): EventTeams | null {
  const standings = teamStandings(snapshot, e);
  if (standings === null) return null;
  const id = (i: number) => snapshot.players[snapshot.standings.player[i]];
  return {
    ...standings,
    teams: standings.teams.map((t) => ({
      ...t,
      members: [...t.members]
        .sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0))
        .map((i) => entryRef(snapshot, i)),
    })),
  };
}
