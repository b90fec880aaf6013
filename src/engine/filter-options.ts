/**
 * The values each common-filter field can take in the data served, with how many events and
 * games each keeps (docs/http-api.md#filter-values): what a client's filter bar offers, so that
 * it never offers a value that selects nothing. Derived from the snapshot once per data version.
 */
import { declaredParticipants } from './events/event-index.ts';
import { dayString } from '../domain/calendar-day.ts';
import { EVENT_FORMATS, EVENT_TIERS } from '../domain/model.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { snapshotData } from './snapshot-cache.ts';

/** Event sizes a filter bar offers as "at least N participants". */
export const SIZE_THRESHOLDS = [8, 16, 24, 32, 48, 64, 100] as const;

export interface ValueCount<T> {
  value: T;
  events: number;
  games: number;
}

export interface SystemFilterOptions {
  id: string;
  name: string;
  /** Generated demo data, not real results (docs/import-formats.md#game-systems). */
  demo: boolean;
  events: number;
  games: number;
  /** Earliest and latest start date of an event with a game; null without games. */
  from: string | null;
  to: string | null;
  /** Factions with at least one side, by name; sides counts both sides of a mirror. */
  factions: Array<{ id: string; name: string; sides: number }>;
  /** Players with a game in the system, and how many the data names (0: anonymous ids only). */
  players: { total: number; named: number };
  participants: {
    min: number | null;
    max: number | null;
    unknownEvents: number;
    atLeast: Array<{ minParticipants: number; events: number; games: number }>;
  };
  formats: Array<ValueCount<string>>;
  tiers: Array<ValueCount<string>>;
  countries: Array<ValueCount<string>>;
  /** Each with its first and last event start date: a rules update is a date cut. */
  rulesVersions: Array<ValueCount<string> & DateSpan>;
  online: Array<ValueCount<boolean>>;
}

/** The first and last start date (YYYY-MM-DD) of the events a value keeps. */
export interface DateSpan {
  from: string;
  to: string;
}

export interface FilterOptions {
  systems: SystemFilterOptions[];
}

/** Counts events and games by a per-event key; key -1 (unknown) is left out. */
function countBy(
  events: readonly number[],
  gamesOf: Int32Array,
  key: (event: number) => number,
): Map<number, { events: number; games: number }> {
  const counts = new Map<number, { events: number; games: number }>();
  for (const e of events) {
    const k = key(e);
    if (k < 0) continue;
    const c = counts.get(k) ?? { events: 0, games: 0 };
    c.events += 1;
    c.games += gamesOf[e];
    counts.set(k, c);
  }
  return counts;
}

function listed<T, E extends object = object>(
  counts: Map<number, { events: number; games: number }>,
  value: (k: number) => T,
  extra?: (k: number) => E,
): Array<ValueCount<T> & E> {
  return [...counts]
    .map(([k, c]) => ({ value: value(k), ...c, ...(extra?.(k) as E) }))
    .sort((a, b) => b.games - a.games || String(a.value).localeCompare(String(b.value)));
}

/** The first and last start day of the events of each per-event key; key -1 is left out. */
function spanBy(events: readonly number[], startDay: Int32Array, key: (event: number) => number) {
  const spans = new Map<number, { first: number; last: number }>();
  for (const e of events) {
    const k = key(e);
    if (k < 0) continue;
    const span = spans.get(k) ?? { first: Infinity, last: -Infinity };
    span.first = Math.min(span.first, startDay[e]);
    span.last = Math.max(span.last, startDay[e]);
    spans.set(k, span);
  }
  return (k: number): DateSpan => {
    const span = spans.get(k)!;
    return { from: dayString(span.first), to: dayString(span.last) };
  };
}

function systemOptions(snapshot: Snapshot, s: number, gamesOf: Int32Array): SystemFilterOptions {
  const ev = snapshot.events;
  const system = snapshot.systems[s];
  const events: number[] = [];
  for (let e = 0; e < ev.count; e++) if (ev.system[e] === s && gamesOf[e] > 0) events.push(e);
  let games = 0;
  let first = Infinity;
  let last = -Infinity;
  let min = Infinity;
  let max = -Infinity;
  let unknownEvents = 0;
  // A count the source left out (0, or fewer than played) is unknown, as the filter reads it.
  const declared = declaredParticipants(snapshot);
  for (const e of events) {
    games += gamesOf[e];
    first = Math.min(first, ev.startDay[e]);
    last = Math.max(last, ev.startDay[e]);
    const p = declared[e];
    if (p < 0) unknownEvents += 1;
    else {
      min = Math.min(min, p);
      max = Math.max(max, p);
    }
  }
  const factionSides = new Map<number, number>();
  const seen = new Set<number>();
  for (let r = system.rowStart; r < system.rowEnd; r++) {
    const f = snapshot.faction[r];
    factionSides.set(f, (factionSides.get(f) ?? 0) + 1);
    if (snapshot.player[r] >= 0) seen.add(snapshot.player[r]);
  }
  let named = 0;
  for (const p of seen) if (snapshot.playerNames[p]?.trim()) named++;
  const atLeast = SIZE_THRESHOLDS.map((n) => {
    const kept = events.filter((e) => declared[e] >= n);
    return {
      minParticipants: n,
      events: kept.length,
      games: kept.reduce((sum, e) => sum + gamesOf[e], 0),
    };
  }).filter((band) => band.events > 0);
  return {
    id: system.id,
    name: system.name,
    demo: system.demo,
    events: events.length,
    games,
    from: events.length > 0 ? dayString(first) : null,
    to: events.length > 0 ? dayString(last) : null,
    factions: system.factions
      .map((f) => ({
        id: snapshot.factions[f].id,
        name: snapshot.factions[f].name,
        sides: factionSides.get(f) ?? 0,
      }))
      .filter((f) => f.sides > 0)
      .sort((a, b) => a.name.localeCompare(b.name)),
    players: { total: seen.size, named },
    participants: {
      min: Number.isFinite(min) ? min : null,
      max: Number.isFinite(max) ? max : null,
      unknownEvents,
      atLeast,
    },
    formats: listed(
      countBy(events, gamesOf, (e) => ev.format[e]),
      (k) => EVENT_FORMATS[k],
    ),
    tiers: listed(
      countBy(events, gamesOf, (e) => ev.tier[e]),
      (k) => EVENT_TIERS[k],
    ),
    countries: listed(
      countBy(events, gamesOf, (e) => ev.country[e]),
      (k) => snapshot.countries[k],
    ),
    rulesVersions: listed(
      countBy(events, gamesOf, (e) => ev.rulesVersion[e]),
      (k) => snapshot.rulesVersions[k],
      spanBy(events, ev.startDay, (e) => ev.rulesVersion[e]),
    ),
    online: listed(
      countBy(events, gamesOf, (e) => ev.online[e]),
      (k) => k === 1,
    ),
  };
}

/**
 * Every system's filter values with their event and game counts, over events with at least one
 * game (docs/http-api.md#filter-values); built once per snapshot.
 */
export const filterOptions = snapshotData('filter-options', (snapshot): FilterOptions => {
  const gamesOf = new Int32Array(snapshot.events.count);
  for (let g = 0; g < snapshot.games; g++) gamesOf[snapshot.gameEvent[g]] += 1;
  return { systems: snapshot.systems.map((_, s) => systemOptions(snapshot, s, gamesOf)) };
});
