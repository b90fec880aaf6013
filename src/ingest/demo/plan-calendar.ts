/**
 * The demo calendar: which events happen when and where, how large, in which format and tier
 * (docs/operations.md). Majors come first, then two years of completed events,
 * the coming months' satellites and one event being played today. The order of random draws is
 * part of the demo's determinism: the same seed gives the same calendar.
 */
import type { EventFormat, EventStatus, EventTier } from '../../domain/model.ts';
import { COUNTRIES, EVENT_SUFFIXES, VENUE_KINDS } from './demo-catalogue.ts';
import type { DemoCountry } from './demo-catalogue.ts';
import type { Rng } from './rng.ts';

const COMPLETED_EVENTS = 150;

export interface Plan {
  /** Week offset of the weekend from today's weekend (negative: past). */
  week: number;
  start: number;
  days: number;
  status: EventStatus;
  format: EventFormat;
  tier: EventTier;
  /** Key of the major it qualifies for (satellites) or its own key (majors). */
  majorKey: string | null;
  name: string;
  size: number;
  teamSize: number | null;
  capacity: number | null;
  rounds: number;
  pointsLimit: number;
  country: DemoCountry;
  city: string;
  lat: number;
  lon: number;
  venue: string | null;
  online: boolean;
  detailed: boolean;
  /** Share of players drawn from the host country. */
  local: number;
  id?: string;
}

interface Major {
  key: string;
  week: number;
  format: EventFormat;
}

/** Random draws shared by every kind of event on the calendar. */
interface CalendarTools {
  rng: Rng;
  saturday: number;
  place(country: DemoCountry): { country: DemoCountry; city: string; lat: number; lon: number };
  venue(city: string): string;
  evenSize(min: number, max: number): number;
  roundsFor(size: number): number;
  countryWeights: number[];
  bigCountries: DemoCountry[];
}

function calendarTools(rng: Rng, saturday: number): CalendarTools {
  return {
    rng,
    saturday,
    place: (country) => {
      const city = rng.pick(country.cities);
      return { country, city: city.city, lat: city.lat, lon: city.lon };
    },
    venue: (city) => `${city} ${rng.pick(VENUE_KINDS)}`,
    evenSize: (min, max) => 2 * rng.int(min / 2, max / 2),
    roundsFor: (size) =>
      size <= 12 ? 3 : size <= 20 ? rng.int(3, 4) : size <= 40 ? rng.int(4, 5) : rng.int(5, 6),
    countryWeights: COUNTRIES.map((c) => c.weight),
    bigCountries: COUNTRIES.filter((c) => c.weight >= 4),
  };
}

// Majors: two singles Masters and two team championships in the past, one of each to come.
const MAJORS: Major[] = [
  { key: 'masters-1', week: -86, format: 'singles' },
  { key: 'teams-1', week: -64, format: 'teams' },
  { key: 'masters-2', week: -34, format: 'singles' },
  { key: 'teams-2', week: -12, format: 'teams' },
  { key: 'teams-3', week: 17, format: 'teams' },
  { key: 'masters-3', week: 26, format: 'singles' },
];

const nextMajor = (week: number, format: EventFormat): Major | undefined =>
  MAJORS.find((m) => m.format === format && m.week > week);

function planMajors(t: CalendarTools): Plan[] {
  const { rng } = t;
  return MAJORS.map((m) => {
    const where = t.place(rng.pick(t.bigCountries));
    const teams = m.format === 'teams';
    const teamSize = teams ? 5 : null;
    const size = teams ? 5 * t.evenSize(16, 24) : t.evenSize(90, 120);
    const past = m.week < 0;
    return {
      week: m.week,
      start: t.saturday + m.week * 7 - 1,
      days: 3,
      status: past ? 'completed' : 'scheduled',
      format: m.format,
      tier: 'major',
      majorKey: m.key,
      name: `Demo Fantasy ${teams ? 'Team Championship' : 'Masters'} ${where.city}`,
      size: past ? size : Math.round(size * (0.3 + rng.next() * 0.4)),
      teamSize,
      capacity: past ? size : 160,
      rounds: teams ? 5 : 6,
      pointsLimit: 4500,
      ...where,
      venue: `${where.city} Convention Centre`,
      online: false,
      detailed: true,
      local: 0.25,
    };
  });
}

/** Players, team size and rounds of a past event of the given kind. */
function pastEventSize(
  t: CalendarTools,
  teams: boolean,
  satellite: boolean,
  isOnline: boolean,
): { size: number; teamSize: number | null; rounds: number } {
  const { rng, evenSize } = t;
  if (teams) {
    const teamSize = rng.pick([3, 4, 5, 5]);
    const teamCount = evenSize(4, satellite ? 12 : 10);
    return {
      size: teamSize * teamCount,
      teamSize,
      rounds: Math.min(5, Math.max(3, teamCount - 1)),
    };
  }
  let size: number;
  if (satellite) {
    size = rng.pick([evenSize(16, 30), evenSize(32, 50), evenSize(32, 50), evenSize(52, 80)]);
  } else if (isOnline) {
    size = evenSize(16, 32);
  } else {
    size = [evenSize(8, 16), evenSize(18, 30), evenSize(32, 50), evenSize(52, 70)][
      rng.weighted([35, 40, 20, 5])
    ];
  }
  return { size, teamSize: null, rounds: t.roundsFor(size) };
}

function planPastEvents(t: CalendarTools): Plan[] {
  const { rng } = t;
  const plans: Plan[] = [];
  const majorWeeks = new Set(MAJORS.map((m) => m.week));
  let online = 0;
  const pastMajors = MAJORS.filter((m) => m.week < 0).length;
  for (let k = pastMajors; k < COMPLETED_EVENTS; k++) {
    let week = rng.int(-103, -1);
    while (majorWeeks.has(week)) week = rng.int(-103, -1);
    const teams = rng.chance(0.12);
    const format: EventFormat = teams ? 'teams' : 'singles';
    const major = nextMajor(week, format);
    const satellite = major !== undefined && major.week - week <= 40 && rng.chance(0.4);
    const isOnline = !teams && !satellite && online < 6 && rng.chance(0.06);
    if (isOnline) online++;
    const { size, teamSize, rounds } = pastEventSize(t, teams, satellite, isOnline);
    const where = t.place(COUNTRIES[rng.weighted(t.countryWeights)]);
    const oneDay = rounds <= 3;
    const pointsLimit = teams
      ? 4000
      : size <= 16 && rng.chance(0.3)
        ? 3000
        : rng.chance(0.2)
          ? 4000
          : 4500;
    const label = rng.pick(EVENT_SUFFIXES);
    plans.push({
      week,
      start: t.saturday + week * 7 + (oneDay && rng.chance(0.3) ? 1 : 0),
      days: oneDay ? 1 : 2,
      status: 'completed',
      format,
      tier: satellite ? 'satellite' : 'standard',
      majorKey: satellite ? major.key : null,
      name: isOnline
        ? `${where.country.code} Online ${label}`
        : `${where.city} ${teams ? 'Team ' : ''}${label}${satellite ? ' (Masters Qualifier)' : ''}`,
      size,
      teamSize,
      capacity: isOnline ? null : Math.max(size, 8 * Math.ceil(size / 8)),
      rounds,
      pointsLimit,
      ...where,
      venue: isOnline ? 'Online (Tabletop Simulator)' : t.venue(where.city),
      online: isOnline,
      detailed: rng.chance(0.88),
      local: isOnline ? 0.2 : satellite ? 0.7 : 0.85,
    });
  }
  return plans;
}

// The coming months: satellites of the two scheduled majors, one cancelled, a few others.
function planUpcoming(t: CalendarTools): Plan[] {
  const { rng } = t;
  const upcoming: { week: number; format: EventFormat; tier: EventTier; status: EventStatus }[] =
    [];
  for (let i = 0; i < 8; i++)
    upcoming.push({
      week: rng.int(2, 23),
      format: 'singles',
      tier: 'satellite',
      status: 'scheduled',
    });
  for (let i = 0; i < 3; i++)
    upcoming.push({
      week: rng.int(2, 14),
      format: 'teams',
      tier: 'satellite',
      status: 'scheduled',
    });
  upcoming.push({ week: 6, format: 'singles', tier: 'satellite', status: 'cancelled' });
  upcoming.push({ week: 3, format: 'singles', tier: 'standard', status: 'scheduled' });
  upcoming.push({ week: 9, format: 'singles', tier: 'standard', status: 'scheduled' });
  return upcoming.map((u) => {
    const where = t.place(COUNTRIES[rng.weighted(t.countryWeights)]);
    const teams = u.format === 'teams';
    const capacity = teams ? 5 * rng.int(6, 12) : 8 * rng.int(3, 8);
    const major = u.tier === 'satellite' ? nextMajor(u.week, u.format) : undefined;
    const label = rng.pick(EVENT_SUFFIXES);
    const qualifier = major
      ? teams
        ? ' (Team Championship Qualifier)'
        : ' (Masters Qualifier)'
      : '';
    return {
      week: u.week,
      start: t.saturday + u.week * 7,
      days: 2,
      status: u.status,
      format: u.format,
      tier: u.tier,
      majorKey: major?.key ?? null,
      name: `${where.city} ${teams ? 'Team ' : ''}${label}${qualifier}`,
      size: Math.round(capacity * rng.next() * 0.8),
      teamSize: teams ? 5 : null,
      capacity,
      rounds: 5,
      pointsLimit: teams ? 4000 : 4500,
      ...where,
      venue: t.venue(where.city),
      online: false,
      detailed: true,
      local: 0.8,
    };
  });
}

// One event is being played right now.
function planOngoing(t: CalendarTools, today: number): Plan {
  const { rng } = t;
  const where = t.place(rng.pick(t.bigCountries));
  return {
    week: 0,
    start: today - 1,
    days: 3,
    status: 'ongoing',
    format: 'singles',
    tier: 'standard',
    majorKey: null,
    name: `${where.city} ${rng.pick(EVENT_SUFFIXES)}`,
    size: t.evenSize(24, 40),
    teamSize: null,
    capacity: 40,
    rounds: 6,
    pointsLimit: 4500,
    ...where,
    venue: t.venue(where.city),
    online: false,
    detailed: true,
    local: 0.8,
  };
}

/** Plans every demo event around `today` (days since the epoch), in a fixed order of draws. */
export function planCalendar(rng: Rng, saturday: number, today: number): Plan[] {
  const t = calendarTools(rng, saturday);
  const plans = [...planMajors(t), ...planPastEvents(t)];
  for (const p of plans) {
    if (p.tier === 'satellite' && p.format === 'teams')
      p.name = p.name.replace('Masters', 'Team Championship');
  }
  return [...plans, ...planUpcoming(t), planOngoing(t, today)];
}
