import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import { haversineKm } from '../../../src/engine/satellites/geo.ts';
import { escapeText, foldLine, satellitesCalendar } from '../../../src/engine/satellites/ics.ts';
import { upcomingSatellites } from '../../../src/engine/satellites/upcoming.ts';
import type { EventInfo, UpcomingQuery } from '../../../src/engine/satellites/upcoming.ts';

const PARIS = { lat: 48.8566, lon: 2.3522 };
const LONDON = { lat: 51.5074, lon: -0.1278 };
const BERLIN = { lat: 52.52, lon: 13.405 };

function event(id: string, overrides: Partial<EventInfo> = {}): EventInfo {
  return {
    id,
    system: 't9a',
    name: `Event ${id}`,
    start: '2030-05-01',
    end: null,
    status: 'scheduled',
    tier: 'satellite',
    qualifiesFor: 'major-1',
    slots: 2,
    participants: null,
    capacity: 40,
    country: 'FR',
    city: 'Paris',
    venue: 'Salle A',
    location: PARIS,
    online: false,
    url: `https://example.org/${id}`,
    registrationUrl: null,
    ...overrides,
  };
}

const EVENTS: EventInfo[] = [
  event('major-1', { tier: 'major', name: 'ETC 2030', start: '2030-08-01', qualifiesFor: null }),
  event('paris-june', { start: '2030-06-01' }),
  event('london-may', { start: '2030-05-01', country: 'GB', city: 'London', location: LONDON }),
  event('paris-may', { start: '2030-05-01' }),
  event('berlin-may', {
    start: '2030-05-01',
    country: 'DE',
    location: BERLIN,
    qualifiesFor: 'nope',
  }),
  event('cancelled', { status: 'cancelled' }),
  event('past', { start: '2020-01-01' }),
  event('done', { status: 'completed' }),
  event('standard', { tier: 'standard' }),
  event('kow', { system: 'kow', qualifiesFor: null }),
];

function query(overrides: Partial<UpcomingQuery> = {}): UpcomingQuery {
  return {
    system: 't9a',
    from: '2025-01-01',
    to: null,
    majors: [],
    countries: [],
    near: null,
    page: 1,
    pageSize: 50,
    ...overrides,
  };
}

describe('upcoming satellites engine', () => {
  it('lists scheduled satellites only, by start, with their major or null when it is unknown', () => {
    const result = upcomingSatellites(EVENTS, query());
    assert.deepEqual(
      result.events.map((e) => e.id),
      ['berlin-may', 'london-may', 'paris-may', 'paris-june'],
    );
    assert.equal(result.total, 4);
    assert.deepEqual(result.events[1].qualifiesFor, {
      id: 'major-1',
      name: 'ETC 2030',
      start: '2030-08-01',
    });
    assert.equal(result.events[0].qualifiesFor, null);
    assert.equal(result.events[0].distanceKm, null);
  });

  it('filters by window, majors, countries and system', () => {
    const ids = (q: Partial<UpcomingQuery>): string[] =>
      upcomingSatellites(EVENTS, query(q)).events.map((e) => e.id);
    assert.deepEqual(ids({ to: '2030-05-01', countries: ['fr', 'GB'] }), [
      'london-may',
      'paris-may',
    ]);
    assert.deepEqual(ids({ from: '2030-05-02' }), ['paris-june']);
    assert.deepEqual(ids({ majors: ['major-1'], countries: ['FR'] }), ['paris-may', 'paris-june']);
    assert.deepEqual(ids({ system: 'kow' }), ['kow']);
    assert.equal(ids({ system: null }).length, 5);
  });

  it('keeps events within the radius and sorts by start, then distance', () => {
    // From Brussels: Paris ≈ 264 km, London ≈ 320 km, Berlin ≈ 651 km.
    const brussels = { lat: 50.8503, lon: 4.3517 };
    const result = upcomingSatellites(EVENTS, query({ near: { ...brussels, radiusKm: 400 } }));
    assert.deepEqual(
      result.events.map((e) => e.id),
      ['paris-may', 'london-may', 'paris-june'],
    );
    assert.ok(Math.abs(result.events[0].distanceKm! - 264) < 2, `${result.events[0].distanceKm}`);
  });

  it('pages, answering an empty page past the end', () => {
    assert.deepEqual(
      upcomingSatellites(EVENTS, query({ page: 2, pageSize: 3 })).events.map((e) => e.id),
      ['paris-june'],
    );
    const beyond = upcomingSatellites(EVENTS, query({ page: 9, pageSize: 3 }));
    assert.deepEqual(beyond, { events: [], total: 4 });
  });

  it('measures great-circle distances (Paris–London ≈ 343.6 km)', () => {
    assert.ok(Math.abs(haversineKm(PARIS, LONDON) - 343.6) < 0.5);
    assert.equal(haversineKm(PARIS, PARIS), 0);
    assert.ok(Math.abs(haversineKm({ lat: 0, lon: 0 }, { lat: 0, lon: 180 }) - 20015.1) < 1);
  });
});

describe('iCalendar feed', () => {
  it('escapes TEXT and folds lines at 75 octets without splitting characters', () => {
    assert.equal(escapeText('a,b;c\\d\ne'), 'a\\,b\\;c\\\\d\\ne');
    const long = 'SUMMARY:' + 'é'.repeat(60);
    const folded = foldLine(long);
    for (const line of folded.split('\r\n')) {
      assert.ok(Buffer.byteLength(line) <= 75, `line of ${Buffer.byteLength(line)} octets`);
    }
    assert.equal(folded.replace(/\r\n /g, ''), long);
  });

  it('writes a calendar that ical.js parses back, one VEVENT per satellite', () => {
    const satellites = upcomingSatellites(
      [
        ...EVENTS,
        event('weird', {
          start: '2030-07-01',
          end: '2030-07-02',
          name: 'Spring, "Big"; Battle\\Bash\nDay two – très longue description '.repeat(2),
          registrationUrl: 'https://example.org/register?x=1,2',
        }),
      ],
      query(),
    ).events;
    const text = satellitesCalendar(satellites, { now: new Date('2030-01-02T03:04:05Z') });
    assert.ok(text.endsWith('\r\n'));
    assert.ok(!/[^\r]\n/.test(text), 'bare LF found');
    for (const line of text.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75);

    const calendar = new ICAL.Component(ICAL.parse(text));
    const vevents = calendar.getAllSubcomponents('vevent');
    assert.equal(vevents.length, satellites.length);
    const byUid = new Map(vevents.map((v) => [new ICAL.Event(v).uid, v]));
    const weird = new ICAL.Event(byUid.get('weird@muster')!);
    assert.equal(weird.summary, satellites.find((s) => s.id === 'weird')!.name);
    assert.equal(weird.startDate.toString(), '2030-07-01');
    assert.ok(weird.startDate.isDate);
    assert.equal(weird.endDate.toString(), '2030-07-03');
    assert.match(weird.description, /Qualifier for ETC 2030 \(2030-08-01\)/);
    assert.match(weird.description, /Qualifying slots: 2\nCapacity: 40/);
    assert.match(weird.description, /Registration: https:\/\/example.org\/register\?x=1,2/);
    assert.equal(weird.location, 'Salle A, Paris, FR');
    const paris = byUid.get('paris-may@muster')!;
    assert.deepEqual(paris.getFirstPropertyValue('geo'), [48.8566, 2.3522]);
    assert.equal(paris.getFirstPropertyValue('url'), 'https://example.org/paris-may');
    assert.equal(new ICAL.Event(paris).endDate.toString(), '2030-05-02');
    assert.equal(paris.getFirstPropertyValue('dtstamp')!.toString(), '2030-01-02T03:04:05Z');
    assert.match(new ICAL.Event(byUid.get('berlin-may@muster')!).description, /major unknown/);
  });
  it('writes only http(s) links into the calendar, whatever the satellites it is given hold', () => {
    const [paris] = upcomingSatellites([event('paris-may')], query()).events;
    const text = satellitesCalendar(
      [
        { ...paris, url: 'javascript:alert(26)', registrationUrl: 'vbscript:msgbox(26)' },
        { ...paris, id: 'reg', url: null, registrationUrl: 'https://example.org/register' },
      ],
      { now: new Date('2030-01-02T03:04:05Z') },
    );
    assert.doesNotMatch(text, /javascript:|vbscript:/);
    assert.deepEqual(
      text.split('\r\n').filter((l) => l.startsWith('URL:')),
      ['URL:https://example.org/register'],
    );
  });
});
