/**
 * POST /api/events: the events a filter keeps, with winners and undefeated entries, and with
 * `event` one event's page: standings and rounds (docs/statistics.md#events).
 */
import { Type } from 'typebox';
import {
  CommonFilterProperties,
  Id,
  NormalisedFilterProperties,
  Nullable,
  PageProperties,
} from '../schemas/common-filter.ts';
import { Envelope } from '../schemas/envelope.ts';
import { EntryRefSchema, EventInfoProperties, EventPageSchema } from '../schemas/event-page.ts';
import { statsRoute } from './stats-route.ts';

const EVENTS_PAGE_SIZE = 50;

const SortSchema = Type.Union(
  [Type.Literal('date'), Type.Literal('entries'), Type.Literal('name')],
  {
    description: 'Order: "date" newest first (default), "entries" most entries first, "name"',
  },
);

export const EventsBody = Type.Object(
  {
    ...CommonFilterProperties,
    faction: Type.Optional(
      Id(
        'A faction id: only events in which an entry of this faction placed 1st or went undefeated',
      ),
    ),
    player: Type.Optional(
      Id('A player id: only events this player has a standings entry in (404 when unknown)'),
    ),
    event: Type.Optional(
      Id(
        "An event id: also answer data.event, that event's page, whatever else the filter keeps (404 when the system holds no such event)",
      ),
    ),
    sort: Type.Optional(SortSchema),
    ...PageProperties('Events', EVENTS_PAGE_SIZE),
  },
  {
    additionalProperties: false,
    description: 'Common filter plus event-list options',
    // No system or data-specific ids: the /docs "try it" examples work on whatever is served.
    examples: [{ pageSize: 20 }, { sort: 'entries', pageSize: 10 }],
  },
);

const EventRowSchema = Type.Object(
  {
    ...EventInfoProperties,
    entries: Type.Integer({ description: 'Standings entries (declared, or having played a game)' }),
    players: Type.Integer({
      description:
        'Distinct players with a game in the event (participants is the count it declared)',
    }),
    games: Type.Integer({ description: 'Completed games of the event' }),
    winners: Type.Array(EntryRefSchema, {
      description: 'Entries placed 1st (several when derived placements tie)',
    }),
    undefeated: Type.Array(EntryRefSchema, {
      description: 'Entries that played at least one game and lost none (X-0), by placement',
    }),
    playerPlacement: Type.Optional(
      Nullable(
        Type.Integer({
          description: "With player: that player's placement; null when none is known",
        }),
      ),
    ),
  },
  { description: 'One event' },
);

const EventsFilter = Type.Object(
  {
    ...NormalisedFilterProperties,
    faction: Nullable(Type.String({ description: 'The faction applied; null: none' })),
    player: Nullable(Type.String({ description: 'The player applied; null: none' })),
    event: Nullable(Type.String({ description: 'The event whose page is answered; null: none' })),
    sort: SortSchema,
    page: Type.Integer({ description: 'Page number applied' }),
    pageSize: Type.Integer({ description: 'Page size applied' }),
  },
  { description: 'The filter applied, defaults filled in' },
);

export const EventsResponse = Envelope(
  Type.Object(
    {
      events: Type.Array(EventRowSchema, { description: 'This page of the events' }),
      total: Type.Integer({ description: 'Events matching (all pages)' }),
      page: Type.Integer({ description: 'This page number, from 1' }),
      pageSize: Type.Integer({ description: 'Events per page' }),
      event: Type.Optional(EventPageSchema),
    },
    { description: 'One page of the events' },
  ),
  EventsFilter,
);

/** The statistics route POST /api/events (docs/http-api.md#events). */
export const eventsRoute = statsRoute({
  path: '/api/events',
  summary: 'Events and one event page',
  description:
    "Events the common filter keeps that have an entry or a game, newest first, each with its winners and undefeated entries; with event, also that event's standings and rounds with pairings, results and lists. A page beyond the end is empty.",
  body: EventsBody,
  response: EventsResponse,
  notFound: 'event or player is not in the data (`errors[]` points at it)',
  filterOf: (body) => body,
  task: 'eventList',
  args: (_snapshot, filter, body) => [
    filter,
    {
      faction: body.faction ?? null,
      player: body.player ?? null,
      event: body.event ?? null,
      sort: body.sort ?? 'date',
      page: body.page ?? 1,
      pageSize: body.pageSize ?? EVENTS_PAGE_SIZE,
    },
  ],
});
