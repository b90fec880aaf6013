/**
 * What an event is, as the events route answers it (docs/statistics.md#events): its metadata
 * and its winners and undefeated entries from the standings (docs/statistics.md#standings).
 */
import { dayString } from '../../domain/calendar-day.ts';
import { EVENT_FORMATS, EVENT_TIERS } from '../../domain/model.ts';
import type { EventFormat, EventTier } from '../../domain/model.ts';
import { DomainError } from '../../domain/domain-error.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { factionRef } from '../entity-refs.ts';
import type { FactionRef } from '../entity-refs.ts';
import { playerRef } from '../ratings/leaderboard.ts';
import type { PlayerRef } from '../ratings/leaderboard.ts';
import { declaredParticipants, eventIndex } from './event-index.ts';
import { isRunning } from './event-pairings.ts';
import { eventPlacements } from './event-placements.ts';
import type { EventPlacements } from './event-placements.ts';

/** An event's own fields. */
export interface EventInfo {
  id: string;
  name: string;
  /** Start date, YYYY-MM-DD. */
  date: string;
  tier: EventTier;
  format: EventFormat;
  /** As declared by the source; null where it gave none, 0, or fewer than played. */
  participants: number | null;
  country: string | null;
  online: boolean | null;
  rulesVersion: string | null;
  rounds: number | null;
  /** Whether it has games paired but not played yet (docs/data-model.md#unplayed-games). */
  running: boolean;
  /**
   * Where its placings come from (docs/statistics.md#standings): published by the source,
   * derived from the games by its system's placing rule, or none (a team event, or no rule).
   */
  placements: EventPlacements;
  /** With `derived`: the rule's name, e.g. "total battle points"; else null. */
  placementRule: string | null;
  /** With `none` for want of games: why (docs/statistics.md#standings); else null. */
  placementsWithheld: string | null;
}

/** A standings entry named by its player and faction. */
export interface EntryRef {
  player: PlayerRef;
  faction: FactionRef | null;
}

/** The fields of event `e`. */
export function eventInfo(snapshot: Snapshot, e: number): EventInfo {
  const ev = snapshot.events;
  const known = (v: number) => (v >= 0 ? v : null);
  return {
    id: ev.ids[e],
    name: ev.names[e],
    date: dayString(ev.startDay[e]),
    tier: EVENT_TIERS[ev.tier[e]],
    format: EVENT_FORMATS[ev.format[e]],
    participants: known(declaredParticipants(snapshot)[e]),
    country: ev.country[e] >= 0 ? snapshot.countries[ev.country[e]] : null,
    online: ev.online[e] < 0 ? null : ev.online[e] === 1,
    rulesVersion: ev.rulesVersion[e] >= 0 ? snapshot.rulesVersions[ev.rulesVersion[e]] : null,
    rounds: known(ev.rounds[e]),
    running: isRunning(snapshot, e),
    ...eventPlacements(snapshot, e),
  };
}

/** Standings row `i` as a player and faction. */
export function entryRef(snapshot: Snapshot, i: number): EntryRef {
  const st = snapshot.standings;
  const f = st.faction[i];
  return {
    player: playerRef(snapshot, st.player[i]),
    faction: f >= 0 ? factionRef(snapshot, f) : null,
  };
}

/** Standings rows of event `e` that pass `keep`, in placement order (then player id). */
export function eventEntries(
  snapshot: Snapshot,
  e: number,
  keep: (i: number) => boolean = () => true,
): number[] {
  const { standingStart } = eventIndex(snapshot);
  const st = snapshot.standings;
  const out: number[] = [];
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) if (keep(i)) out.push(i);
  // A running event's rows come in its order so far (its placements are none until it is over).
  const at = (i: number) => (st.placement[i] > 0 ? st.placement[i] : st.current[i]);
  const place = (i: number) => (at(i) > 0 ? at(i) : Number.MAX_SAFE_INTEGER);
  const id = (i: number) => snapshot.players[st.player[i]];
  return out.sort((a, b) => place(a) - place(b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/**
 * The index of event `id` in the system `system`; an id the data does not hold there is an
 * unknown-record DomainError (a 404, docs/problems.md) pointing at `pointer`.
 */
export function eventIndexOf(
  snapshot: Snapshot,
  system: number,
  id: string,
  pointer: string,
): number {
  const e = snapshot.events.idIndex.get(id);
  if (e === undefined || snapshot.events.system[e] !== system) {
    const where = `in system "${snapshot.systems[system].id}"`;
    throw new DomainError('unknown-record', `no event "${id}" ${where} in the data`, [
      { pointer, detail: `unknown event "${id}" ${where}` },
    ]);
  }
  return e;
}
