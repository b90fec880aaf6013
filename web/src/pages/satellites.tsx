/** Satellites: upcoming qualifiers, the majors they feed, distance from a place, the .ics feed. */
import { useState } from 'preact/hooks';
import { httpUrlOrNull } from '../../../src/domain/http-url.ts';
import { post } from '../api.ts';
import { CITIES } from '../cities.ts';
import { FileStem, TableCsv } from '../components/download.tsx';
import type { Column, CsvField } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Pager } from '../components/pager.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { fileStem } from '../csv.ts';
import { num } from '../format.ts';
import type { Satellite } from '../types.ts';
import { useApi } from '../use-api.ts';
import { listParam } from '../url-state.ts';
import type { PageProps } from './page-props.ts';

const PAGE_SIZE = 20;
const coordinate = (text: string | undefined, limit: number) => {
  const v = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(v) && Math.abs(v) <= limit ? v : null;
};

function Place({ params, update }: Pick<PageProps, 'params' | 'update'>) {
  const [lat, setLat] = useState(params.lat ?? '');
  const [lon, setLon] = useState(params.lon ?? '');
  const city =
    CITIES.find(([, a, b]) => String(a) === params.lat && String(b) === params.lon)?.[0] ?? '';
  return (
    <form
      class="controls"
      aria-label="Distance from"
      onSubmit={(e) => {
        e.preventDefault();
        update({ lat, lon, page: '' });
      }}
    >
      <label>
        Distance from
        <select
          value={city}
          onChange={(e) => {
            const c = CITIES.find(
              ([name]) => name === (e.currentTarget as HTMLSelectElement).value,
            );
            setLat(c ? String(c[1]) : '');
            setLon(c ? String(c[2]) : '');
            update({ lat: c ? String(c[1]) : '', lon: c ? String(c[2]) : '', page: '' });
          }}
        >
          <option value="">nowhere (no distance)</option>
          {CITIES.map(([name]) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        or latitude
        <input
          inputMode="decimal"
          size={8}
          value={lat}
          onInput={(e) => setLat((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label>
        longitude
        <input
          inputMode="decimal"
          size={8}
          value={lon}
          onInput={(e) => setLon((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label>
        within
        <select
          value={params.radius ?? ''}
          onChange={(e) =>
            update({ radius: (e.currentTarget as HTMLSelectElement).value, page: '' })
          }
        >
          <option value="">any distance</option>
          {[100, 250, 500, 1000, 2000].map((r) => (
            <option key={r} value={String(r)}>
              {r} km
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

/** The satellites as CSV: ids beside names, dates and distances as raw values. */
const SATELLITE_CSV: ReadonlyArray<CsvField<Satellite>> = [
  ['id', (e) => e.id],
  ['event', (e) => e.name],
  ['start', (e) => e.start],
  ['end', (e) => e.end],
  ['online', (e) => e.online],
  ['city', (e) => e.city],
  ['country', (e) => e.country],
  ['distanceKm', (e) => e.distanceKm],
  ['qualifiesForId', (e) => e.qualifiesFor?.id],
  ['qualifiesFor', (e) => e.qualifiesFor?.name],
  ['slots', (e) => e.slots],
  ['participants', (e) => e.participants],
  ['capacity', (e) => e.capacity],
  ['registrationUrl', (e) => e.registrationUrl],
];

const SATELLITE_COLUMNS: Array<Column<Satellite>> = [
  {
    key: 'date',
    label: 'Date',
    nowrap: true,
    sort: (e) => e.start,
    render: (e) => `${e.start}${e.end && e.end !== e.start ? ` – ${e.end.slice(5)}` : ''}`,
  },
  { key: 'event', label: 'Event', sort: (e) => e.name, render: (e) => <bdi>{e.name}</bdi> },
  {
    key: 'where',
    label: 'Where',
    optional: true,
    sort: (e) => (e.online ? 'online' : [e.city, e.country].filter(Boolean).join(', ') || null),
    render: (e) => (e.online ? 'online' : [e.city, e.country].filter(Boolean).join(', ') || '–'),
  },
  {
    key: 'distance',
    label: 'Distance',
    numeric: true,
    sort: (e) => e.distanceKm,
    render: (e) => (e.distanceKm === null ? '–' : `${num(e.distanceKm)} km`),
  },
  {
    key: 'major',
    label: 'Qualifies for',
    optional: true,
    sort: (e) => e.qualifiesFor?.name ?? null,
    render: (e) => (e.qualifiesFor ? <bdi>{e.qualifiesFor.name}</bdi> : '–'),
  },
  {
    key: 'slots',
    label: 'Slots',
    numeric: true,
    optional: true,
    sort: (e) => e.slots,
    render: (e) => e.slots ?? '–',
  },
  {
    key: 'players',
    label: 'Players',
    numeric: true,
    optional: true,
    sort: (e) => e.participants,
    render: (e) => `${e.participants ?? '–'}${e.capacity ? ` / ${e.capacity}` : ''}`,
  },
  {
    key: 'register',
    label: 'Register',
    render: (e) => {
      // Only an http(s) link is a link (docs/import-formats.md#links): never javascript: & co.
      const href = httpUrlOrNull(e.registrationUrl);
      return href ? (
        <a href={href} rel="noopener noreferrer external">
          register
        </a>
      ) : (
        '–'
      );
    },
  },
];

/**
 * One page of upcoming satellites, sortable within the page; the distance column only when a
 * place is chosen. Its CSV is the page's own (raw dates, ids and links), not the columns'.
 */
function SatelliteTable({ events, near }: { events: Satellite[]; near: boolean }) {
  const fields = SATELLITE_CSV.filter(([h]) => near || h !== 'distanceKm');
  return (
    <>
      <SortableTable
        caption="Upcoming satellite events, soonest first"
        captionHidden
        label="Upcoming satellites"
        columns={SATELLITE_COLUMNS.filter((c) => near || c.key !== 'distance')}
        rows={events}
        rowKey={(e) => e.id}
        rowHeader="event"
        download={false}
      />
      <TableCsv
        header={fields.map(([h]) => h)}
        rows={() => events.map((e) => fields.map(([, value]) => value(e)))}
      />
    </>
  );
}

export function SatellitesPage({ params, update, system }: PageProps) {
  const lat = coordinate(params.lat, 90);
  const lon = coordinate(params.lon, 180);
  const radius = Number(params.radius) > 0 ? Math.min(20040, Number(params.radius)) : 20040;
  const page = Math.max(1, Number(params.page) || 1);
  const countries = listParam(params, 'countries');
  const body = {
    ...(system ? { system: system.id } : {}),
    ...(countries.length ? { countries } : {}),
    ...(params.sfrom ? { from: params.sfrom } : {}),
    ...(params.sto ? { to: params.sto } : {}),
    ...(params.major ? { majors: [params.major] } : {}),
    ...(lat !== null && lon !== null ? { near: { lat, lon, radiusKm: radius } } : {}),
    page,
    pageSize: PAGE_SIZE,
  };
  const result = useApi(JSON.stringify(body), (signal) =>
    post('/api/upcoming-satellites', body, signal),
  );
  const ics = new URLSearchParams();
  if (system) ics.set('system', system.id);
  if (countries.length) ics.set('countries', countries.join(','));
  if (params.major) ics.set('majors', params.major);
  if (params.sfrom) ics.set('from', params.sfrom);
  if (params.sto) ics.set('to', params.sto);
  if (lat !== null && lon !== null) ics.set('near', `${lat},${lon},${radius}`);
  return (
    <>
      <Place params={params} update={update} />
      <p>
        <a
          class="button"
          href={`/api/upcoming-satellites.ics?${ics}`}
          download="muster-satellites.ics"
        >
          Subscribe: calendar feed (.ics)
        </a>{' '}
        <span class="note">
          The same events as below, for your calendar app. Dates and countries come from the filter
          bar.
        </span>
      </p>
      {/* The page's own filter names its file: its dates, the major, the place, the page. */}
      <FileStem.Provider
        value={fileStem(
          'satellites',
          { system: system?.id, countries, from: params.sfrom, to: params.sto },
          [
            ...(params.major ? [`for-${params.major}`] : []),
            ...(lat !== null && lon !== null ? [`near${lat},${lon},${radius}km`] : []),
            ...(page > 1 ? [`page${page}`] : []),
          ],
        )}
      >
        <Show result={result} what="upcoming satellites">
          {({ data, meta }) => {
            const majors = new Map(
              data.events.flatMap((e) =>
                e.qualifiesFor ? [[e.qualifiesFor.id, e.qualifiesFor.name]] : [],
              ),
            );
            return (
              <>
                <Warnings warnings={meta.warnings} />
                {(majors.size > 0 || params.major) && (
                  <div class="controls">
                    <label>
                      Qualifying for
                      <select
                        value={params.major ?? ''}
                        onChange={(e) =>
                          update({ major: (e.currentTarget as HTMLSelectElement).value, page: '' })
                        }
                      >
                        <option value="">any major</option>
                        {[...majors].map(([id, name]) => (
                          <option key={id} value={id}>
                            {name}
                          </option>
                        ))}
                        {params.major && !majors.has(params.major) && (
                          <option value={params.major}>{params.major}</option>
                        )}
                      </select>
                    </label>
                  </div>
                )}
                {data.events.length === 0 ? (
                  <Empty>No upcoming satellites match.</Empty>
                ) : (
                  <SatelliteTable events={data.events} near={lat !== null} />
                )}
                <Pager
                  page={page}
                  pageSize={PAGE_SIZE}
                  total={data.total}
                  what="events"
                  onPage={(p) => update({ page: String(p) })}
                />
              </>
            );
          }}
        </Show>
      </FileStem.Provider>
    </>
  );
}
