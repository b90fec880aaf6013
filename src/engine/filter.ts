/**
 * The common filter of every statistics route (docs/http-api.md#the-common-filter), normalised once
 * and resolved into a row range plus an event mask over the snapshot.
 */
import { declaredParticipants } from './events/event-index.ts';
import { dayNumber, dayString, isRealDate } from '../domain/calendar-day.ts';
import { EVENT_FORMATS, EVENT_TIERS } from '../domain/model.ts';
import { DomainError, invalidField, invalidFields } from '../domain/domain-error.ts';
import type { FieldError } from '../domain/domain-error.ts';
import type { CommonFilter, CommonFilterInput } from '../domain/common-filter.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { eventOrder, scopePositions } from './cube/event-order.ts';
import { eventsByDay, firstDayAtLeast } from './events/events-by-day.ts';
import type { Scope } from './scope.ts';

export type { CommonFilter, CommonFilterInput, FormatFilter } from '../domain/common-filter.ts';
export type { Scope } from './scope.ts';

/** Chooses the system: the one named, or the only one; several and none named is a 400. */
export function resolveSystem(snapshot: Snapshot, system: string | undefined): number {
  if (system !== undefined) {
    const index = snapshot.systemIndex.get(system);
    if (index === undefined) {
      const known = snapshot.systems.map((s) => s.id).join(', ') || 'none';
      throw invalidField('/system', `unknown system "${system}"; known systems: ${known}`);
    }
    return index;
  }
  if (snapshot.systems.length === 1) return 0;
  if (snapshot.systems.length === 0) {
    throw new DomainError('no-data', 'the store holds no game system yet; import data first');
  }
  const known = snapshot.systems.map((s) => s.id).join(', ');
  throw invalidField('/system', `the store holds several game systems; choose one of: ${known}`);
}

/**
 * Validates the parts a schema cannot (real dates, from <= to, min <= max) and fills defaults;
 * `prefix` leads the error pointers of a nested filter (e.g. "/compareTo").
 */
export function normaliseCommonFilter(
  snapshot: Snapshot,
  input: CommonFilterInput,
  prefix = '',
): CommonFilter {
  const errors: FieldError[] = [];
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value !== undefined && !isRealDate(value)) {
      errors.push({
        pointer: `${prefix}/${field}`,
        detail: `"${value}" is not a real date (YYYY-MM-DD)`,
      });
    }
  }
  if (errors.length === 0 && input.from !== undefined && input.to !== undefined) {
    if (input.from > input.to) {
      errors.push({
        pointer: `${prefix}/from`,
        detail: `from (${input.from}) is after to (${input.to})`,
      });
    }
  }
  if (
    input.minParticipants !== undefined &&
    input.maxParticipants !== undefined &&
    input.minParticipants > input.maxParticipants
  ) {
    errors.push({
      pointer: `${prefix}/minParticipants`,
      detail: `minParticipants (${input.minParticipants}) is above maxParticipants (${input.maxParticipants})`,
    });
  }
  if (errors.length > 0) {
    throw invalidFields(errors, 'invalid filter');
  }
  const system = snapshot.systems[resolveSystem(snapshot, input.system)].id;
  const unique = <T>(values: T[] | undefined): T[] => [...new Set(values ?? [])];
  return {
    system,
    from: input.from ?? null,
    to: input.to ?? null,
    minParticipants: input.minParticipants ?? null,
    maxParticipants: input.maxParticipants ?? null,
    format: input.format ?? 'all',
    tiers: unique(input.tiers),
    countries: unique((input.countries ?? []).map((c) => c.toUpperCase())),
    rulesVersions: unique(input.rulesVersions),
    eventIds: unique(input.eventIds),
    minRounds: input.minRounds ?? null,
    online: input.online ?? null,
  };
}

function firstRowFrom(snapshot: Snapshot, lo: number, hi: number, day: number): number {
  // Rows of a system are ordered by event start day; games are row pairs, so search games.
  const start = snapshot.events.startDay;
  let a = lo >> 1;
  let b = hi >> 1;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (start[snapshot.gameEvent[mid]] < day) a = mid + 1;
    else b = mid;
  }
  return a * 2;
}

/** Resolves a normalised filter into the candidate row range and the event mask. */
export function resolveScope(snapshot: Snapshot, filter: CommonFilter): Scope {
  const system = snapshot.systemIndex.get(filter.system) as number;
  const sys = snapshot.systems[system];
  const fromDay = filter.from === null ? null : dayNumber(filter.from);
  const toDay = filter.to === null ? null : dayNumber(filter.to);
  const rowStart =
    fromDay === null ? sys.rowStart : firstRowFrom(snapshot, sys.rowStart, sys.rowEnd, fromDay);
  // A window that ends before it starts (asOf before from, say) selects nothing: an empty
  // range, never a negative one, so every consumer sizes its arrays from end - start >= 0.
  const rowEnd = Math.max(
    rowStart,
    toDay === null ? sys.rowEnd : firstRowFrom(snapshot, sys.rowStart, sys.rowEnd, toDay + 1),
  );

  const ev = snapshot.events;
  const format = filter.format === 'all' ? -1 : EVENT_FORMATS.indexOf(filter.format);
  const tiers = new Set(filter.tiers.map((t) => EVENT_TIERS.indexOf(t)));
  const countries = new Set(filter.countries);
  const rules = new Set(filter.rulesVersions);
  const eventIds = new Set(filter.eventIds);
  const online = filter.online === null ? -1 : filter.online ? 1 : 0;
  const eventMask = new Uint8Array(ev.count);
  const declared = declaredParticipants(snapshot);
  // Only the system's events of the window: those outside it fail the filter anyway.
  const byDay = eventsByDay(snapshot);
  const first = byDay.systemStart[system];
  const last = byDay.systemStart[system + 1];
  const lo = fromDay === null ? first : firstDayAtLeast(byDay.days, first, last, fromDay);
  const hi = toDay === null ? last : firstDayAtLeast(byDay.days, lo, last, toDay + 1);
  for (let i = lo; i < hi; i++) {
    const e = byDay.events[i];
    const participants = declared[e];
    if (
      filter.minParticipants !== null &&
      (participants < 0 || participants < filter.minParticipants)
    )
      continue;
    if (
      filter.maxParticipants !== null &&
      (participants < 0 || participants > filter.maxParticipants)
    )
      continue;
    if (format >= 0 && ev.format[e] !== format) continue;
    if (tiers.size > 0 && !tiers.has(ev.tier[e])) continue;
    if (
      countries.size > 0 &&
      (ev.country[e] < 0 || !countries.has(snapshot.countries[ev.country[e]]))
    )
      continue;
    if (
      rules.size > 0 &&
      (ev.rulesVersion[e] < 0 || !rules.has(snapshot.rulesVersions[ev.rulesVersion[e]]))
    )
      continue;
    if (eventIds.size > 0 && !eventIds.has(ev.ids[e])) continue;
    if (filter.minRounds !== null && (ev.rounds[e] < 0 || ev.rounds[e] < filter.minRounds))
      continue;
    if (online >= 0 && ev.online[e] !== online) continue;
    eventMask[e] = 1;
  }
  return { system, rowStart, rowEnd, eventMask };
}

/** Resolves faction ids of the scope's system; an unknown id is a 400 naming it. */
export function resolveFactions(
  snapshot: Snapshot,
  system: number,
  ids: readonly string[] | undefined,
  pointer: string,
): number[] | null {
  if (ids === undefined || ids.length === 0) return null;
  const systemId = snapshot.systems[system].id;
  const errors: FieldError[] = [];
  const out: number[] = [];
  ids.forEach((id, i) => {
    let index = snapshot.factionIndex.get(`${systemId}\u0000${id}`);
    if (index === undefined) {
      const folded = id.toLowerCase();
      index = snapshot.systems[system].factions.find(
        (f) => snapshot.factions[f].id.toLowerCase() === folded,
      );
    }
    if (index === undefined) {
      errors.push({
        pointer: `${pointer}/${i}`,
        detail: `unknown faction "${id}" in system "${systemId}"`,
      });
    } else if (!out.includes(index)) out.push(index);
  });
  if (errors.length > 0) {
    throw new DomainError('invalid-query', errors.map((e) => e.detail).join('; '), errors);
  }
  return out;
}

/** Events with at least one game in scope and the number of such games (meta.sample). */
export function sampleOf(snapshot: Snapshot, scope: Scope): { events: number; games: number } {
  let games = 0;
  let events = 0;
  const order = eventOrder(snapshot);
  const { rowStart, event } = order;
  const mask = scope.eventMask;
  // One step per event in the window, not per game: every event in the order has games.
  const [start, end] = scopePositions(order, scope);
  for (let k = start; k < end; k++) {
    if (mask[event[k]] === 0) continue;
    events++;
    games += (rowStart[k + 1] - rowStart[k]) >> 1;
  }
  return { events, games };
}

export { dayString };
