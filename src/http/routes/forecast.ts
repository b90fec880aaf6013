/**
 * POST /api/forecast: one future game's expected score, P(win/draw/loss) and their parts from
 * the joint model (docs/ratings.md#forecast).
 */
import { Type } from 'typebox';
import { statsRoute } from './stats-route.ts';
import { Id, Nullable } from '../schemas/common-filter.ts';
import { Envelope } from '../schemas/envelope.ts';

const Probability = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const ForecastBody = Type.Object(
  {
    system: Type.Optional(
      Id(
        'Game system id (e.g. "t9a"); defaults to the only system; required when there are several',
      ),
    ),
    player1: Id('Player 1 (the forecast is from their side)'),
    faction1: Id("Player 1's faction id"),
    player2: Id('Player 2'),
    faction2: Id("Player 2's faction id"),
    scenario: Type.Optional(
      Id('The scenario; accepted and echoed, not part of the model (a warning says so)'),
    ),
  },
  {
    additionalProperties: false,
    description: 'Two players, each with the faction they will play',
    // A forecast names players, and no player is in every data set: these are two players of
    // the demo data `npm start` seeds, who play on whatever day it is generated for
    // (docs/http-api.md#the-joint-model-routes); on other data the example is a 404.
    examples: [
      {
        player1: 'demo-p1nuugci',
        faction1: 'se',
        player2: 'demo-p0x6005v',
        faction2: 'ws',
      },
    ],
  },
);

const ForecastFilter = Type.Object(
  {
    system: Type.String({ description: 'The game system applied' }),
    player1: Type.String({ description: 'Player 1 as asked' }),
    faction1: Type.String({ description: "Player 1's faction as asked" }),
    player2: Type.String({ description: 'Player 2 as asked' }),
    faction2: Type.String({ description: "Player 2's faction as asked" }),
    scenario: Type.Optional(Type.String({ description: 'The scenario as asked, when given' })),
  },
  { description: 'The request applied' },
);

const PlayerSchema = (which: string) =>
  Type.Object(
    {
      id: Type.String({ description: 'Player id' }),
      rating: Type.Number({
        description:
          "Glicko-2 rating after all of the system's games (idled through the events sat out, as on the leaderboard); 1500 unrated",
      }),
      rd: Type.Number({ description: 'Its rating deviation; 350 unrated' }),
    },
    { description: which },
  );

const LOGIT = 'on the logit scale of the expected score';

export const ForecastResponse = Envelope(
  Type.Object(
    {
      expected1: Probability(
        "Player 1's expected score (their score share where the system scores games, e.g. 20-0; else win 1, draw ½)",
      ),
      interval: Type.Object(
        {
          low: Probability('Lower bound'),
          high: Probability('Upper bound'),
        },
        {
          description:
            "95% interval of expected1: the model's coefficient uncertainty plus both players' rating deviations",
        },
      ),
      probabilities: Type.Object(
        {
          win: Probability('P(player 1 wins)'),
          draw: Probability('P(draw)'),
          loss: Probability('P(player 1 loses)'),
        },
        { description: "Player 1's probabilities of each result (they sum to 1)" },
      ),
      parts: Type.Object(
        {
          skill: Type.Number({
            description: `What the players' ratings say: β·logit(Glicko-2 expected score), ${LOGIT}`,
          }),
          faction: Type.Number({
            description: `Faction 1's strength minus faction 2's in the latest window, ${LOGIT}`,
          }),
          matchup: Type.Number({ description: `The pair of factions' own effect, ${LOGIT}` }),
        },
        {
          description:
            'The forecast split into its parts: skill + faction + matchup = logit(expected1)',
        },
      ),
      player1: PlayerSchema('Player 1'),
      player2: PlayerSchema('Player 2'),
      window: Nullable(
        Type.String({
          description: 'The faction-strength window forecast for (the latest); null when none',
        }),
      ),
      outcome: Type.Union([Type.Literal('score-share'), Type.Literal('result')], {
        description: 'What expected1 is: a score share, or an expected result',
      }),
    },
    { description: 'The forecast of one game' },
  ),
  ForecastFilter,
  {
    events: "Events of the system's modelled games (the model is fitted to all of them)",
    games: "The system's modelled games",
  },
);

/** The statistics route POST /api/forecast. */
export const forecastRoute = statsRoute({
  path: '/api/forecast',
  summary: 'Forecast one game between two players and their factions',
  description:
    "Player 1's expected score with a 95% interval, P(win/draw/loss), and the forecast's parts (skill, faction, matchup), from the joint model fitted to all of the system's games.",
  body: ForecastBody,
  response: ForecastResponse,
  notFound: 'a player or faction is not in the data (`errors[]` points at it)',
  filterOf: (body) => ({ system: body.system }),
  task: 'forecast',
  args: (_snapshot, filter, body) => [{ ...body, system: filter.system }],
});
