/**
 * POST /api/event-projection: each player's chance to finish an event first, in the top 3 and
 * in the top 8, and their expected place, by simulating its rounds left with games drawn from
 * the joint model as it stood before the event (docs/event-projection.md).
 */
import { Type } from 'typebox';
import { PROJECTION_SIMULATIONS } from '../../engine/projection/event-projection.ts';
import { statsRoute } from './stats-route.ts';
import { Id, Nullable } from '../schemas/common-filter.ts';
import { Envelope, FactionRefSchema } from '../schemas/envelope.ts';
import { PlayerRefSchema } from '../schemas/player-page.ts';

const Probability = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const ROUNDS = 'Round number: 0 to 30';

export const EventProjectionBody = Type.Object(
  {
    system: Type.Optional(
      Id('Game system id; defaults to the only system; required when there are several'),
    ),
    event: Id('The event (a singles event of the system whose system declares a placing rule)'),
    afterRound: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 30,
        description: `Answer as it stood after this round: the standings after it, the rounds after it simulated (the model is always as of the event's first day). Default: every round the data holds. ${ROUNDS}`,
      }),
    ),
    simulations: Type.Optional(
      Type.Integer({
        minimum: PROJECTION_SIMULATIONS.min,
        maximum: PROJECTION_SIMULATIONS.max,
        description: `Simulations of the rounds left (default ${PROJECTION_SIMULATIONS.default})`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'An event, and the round to answer after',
    // A Masters qualifier of the demo data `npm start` seeds (44 players, 6 rounds): its ids
    // are the same whatever day it is generated for; on other data the example is a 404.
    examples: [{ event: 'demo-ev-0096', afterRound: 4, simulations: 2000 }],
  },
);

const Filter = Type.Object(
  {
    system: Type.String({ description: 'The game system applied' }),
    event: Type.String({ description: 'The event as asked' }),
    afterRound: Type.Optional(Type.Integer({ description: 'The round as asked, when given' })),
    simulations: Type.Optional(Type.Integer({ description: 'The simulations as asked' })),
  },
  { description: 'The request applied' },
);

const PlayerSchema = Type.Object(
  {
    player: PlayerRefSchema,
    faction: Nullable(FactionRefSchema, 'The faction they play at the event; null when unknown'),
    wins: Type.Integer({ description: 'Games won up to afterRound' }),
    draws: Type.Integer({ description: 'Games drawn up to afterRound' }),
    losses: Type.Integer({ description: 'Games lost up to afterRound' }),
    score: Nullable(
      Type.Number({ description: 'Their total known score up to afterRound; null when none' }),
    ),
    chances: Type.Object(
      {
        first: Probability('Share of the simulations they finish first'),
        top3: Probability('Share they finish in the top 3'),
        top8: Probability('Share they finish in the top 8 (the sources declare no cut)'),
      },
      { description: 'Their chances; over the players, first sums to 1 and top3 to 3' },
    ),
    expectedPlace: Type.Number({ description: 'Their mean final place over the simulations' }),
  },
  { description: 'One player of the event' },
);

export const EventProjectionResponse = Envelope(
  Type.Object(
    {
      event: Type.Object(
        {
          id: Type.String({ description: 'Event id' }),
          name: Type.String({ description: 'Event name' }),
        },
        { description: 'The event' },
      ),
      afterRound: Type.Integer({ description: 'The rounds counted as played' }),
      rounds: Type.Integer({ description: "The event's rounds: declared, else the most played" }),
      simulations: Type.Integer({ description: 'Simulations of the rounds after afterRound' }),
      rule: Type.String({ description: 'The placing rule the final standings rank by' }),
      players: Type.Array(PlayerSchema, {
        description: 'Every player with a game at the event, by expected place',
      }),
    },
    { description: 'The projected finish of one event' },
  ),
  Filter,
  {
    events: 'Events of the games the model is fitted to (those before the event)',
    games: 'Games the model is fitted to',
  },
);

/** The statistics route POST /api/event-projection. */
export const eventProjectionRoute = statsRoute({
  path: '/api/event-projection',
  summary: "Project an event's final standings from a round",
  description:
    "Each player's chance to finish first, in the top 3 and in the top 8, and expected place: the rounds after afterRound simulated (a round in progress at its announced tables, the rest Swiss-paired within score groups, no rematches) with games drawn from the joint model fitted to the games before the event, the final standings ranked by the event's placing rule. Seeded: the same request answers the same numbers.",
  body: EventProjectionBody,
  response: EventProjectionResponse,
  notFound: 'the event is not in the data (`errors[]` points at it)',
  filterOf: (body) => ({ system: body.system }),
  task: 'eventProjection',
  args: (_snapshot, filter, body) => [{ ...body, system: filter.system }],
});
