/**
 * Upcoming satellites (docs/statistics.md#upcoming-satellites): scheduled satellite events from a
 * date on, filtered by system, majors, countries and distance, sorted by start then distance.
 * Pure: the caller hands in plain event records (the snapshot holds completed events only).
 */
import { haversineKm } from './geo.ts';
import type { LatLon } from './geo.ts';
import type { EventRecord } from '../../domain/event-record.ts';
import { httpUrlOrNull } from '../../domain/http-url.ts';

/** The event fields this module reads (a plain copy of the store's events). */
export type EventInfo = EventRecord;

export interface NearQuery extends LatLon {
  radiusKm: number;
}

export interface UpcomingQuery {
  system: string | null;
  /** Inclusive YYYY-MM-DD on the start date. */
  from: string;
  to: string | null;
  majors: string[];
  /** Upper-case ISO 3166-1 alpha-2 codes. */
  countries: string[];
  near: NearQuery | null;
  page: number;
  pageSize: number;
}

export interface MajorRef {
  id: string;
  name: string;
  start: string;
}

export interface UpcomingSatellite {
  id: string;
  system: string;
  name: string;
  start: string;
  end: string | null;
  status: string;
  country: string | null;
  city: string | null;
  venue: string | null;
  location: LatLon | null;
  /** Great-circle km from `near`; null without `near`. */
  distanceKm: number | null;
  online: boolean | null;
  qualifiesFor: MajorRef | null;
  slots: number | null;
  participants: number | null;
  capacity: number | null;
  registrationUrl: string | null;
  url: string | null;
}

export interface UpcomingResult {
  events: UpcomingSatellite[];
  total: number;
}

/** Every satellite matching `query` (all pages), in answer order. */
export function matchSatellites(
  events: readonly EventInfo[],
  query: Omit<UpcomingQuery, 'page' | 'pageSize'>,
): UpcomingSatellite[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const majors = new Set(query.majors);
  const countries = new Set(query.countries.map((c) => c.toUpperCase()));
  const out: UpcomingSatellite[] = [];
  for (const e of events) {
    if (e.tier !== 'satellite' || e.status !== 'scheduled') continue;
    if (query.system !== null && e.system !== query.system) continue;
    if (e.start < query.from) continue;
    if (query.to !== null && e.start > query.to) continue;
    if (majors.size > 0 && (e.qualifiesFor === null || !majors.has(e.qualifiesFor))) continue;
    if (countries.size > 0 && (e.country === null || !countries.has(e.country.toUpperCase()))) {
      continue;
    }
    let distanceKm: number | null = null;
    if (query.near !== null) {
      // An event without coordinates cannot be said to be near anything.
      if (e.location === null) continue;
      distanceKm = haversineKm(query.near, e.location);
      if (distanceKm > query.near.radiusKm) continue;
    }
    const major = e.qualifiesFor === null ? undefined : byId.get(e.qualifiesFor);
    out.push({
      id: e.id,
      system: e.system,
      name: e.name,
      start: e.start,
      end: e.end,
      status: e.status,
      country: e.country,
      city: e.city,
      venue: e.venue,
      location: e.location,
      distanceKm,
      online: e.online,
      qualifiesFor:
        major === undefined ? null : { id: major.id, name: major.name, start: major.start },
      slots: e.slots,
      participants: e.participants,
      capacity: e.capacity,
      // Links stored before imports checked them are answered only when http(s).
      registrationUrl: httpUrlOrNull(e.registrationUrl),
      url: httpUrlOrNull(e.url),
    });
  }
  out.sort(
    (a, b) =>
      (a.start < b.start ? -1 : a.start > b.start ? 1 : 0) ||
      (a.distanceKm ?? 0) - (b.distanceKm ?? 0) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return out;
}

/** One page of matching satellites and the total; a page past the end is empty. */
export function upcomingSatellites(
  events: readonly EventInfo[],
  query: UpcomingQuery,
): UpcomingResult {
  const all = matchSatellites(events, query);
  const offset = (query.page - 1) * query.pageSize;
  return { events: all.slice(offset, offset + query.pageSize), total: all.length };
}
