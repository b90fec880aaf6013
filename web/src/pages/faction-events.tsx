/**
 * A faction's event wins and X-0 runs, event by event, from POST /api/events with `faction`
 * (docs/http-api.md): each event a link to its page, with the faction's winners and undefeated
 * entries linked to their players' pages.
 */
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { TableCsv } from '../components/download.tsx';
import { EventLink, PlayerLink } from '../components/entity-link.tsx';
import { Pager } from '../components/pager.tsx';
import { Empty, Show } from '../components/status.tsx';
import type { CommonFilter } from '../types.ts';
import { playerName } from '../format.ts';
import { useApi } from '../use-api.ts';

type Entry = AnswerOf<'/api/events'>['data']['events'][number]['winners'][number];

const PAGE_SIZE = 10;

/** Several players in one CSV field: ids, and names (an id where the data has no name). */
const ids = (entries: Entry[]) => entries.map((e) => e.player.id).join(' ');
const names = (entries: Entry[]) => entries.map((e) => playerName(e.player)).join('; ');

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
          <Empty>No entry of {faction.name} won an event or went undefeated in scope.</Empty>
        ) : (
          <>
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Event wins and X-0 runs">
              <table data-testid="faction-events">
                <caption>
                  Events an entry of {faction.name} won or finished undefeated (X-0), newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col" class="opt">
                      Date
                    </th>
                    <th scope="col" class="num opt">
                      Entries
                    </th>
                    <th scope="col">Won by</th>
                    <th scope="col">Undefeated</th>
                  </tr>
                </thead>
                <tbody>
                  {data.events.map((e) => (
                    <tr key={e.id}>
                      <th scope="row">
                        <EventLink event={e} />
                      </th>
                      <td class="opt">{e.date}</td>
                      <td class="num opt">{e.entries}</td>
                      <td>
                        <Players entries={mine(e.winners)} />
                      </td>
                      <td>
                        <Players entries={mine(e.undefeated)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <TableCsv
              name={`events${page > 1 ? `-page${page}` : ''}`}
              header={[
                'eventId',
                'event',
                'date',
                'entries',
                'wonByIds',
                'wonBy',
                'undefeatedIds',
                'undefeated',
              ]}
              rows={() =>
                data.events.map((e) => [
                  e.id,
                  e.name,
                  e.date,
                  e.entries,
                  ids(mine(e.winners)),
                  names(mine(e.winners)),
                  ids(mine(e.undefeated)),
                  names(mine(e.undefeated)),
                ])
              }
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
