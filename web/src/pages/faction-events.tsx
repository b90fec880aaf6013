/**
 * A faction's event wins and X-0 runs, event by event, from POST /api/events with `faction`
 * (docs/http-api.md): each event a link to its page, with the faction's winners and undefeated
 * entries linked to their players' pages.
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import type { Column } from '../components/sortable-table.tsx';
import { SortableTable } from '../components/sortable-table.tsx';
import { EventLink, PlayerLink } from '../components/entity-link.tsx';
import { Pager } from '../components/pager.tsx';
import { Empty, Show } from '../components/status.tsx';
import type { CommonFilter } from '../types.ts';
import { isolate, playerName } from '../format.ts';
import { useApi } from '../use-api.ts';

type FactionEvent = AnswerOf<'/api/events'>['data']['events'][number];
type Entry = FactionEvent['winners'][number];

const PAGE_SIZE = 10;

/** Several players in one CSV field: ids, and names (an id where the data has no name). */
const ids = (entries: Entry[]) => entries.map((e) => e.player.id).join(' ');
const names = (entries: Entry[]) => entries.map((e) => isolate(playerName(e.player))).join('; ');

function Players({ entries }: { entries: Entry[] }) {
  if (entries.length === 0) return <>–</>;
  return (
    <>
      {entries.map((e, i) => (
        <span key={e.player.id}>
          {i > 0 && ', '}
          <PlayerLink player={e.player} />
        </span>
      ))}
    </>
  );
}

/** The columns of the events, `mine` keeping the faction's own entries. */
function eventColumns(mine: (entries: Entry[]) => Entry[]): Array<Column<FactionEvent>> {
  return [
    {
      key: 'event',
      label: 'Event',
      csv: [
        ['eventId', (e) => e.id],
        ['event', (e) => e.name],
      ],
      render: (e) => <EventLink event={e} />,
    },
    {
      key: 'date',
      label: 'Date',
      optional: true,
      csv: [['date', (e) => e.date]],
      render: (e) => e.date,
    },
    {
      key: 'entries',
      label: 'Entries',
      numeric: true,
      optional: true,
      csv: [['entries', (e) => e.entries]],
      render: (e) => e.entries,
    },
    {
      key: 'won',
      label: 'Won by',
      csv: [
        ['wonByIds', (e) => ids(mine(e.winners))],
        ['wonBy', (e) => names(mine(e.winners))],
      ],
      render: (e) => <Players entries={mine(e.winners)} />,
    },
    {
      key: 'undefeated',
      label: 'Undefeated',
      csv: [
        ['undefeatedIds', (e) => ids(mine(e.undefeated))],
        ['undefeated', (e) => names(mine(e.undefeated))],
      ],
      render: (e) => <Players entries={mine(e.undefeated)} />,
    },
  ];
}

export function EventWins({
  filter,
  faction,
  page,
  onPage,
}: {
  filter: CommonFilter;
  faction: { id: string; name: string };
  page: number;
  onPage: (page: number) => void;
}) {
  const body = { ...filter, faction: faction.id, page, pageSize: PAGE_SIZE };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/events', body, signal));
  const mine = (entries: Entry[]) => entries.filter((e) => e.faction?.id === faction.id);
  return (
    <Show result={result} what="event wins">
      {({ data }) =>
        data.events.length === 0 ? (
          <Empty>
            No entry of <bdi>{faction.name}</bdi> won an event or went undefeated in scope.
          </Empty>
        ) : (
          <>
            <SortableTable
              caption={`Events an entry of ${isolate(faction.name)} won or finished undefeated (X-0), newest first`}
              label="Event wins and X-0 runs"
              name={`events${page > 1 ? `-page${page}` : ''}`}
              testId="faction-events"
              columns={eventColumns(mine)}
              rows={data.events}
              rowKey={(e) => e.id}
            />
            <Pager
              page={data.page}
              pageSize={data.pageSize}
              total={data.total}
              what="events"
              onPage={onPage}
            />
          </>
        )
      }
    </Show>
  );
}
