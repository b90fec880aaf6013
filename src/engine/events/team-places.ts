/**
 * Team places as placements for best-N event points (docs/ratings.md "Points"): at a team event
 * whose system declares a team rule and whose source gives teams, each member is placed where
 * the team is, among the event's teams. No other statistic reads these: a team event still
 * places nobody on their own (docs/statistics.md#team-events), and a running event has no places
 * yet (docs/statistics.md#running-events).
 */
import { EVENT_FORMATS } from '../../domain/model.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { isRunning } from './event-pairings.ts';
import { teamStandings } from './team-standings.ts';

export interface TeamPlaces {
  /** Row k: `player[k]` of `faction[k]` placed `placement[k]` (its team's place) at `event[k]`. */
  count: number;
  event: number[];
  player: number[];
  placement: number[];
  faction: number[];
  /** Per ranked team event: its number of teams. */
  teams: Map<number, number>;
}

const TEAMS = EVENT_FORMATS.indexOf('teams');

/** Every member's team place at the team events ranked by their system's team rule. */
export function teamPlaces(snapshot: Snapshot): TeamPlaces {
  const out: TeamPlaces = {
    count: 0,
    event: [],
    player: [],
    placement: [],
    faction: [],
    teams: new Map(),
  };
  const st = snapshot.standings;
  const ev = snapshot.events;
  for (let e = 0; e < ev.count; e++) {
    if (ev.format[e] !== TEAMS || snapshot.systems[ev.system[e]].teamRule === null) continue;
    // A running event's team order is where the teams stand now, not a place to score.
    if (isRunning(snapshot, e)) continue;
    const standings = teamStandings(snapshot, e);
    if (standings === null) continue;
    out.teams.set(e, standings.teams.length);
    for (const t of standings.teams) {
      for (const i of t.members) {
        if (t.place === null || st.player[i] < 0) continue;
        out.event.push(e);
        out.player.push(st.player[i]);
        out.placement.push(t.place);
        out.faction.push(st.faction[i]);
      }
    }
  }
  out.count = out.event.length;
  return out;
}
