/**
 * events (docs/statistics.md#events): the events a common filter keeps, one row each with its
 * winners and undefeated entries, optionally only those a faction won or went undefeated in, or
 * those a player played; with `event`, also that one event's page.
 */
import { DomainError, invalidField } from '../../domain/domain-error.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveFactions, resolveScope, sampleOf } from '../filter.ts';
import type { CommonFilter } from '../filter.ts';
import { entryRef, eventEntries, eventIndexOf, eventInfo } from './event-facts.ts';
import { playerIndexOf } from '../player-index.ts';
import type { EntryRef, EventInfo } from './event-facts.ts';
import { eventIndex } from './event-index.ts';
import { eventPage } from './event-page.ts';
import type { EventPage } from './event-page.ts';

export type EventSort = 'date' | 'entries' | 'name';

export interface EventListOptions {
  faction: string | null;
  player: string | null;
  event: string | null;
  sort: EventSort;
  page: number;
  pageSize: number;
}

export type EventListFilter = CommonFilter & EventListOptions;

export interface EventRow extends EventInfo {
  entries: number;
  /** Distinct players with a game in the event (its size when no count was declared). */
  players: number;
  games: number;
  winners: EntryRef[];
  undefeated: EntryRef[];
  /** With `player`: that player's placement (null when the event published none for them). */
  playerPlacement?: number | null;
}

export interface EventListData {
  events: EventRow[];
  total: number;
  page: number;
  pageSize: number;
  event?: EventPage;
}

export const NO_EVENTS_WARNING = 'no events match the filter';

/** The standings row of player `p` in event `e`, or -1. */
function entryOf(snapshot: Snapshot, e: number, p: number): number {
  const { standingStart } = eventIndex(snapshot);
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) {
    if (snapshot.standings.player[i] === p) return i;
  }
  return -1;
}

function eventRow(snapshot: Snapshot, e: number, player: number): EventRow {
  const st = snapshot.standings;
  const { standingStart, rowStart, rowEnd } = eventIndex(snapshot);
  const row: EventRow = {
    ...eventInfo(snapshot, e),
    entries: standingStart[e + 1] - standingStart[e],
    players: playersWhoPlayed(snapshot, e),
    games: (rowEnd[e] - rowStart[e]) >> 1,
    winners: eventEntries(snapshot, e, (i) => st.placement[i] === 1).map((i) =>
      entryRef(snapshot, i),
    ),
    undefeated: eventEntries(snapshot, e, (i) => st.undefeated[i] === 1).map((i) =>
      entryRef(snapshot, i),
    ),
  };
  if (player >= 0) {
    const i = entryOf(snapshot, e, player);
    row.playerPlacement = i >= 0 && st.placement[i] > 0 ? st.placement[i] : null;
  }
  return row;
}

/** The distinct players with a side in event `e` (sides of an unknown player left out). */
function playersWhoPlayed(snapshot: Snapshot, e: number): number {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  const seen = new Set<number>();
  for (let r = rowStart[e]; r < rowEnd[e]; r++)
    if (snapshot.player[r] >= 0) seen.add(snapshot.player[r]);
  return seen.size;
}

/** Whether faction `f` has an entry placed 1st or undefeated in event `e`. */
function factionShone(snapshot: Snapshot, e: number, f: number): boolean {
  const { standingStart } = eventIndex(snapshot);
  const st = snapshot.standings;
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) {
    if (st.faction[i] === f && (st.placement[i] === 1 || st.undefeated[i] === 1)) return true;
  }
  return false;
}

/** The faction index of `id` (case-insensitive); unknown is a 400 pointing at /faction. */
function factionOf(snapshot: Snapshot, system: number, id: string): number {
  try {
    return (resolveFactions(snapshot, system, [id], '/faction') as number[])[0];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw invalidField('/faction', error.fields[0]?.detail ?? error.message);
  }
}

/** The order of `sort` over event indices: newest first, most entries first, or by name. */
function compareEvents(snapshot: Snapshot, sort: EventSort) {
  const { ids, names, startDay } = snapshot.events;
  const { standingStart } = eventIndex(snapshot);
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byName = (a: number, b: number) => text(names[a], names[b]) || text(ids[a], ids[b]);
  const byDate = (a: number, b: number) => startDay[b] - startDay[a];
  const entries = (e: number) => standingStart[e + 1] - standingStart[e];
  if (sort === 'name') return byName;
  if (sort === 'entries') {
    return (a: number, b: number) => entries(b) - entries(a) || byDate(a, b) || byName(a, b);
  }
  return (a: number, b: number) => byDate(a, b) || byName(a, b);
}

/**
 * One page of the events `common` keeps that have an entry or a game (docs/statistics.md#events),
 * newest first by default; with `event`, also that event's page whatever the filter keeps
 * besides its system (an event of another system or none is a 404).
 */
export function eventList(
  snapshot: Snapshot,
  common: CommonFilter,
  options: EventListOptions,
): EngineResult<EventListData, EventListFilter> {
  const scope = resolveScope(snapshot, common);
  const faction =
    options.faction === null ? -1 : factionOf(snapshot, scope.system, options.faction);
  const player = options.player === null ? -1 : playerIndexOf(snapshot, options.player, '/player');
  const page =
    options.event === null
      ? undefined
      : eventPage(snapshot, eventIndexOf(snapshot, scope.system, options.event, '/event'));
  const { standingStart, rowStart, rowEnd } = eventIndex(snapshot);
  const kept: number[] = [];
  for (let e = 0; e < snapshot.events.count; e++) {
    if (scope.eventMask[e] !== 1) continue;
    if (standingStart[e + 1] === standingStart[e] && rowEnd[e] === rowStart[e]) continue;
    if (faction >= 0 && !factionShone(snapshot, e, faction)) continue;
    if (player >= 0 && entryOf(snapshot, e, player) < 0) continue;
    kept.push(e);
  }
  kept.sort(compareEvents(snapshot, options.sort));
  const { page: n, pageSize } = options;
  const data: EventListData = {
    // Rows only for this page: its winners and undefeated entries are sorted per event.
    events: kept.slice((n - 1) * pageSize, n * pageSize).map((e) => eventRow(snapshot, e, player)),
    total: kept.length,
    page: n,
    pageSize,
  };
  if (page !== undefined) data.event = page;
  return {
    data,
    filter: { ...common, ...options, faction: faction >= 0 ? snapshot.factions[faction].id : null },
    sample: sampleOf(snapshot, scope),
    warnings: kept.length === 0 ? [NO_EVENTS_WARNING] : [],
  };
}
