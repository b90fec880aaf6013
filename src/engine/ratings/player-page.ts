/**
 * A player's own page as answered (docs/ratings.md "A player's page"): their leaderboard row,
 * their rating after each rated event, their record per faction, and their best and latest
 * placements in scope.
 */
import { declaredParticipants } from '../events/event-index.ts';
import { eventPlacements } from '../events/event-placements.ts';
import type { EventPlacements } from '../events/event-placements.ts';
import { dayString } from '../../domain/calendar-day.ts';
import { EVENT_FORMATS } from '../../domain/model.ts';
import type { EventFormat } from '../../domain/model.ts';
import type { EventRef, FactionRef } from '../entity-refs.ts';
import { eventRef, factionRef } from '../entity-refs.ts';
import type { Scope } from '../filter.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { PlayerHistory, WinDrawLoss } from './player-history.ts';

export interface HistoryRow extends WinDrawLoss {
  date: string;
  event: EventRef;
  rating: number;
  rd: number | null;
  /** The player's placement in the event; null when they have none there. */
  placement: number | null;
  /** A team event places no player on their own: their games count, with no placing. */
  format: EventFormat;
  /** Where the event's placings come from (docs/statistics.md#standings). */
  placements: EventPlacements;
  placementRule: string | null;
  /** With `none` for want of games: why (docs/statistics.md#standings); else null. */
  placementsWithheld: string | null;
  /** The event's participant count; null when unknown. */
  participants: number | null;
}

export interface FactionRecord extends WinDrawLoss {
  faction: FactionRef;
}

export interface PlacementRow {
  date: string;
  event: EventRef;
  placement: number;
  placements: EventPlacements;
  placementRule: string | null;
  /** With `none` for want of games: why (docs/statistics.md#standings); else null. */
  placementsWithheld: string | null;
}

export interface PlayerPage {
  history: HistoryRow[];
  factions: FactionRecord[];
  bestPlacement: PlacementRow | null;
  latestPlacement: PlacementRow | null;
}

/** The player's placements in the events of `scope`: the best (latest of equals), the latest. */
function placements(snapshot: Snapshot, scope: Scope, player: number) {
  const st = snapshot.standings;
  const { startDay, system } = snapshot.events;
  let best: PlacementRow | null = null;
  let bestDay = 0;
  let latest: PlacementRow | null = null;
  let latestDay = 0;
  for (let i = 0; i < st.count; i += 1) {
    const e = st.event[i];
    if (st.player[i] !== player || st.placement[i] <= 0) continue;
    if (scope.eventMask[e] !== 1 || system[e] !== scope.system) continue;
    const day = startDay[e];
    const row = {
      date: dayString(day),
      event: eventRef(snapshot, e),
      placement: st.placement[i],
      ...eventPlacements(snapshot, e),
    };
    if (
      best === null ||
      row.placement < best.placement ||
      (row.placement === best.placement && day > bestDay)
    ) {
      best = row;
      bestDay = day;
    }
    if (latest === null || day > latestDay) {
      latest = row;
      latestDay = day;
    }
  }
  return { best, latest };
}

/** The player's placement in each event that places them (standings, docs/statistics.md). */
function placementByEvent(snapshot: Snapshot, player: number): Map<number, number> {
  const st = snapshot.standings;
  const out = new Map<number, number>();
  for (let i = 0; i < st.count; i += 1) {
    if (st.player[i] === player && st.placement[i] > 0) out.set(st.event[i], st.placement[i]);
  }
  return out;
}

/** The page of `player` from their history over the rated games in `scope`. */
export function playerPage(
  snapshot: Snapshot,
  scope: Scope,
  player: number,
  history: PlayerHistory,
): PlayerPage {
  const { best, latest } = placements(snapshot, scope, player);
  const placed = placementByEvent(snapshot, player);
  const participants = declaredParticipants(snapshot);
  const factions = [...history.factions]
    .filter(([f]) => f >= 0)
    .map(([f, record]) => ({ faction: factionRef(snapshot, f), ...record }))
    .sort((x, y) => y.games - x.games || (x.faction.id < y.faction.id ? -1 : 1));
  return {
    history: history.points.map(({ event, date, rating, rd, games, wins, draws, losses }) => ({
      date,
      event: eventRef(snapshot, event),
      rating,
      rd,
      games,
      wins,
      draws,
      losses,
      placement: placed.get(event) ?? null,
      format: EVENT_FORMATS[snapshot.events.format[event]],
      ...eventPlacements(snapshot, event),
      participants: participants[event] >= 0 ? participants[event] : null,
    })),
    factions,
    bestPlacement: best,
    latestPlacement: latest,
  };
}
