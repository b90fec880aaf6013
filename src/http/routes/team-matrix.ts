/**
 * POST /api/team-matrix: every pairing of two teams' players forecast by the joint model (or
 * rating only, or faction only), the captain's matrix filled from data
 * (docs/team-pairing.md#the-matrix).
 */
import { Type } from 'typebox';
import { statsRoute } from './stats-route.ts';
import { Id, Nullable } from '../schemas/common-filter.ts';
import { Envelope } from '../schemas/envelope.ts';

const Probability = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const Member = Type.Object(
  {
    player: Id('Player id; one the data does not know is forecast as a player with no games yet'),
    faction: Id('The faction (army) they will play; one the system does not know is a 400'),
  },
  { additionalProperties: false, description: 'A team member and their faction' },
);

const Team = (which: string) =>
  Type.Array(Member, { minItems: 1, maxItems: 8, description: `${which}: 1 to 8 players` });

const ModelSchema = Type.Union(
  [Type.Literal('joint'), Type.Literal('rating'), Type.Literal('faction')],
  {
    description:
      "The model, named as on forecast-accuracy: joint (skill, faction and matchup; the default), rating (the Glicko-2 forecast alone), faction (the joint model's faction and matchup parts, skill left out)",
  },
);

export const TeamMatrixBody = Type.Object(
  {
    system: Type.Optional(
      Id('Game system id; defaults to the only system; required when there are several'),
    ),
    teamA: Team('Team A, the rows'),
    teamB: Team('Team B, the columns'),
    model: Type.Optional(ModelSchema),
  },
  {
    additionalProperties: false,
    description: 'Two teams, each player with the faction they will play',
    // Two teams of a team event of the demo data (`npm start`); faction ids are the demo
    // system's, so on other data the example is a 400 (docs/team-pairing.md#the-matrix).
    examples: [
      {
        teamA: [
          { player: 'demo-p0zx1rpz', faction: 'ah' },
          { player: 'demo-p0f0tmvj', faction: 'ka' },
          { player: 'demo-p1mrl9q2', faction: 'ds' },
        ],
        teamB: [
          { player: 'demo-p07wjte0', faction: 'nc' },
          { player: 'demo-p0ek8b9e', faction: 'ds' },
          { player: 'demo-p1kod98m', faction: 'gl' },
        ],
      },
    ],
  },
);

const PlayerSchema = Type.Object(
  {
    id: Type.String({ description: 'Player id as asked' }),
    name: Nullable(
      Type.String({ description: 'Their name in the data; null when none or not known' }),
    ),
    faction: Type.Object(
      {
        id: Type.String({ description: 'Faction id' }),
        name: Type.String({ description: 'Faction name' }),
      },
      { description: 'The faction they play' },
    ),
    known: Type.Boolean({
      description:
        'False: the data holds no such player; forecast as one with no games yet (rating 1500, deviation 350), so their cells have wider intervals',
    }),
    rating: Type.Number({ description: "Glicko-2 rating after all of the system's games" }),
    rd: Type.Number({ description: 'Its rating deviation' }),
  },
  { description: 'A player of the matrix' },
);

const CellSchema = Type.Object(
  {
    expected: Probability(
      "The row player's expected result: their score share where the system scores games (e.g. 20-0), else win 1, draw ½, loss 0",
    ),
    low: Probability('Lower bound of its 95% interval'),
    high: Probability('Upper bound of its 95% interval'),
    win: Probability('P(row player wins)'),
    draw: Probability('P(draw)'),
    loss: Probability('P(row player loses)'),
    score: Nullable(
      Type.Object(
        {
          expected: Type.Number({ minimum: 0, description: 'expected × gameTotal' }),
          low: Type.Number({ minimum: 0, description: 'low × gameTotal' }),
          high: Type.Number({ minimum: 0, description: 'high × gameTotal' }),
        },
        { description: "On the system's game scale (T9A 0-20)" },
      ),
    ),
  },
  { description: "Team A's row player against team B's column player" },
);

export const TeamMatrixResponse = Envelope(
  Type.Object(
    {
      model: ModelSchema,
      rows: Type.Array(PlayerSchema, { description: "Team A's players, in the order asked" }),
      columns: Type.Array(PlayerSchema, { description: "Team B's players, in the order asked" }),
      cells: Type.Array(Type.Array(CellSchema), {
        description: "cells[i][j]: team A's player i against team B's player j",
      }),
      outcome: Type.Union([Type.Literal('score-share'), Type.Literal('result')], {
        description: 'What expected is: a score share, or an expected result',
      }),
      gameTotal: Nullable(
        Type.Number({
          description:
            "Points two players share in one game of the system (T9A 20), the scale of score and the draft's gameTotal; null where games are not scored",
        }),
      ),
      window: Nullable(
        Type.String({ description: 'The faction-strength window forecast for (the latest)' }),
      ),
    },
    { description: 'The pairing matrix of two teams' },
  ),
  Type.Object(
    {
      system: Type.String({ description: 'The game system applied' }),
      teamA: Type.Array(Member, { description: 'Team A as asked' }),
      teamB: Type.Array(Member, { description: 'Team B as asked' }),
      model: ModelSchema,
    },
    { description: 'The request applied' },
  ),
  {
    events: "Events of the system's modelled games (the model is fitted to all of them)",
    games: "The system's modelled games",
  },
);

/** The statistics route POST /api/team-matrix. */
export const teamMatrixRoute = statsRoute({
  path: '/api/team-matrix',
  summary: "Forecast every pairing of two teams' players",
  description:
    "For each of team A's players against each of team B's, each with a faction: the expected result with a 95% interval and P(win/draw/loss), and the expected score on the system's scale, from the joint model fitted to all of the system's games (or rating only, or faction only). A player the data does not know is forecast as one with no games yet and marked known: false; an unknown faction is a 400.",
  body: TeamMatrixBody,
  response: TeamMatrixResponse,
  task: 'teamMatrix',
  filterOf: (body) => ({ system: body.system }),
  args: (_snapshot, filter, body) => [{ ...body, system: filter.system }],
});
