/**
 * Events: every event the common filter keeps (POST /api/events, docs/http-api.md#events), with
 * its date, size, format, country, rules version and winner where it has a placing; sortable,
 * searchable by name, paged, each event a link to its page.
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { EventLink, PlayerLink } from '../components/entity-link.tsx';
import { SearchBox } from '../components/search-box.tsx';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { Empty, Show, Warnings } from '../components/status.tsx';
import { playerName } from '../format.ts';
import type { CommonFilter } from '../types.ts';
import { useApi } from '../use-api.ts';
import type { PageProps } from './page-props.ts';

type EventsAnswer = AnswerOf<'/api/events'>;
type EventRow = EventsAnswer['data']['events'][number];

/** The route's largest page (src/http/plugins/limits.ts): the list is fetched whole, in pages. */
const FETCH_SIZE = 200;
const PAGE_SIZE = 50;

/** Every event the filter keeps, one request per 200, so the table sorts and pages them all. */
async function allEvents(
  filter: CommonFilter,
  signal: AbortSignal,
): Promise<{ events: EventRow[]; warnings: string[] }> {
  const events: EventRow[] = [];
  let warnings: string[] = [];
  for (let page = 1; ; page++) {
    const answer = await post('/api/events', { ...filter, page, pageSize: FETCH_SIZE }, signal);
    events.push(...answer.data.events);
    if (page === 1) warnings = answer.meta.warnings;
    if (events.length >= answer.data.total || answer.data.events.length === 0) break;
  }
  return { events, warnings };
}

/** Its size as played, and the count it declared where that differs (null: none given). */
function Size({ e }: { e: EventRow }) {
  return (
    <>
      {e.players}
      {e.participants !== null && e.participants !== e.players && (
        <small class="secondary"> of {e.participants} declared</small>
      )}
    </>
  );
}

/** Individual winners: a team event ranks teams, not players, whatever placing a row holds. */
const winnersOf = (e: EventRow) => (e.format === 'teams' ? [] : e.winners);

/** Its winners as the answer places them; none placed 1st: a dash, never a guess. */
function Winners({ e }: { e: EventRow }) {
  if (e.format === 'teams') return <span class="secondary">team event</span>;
  if (e.running)
    return (
      <span
        class="secondary"
        title="A round is in progress: no winner until the last game is played"
      >
        running
      </span>
    );
  if (e.winners.length === 0) return <span title="No placing for this event">–</span>;
  return (
    <>
      {e.winners.map((w, i) => (
        <span key={w.player.id}>
          {i > 0 && ', '}
          <PlayerLink player={w.player} />
          {w.faction && (
            <small class="secondary">
              {' '}
              <bdi>{w.faction.name}</bdi>
            </small>
          )}
        </span>
      ))}
      {e.placements === 'derived' && (
        <small class="secondary" title={`Derived from the games by ${e.placementRule ?? 'a rule'}`}>
          {' '}
          (derived)
        </small>
      )}
    </>
  );
}

const COLUMNS: Array<Column<EventRow>> = [
  {
    key: 'event',
    label: 'Event',
    sort: (e) => e.name.toLowerCase(),
    csv: [
      ['eventId', (e) => e.id],
      ['event', (e) => e.name],
      ['running', (e) => e.running],
    ],
    render: (e) => (
      <>
        <EventLink event={e} />
        {e.running && <span class="badge running"> running</span>}
      </>
    ),
    testId: 'event-name',
  },
  {
    key: 'date',
    label: 'Date',
    sort: (e) => e.date,
    nowrap: true,
    render: (e) => e.date,
    testId: 'event-date',
  },
  {
    key: 'players',
    label: 'Players',
    numeric: true,
    title: 'Players with a game there; "of N declared" where the event gave another count',
    sort: (e) => e.players,
    csv: [
      ['players', (e) => e.players],
      ['participantsDeclared', (e) => e.participants],
    ],
    render: (e) => <Size e={e} />,
    testId: 'event-players',
  },
  {
    key: 'games',
    label: 'Games',
    numeric: true,
    optional: true,
    sort: (e) => e.games,
    render: (e) => e.games,
  },
  {
    key: 'format',
    label: 'Format',
    optional: true,
    sort: (e) => e.format,
    render: (e) => e.format,
  },
  {
    key: 'country',
    label: 'Country',
    optional: true,
    hideEmpty: true,
    sort: (e) => e.country ?? (e.online ? 'online' : null),
    render: (e) => e.country ?? (e.online ? 'online' : '–'),
  },
  {
    key: 'rules',
    label: 'Rules',
    optional: true,
    hideEmpty: true,
    sort: (e) => e.rulesVersion,
    render: (e) => e.rulesVersion ?? '–',
  },
  {
    key: 'winner',
    label: 'Winner',
    optional: true,
    testId: 'event-winner',
    title:
      'Placed 1st: published by the source, or derived from the games by the system\'s rule (marked "derived"); a dash where the event has no placings; none yet while the event is running; a team event has no individual winner',
    sort: (e) => {
      const first = winnersOf(e)[0];
      return first ? playerName(first.player) : null;
    },
    csv: [
      [
        'winnerIds',
        (e) =>
          winnersOf(e)
            .map((w) => w.player.id)
            .join(' '),
      ],
      [
        'winners',
        (e) =>
          winnersOf(e)
            .map((w) => playerName(w.player))
            .join('; '),
      ],
    ],
    render: (e) => <Winners e={e} />,
  },
];

export function EventsPage({ params, update, filter }: PageProps) {
  const result = useApi(JSON.stringify(filter), (signal) => allEvents(filter, signal));
  const text = (params.q ?? '').toLowerCase();
  return (
    <>
      <div class="controls">
        <SearchBox
          label="Event name"
          value={params.q ?? ''}
          onSearch={(q) => update({ q }, true)}
        />
      </div>
      <Show result={result} what="events">
        {({ events, warnings }) => {
          const rows = text ? events.filter((e) => e.name.toLowerCase().includes(text)) : events;
          return (
            <>
              <Warnings warnings={warnings} />
              {rows.length === 0 ? (
                <Empty>No events match {text ? `"${params.q}" and ` : ''}these filters.</Empty>
              ) : (
                <SortableTable
                  caption={`${rows.length} events; each name opens its page, each heading sorts by it`}
                  label="Events"
                  columns={COLUMNS}
                  rows={rows}
                  rowKey={(e) => e.id}
                  initialSort={{ key: 'date', desc: true }}
                  pageSize={PAGE_SIZE}
                  rowsWhat="events"
                  name="events"
                  testId="events-table"
                />
              )}
            </>
          );
        }}
      </Show>
    </>
  );
}
