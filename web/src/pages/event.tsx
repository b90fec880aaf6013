/**
 * One event's page (docs/http-api.md#events): its tier, size, format, country and date, its
 * standings, and its rounds with every pairing, result and list; while it runs, its projected
 * finish (docs/event-projection.md). Without an event chosen, the
 * events of the filter, each a link to its page.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { post } from '../api.ts';
import type { AnswerOf } from '../api.ts';
import { Pager } from '../components/pager.tsx';
import { Empty, ErrorBox, Loading, Show, Warnings } from '../components/status.tsx';
import { EventLink } from '../components/entity-link.tsx';
import { hrefWith, navigate } from '../url-state.ts';
import type { Params } from '../url-state.ts';
import { useApi } from '../use-api.ts';
import { useLiveChanges } from '../use-live.ts';
import type { PageProps } from './page-props.ts';
import { EventRounds } from './event-rounds.tsx';
import { PlacementNote, Standings } from './event-standings.tsx';
import { ProjectedFinish } from './projected-finish.tsx';
import { EventTeams } from './event-teams.tsx';

type Events = AnswerOf<'/api/events'>;
type EventData = NonNullable<Events['data']['event']>;

type SystemName = { id: string; name: string };

const LIST_PAGE_SIZE = 25;

/** A link to another view of the dashboard that moves through history without a reload. */
function ViewLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <a
      href={href}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

function Facts({ data }: { data: EventData }) {
  const e = data.event;
  const played = data.standings.length;
  const facts: [string, string][] = [
    ['Date', e.date],
    ['Tier', e.tier],
    // A count the source left out (none, 0, or fewer than played) is not shown as one.
    ['Participants', e.participants === null ? 'not given' : String(e.participants)],
    ['Played', `${played} player${played === 1 ? '' : 's'} with games here`],
    ['Format', e.format],
    ['Country', e.country ?? (e.online ? 'online' : 'unknown')],
    ['Rules', e.rulesVersion ?? 'unknown'],
    ['Rounds', e.rounds === null ? 'unknown' : String(e.rounds)],
    ...(e.running ? [['Status', 'running: a round is in progress'] as [string, string]] : []),
  ];
  return (
    <dl class="stats event-facts" data-testid="event-facts">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The plain words for an event id the data does not hold. */
function Unknown({ id, params }: { id: string; params: Params }) {
  return (
    <div class="status empty" role="alert" data-testid="unknown-event">
      <p>
        There is no event “{id}” in this system’s data. The link may be mistyped, or the event may
        have been removed from the data.
      </p>
      <p>
        <ViewLink href={hrefWith(params, { event: '', page: '' })}>See the events</ViewLink>
      </p>
    </div>
  );
}

function OneEvent({ id, params, system }: { id: string; params: Params; system?: SystemName }) {
  const body = { ...(system ? { system: system.id } : {}), event: id, pageSize: 1 };
  // A running event's page follows the live stream: each change to its games fetches it again,
  // the page staying as it is meanwhile; a finished event's page holds no stream.
  const [changes, setChanges] = useState(0);
  const result = useApi(`${JSON.stringify(body)}#${changes}`, (signal) =>
    post('/api/events', body, signal),
  );
  const running = result.state !== 'error' && result.data?.data.event?.event.running === true;
  useLiveChanges(id, running, () => setChanges((n) => n + 1));
  if (result.state === 'error') {
    return result.error.status === 404 ? (
      <>
        <h1>Event not found</h1>
        <Unknown id={id} params={params} />
      </>
    ) : (
      <>
        <h1>Event</h1>
        <ErrorBox error={result.error} />
      </>
    );
  }
  if (result.state === 'loading' && result.data === undefined) {
    return (
      <>
        <h1>Event</h1>
        <Loading what="the event" />
      </>
    );
  }
  return (
    <Show result={result} what="the event">
      {({ data, meta }) =>
        data.event === undefined ? null : (
          <article class="event-page">
            <h1 data-testid="event-name">
              <bdi>{data.event.event.name}</bdi>
            </h1>
            <Warnings warnings={meta.warnings} />
            <Facts data={data.event} />
            {data.event.event.running && data.event.event.format === 'singles' && (
              <>
                <h2>Projected finish</h2>
                <ProjectedFinish event={id} version={changes} system={system?.id} />
              </>
            )}
            <h2>Standings</h2>
            <PlacementNote data={data.event} system={system?.name} />
            <Standings data={data.event} />
            {data.event.teams && (
              <>
                <h2>Teams</h2>
                <EventTeams teams={data.event.teams} />
              </>
            )}
            <h2>Rounds</h2>
            <EventRounds rounds={data.event.rounds} system={system?.id} />
          </article>
        )
      }
    </Show>
  );
}

function EventList({ params, update, filter }: Pick<PageProps, 'params' | 'update' | 'filter'>) {
  const page = Math.max(1, Number(params.page) || 1);
  // Only the system applies here, as on an event's own page (the bar shows only it).
  const body = {
    ...(filter.system ? { system: filter.system } : {}),
    page,
    pageSize: LIST_PAGE_SIZE,
  };
  const result = useApi(JSON.stringify(body), (signal) => post('/api/events', body, signal));
  return (
    <>
      <h1>Events</h1>
      <Show result={result} what="events">
        {({ data, meta }) => (
          <>
            <Warnings warnings={meta.warnings} />
            {data.events.length === 0 ? (
              <Empty>No events match these filters.</Empty>
            ) : (
              <ul class="event-list" data-testid="event-list">
                {data.events.map((e) => (
                  <li key={e.id}>
                    <EventLink event={e} />{' '}
                    <span class="secondary">
                      {e.date} · {e.tier} · {e.entries} entries
                    </span>
                    {e.running && (
                      <>
                        {' '}
                        <span class="badge" data-testid="event-running">
                          running
                        </span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <Pager
              page={data.page}
              pageSize={data.pageSize}
              total={data.total}
              onPage={(p) => update({ page: String(p) })}
              what="events"
            />
          </>
        )}
      </Show>
    </>
  );
}

export function EventPage({ params, update, filter, system }: PageProps) {
  const id = params.event?.trim();
  if (id) return <OneEvent id={id} params={params} system={system} />;
  return <EventList params={params} update={update} filter={filter} />;
}
