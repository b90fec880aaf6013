/**
 * POST /api/team-pairing: the defender-attacker pairing draft of a matrix the captain sends,
 * solved exactly from the position its history reached (docs/team-pairing.md#the-draft). The
 * matrix is the captain's: the answer is never kept in the response cache, and the body is
 * never logged (docs/team-pairing.md#privacy).
 */
import { Type } from 'typebox';
import { statsRoute } from './stats-route.ts';
import { Nullable } from '../schemas/common-filter.ts';
import { Envelope } from '../schemas/envelope.ts';

const MAX_TEAM = 8;
const MAX_TOTAL = 1000;

const Player = (description: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_TEAM - 1, description });
const Pair = (description: string) =>
  Type.Array(Player('A player'), { minItems: 2, maxItems: 2, description });

const StepSchema = Type.Object(
  {
    defenderA: Player("Team A's defender (a row of the matrix)"),
    defenderB: Player("Team B's defender (a column)"),
    attackersA: Type.Optional(Pair("Team A's two attackers offered against B's defender (rows)")),
    attackersB: Type.Optional(
      Pair("Team B's two attackers offered against A's defender (columns)"),
    ),
    keptByA: Type.Optional(Player("The one of attackersB that A's defender keeps (a column)")),
    keptByB: Type.Optional(Player("The one of attackersA that B's defender keeps (a row)")),
  },
  {
    additionalProperties: false,
    description:
      "One step's choices as far as they were made: both defenders, then both teams' attackers, then both kept attackers; only the history's last step may stop part-way",
  },
);

const Format = Type.Literal('defender-attacker', {
  description:
    'The draft: each step both teams reveal a defender, then offer two attackers each against the other defender, then each defender keeps one (docs/team-pairing.md#the-draft)',
});

const EXAMPLE_MATRIX = [
  [10, 13, 8, 12, 9],
  [7, 10, 14, 9, 11],
  [12, 6, 10, 15, 10],
  [9, 11, 12, 10, 5],
  [14, 8, 9, 11, 10],
];

export const TeamPairingBody = Type.Object(
  {
    format: Format,
    matrix: Type.Array(
      Type.Array(
        Type.Number({
          minimum: 0,
          maximum: MAX_TOTAL,
          description: "Team A's expected score in this pairing, 0 to gameTotal",
        }),
        {
          minItems: 3,
          maxItems: MAX_TEAM,
          description: "Row i: team A's player i against each of B's",
        },
      ),
      {
        minItems: 3,
        maxItems: MAX_TEAM,
        description:
          "matrix[i][j]: team A's expected score when its player i meets team B's player j (B scores gameTotal minus it); square, 3 to 8 players a team",
      },
    ),
    gameTotal: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_TOTAL,
      description: 'The points the two players of one game share (T9A 20; 1 for win 1, draw ½)',
    }),
    history: Type.Optional(
      Type.Array(StepSchema, {
        maxItems: 4,
        description: 'The steps played so far, first first; none: the draft from nothing',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "A captain's matrix and the draft so far",
    examples: [
      { format: 'defender-attacker', matrix: EXAMPLE_MATRIX, gameTotal: 20 },
      {
        format: 'defender-attacker',
        matrix: EXAMPLE_MATRIX,
        gameTotal: 20,
        history: [{ defenderA: 0, defenderB: 1, attackersA: [2, 4], attackersB: [0, 3] }],
      },
    ],
  },
);

const Choice = Type.Array(Player('A player'), {
  minItems: 1,
  maxItems: 2,
  description: 'The option: [the defender] or [the attacker kept], or the two attackers offered',
});

const OptionSchema = (team: string) =>
  Type.Object(
    {
      choice: Choice,
      probability: Type.Number({
        minimum: 0,
        maximum: 1,
        description: `Its probability in team ${team}'s optimal mix`,
      }),
      value: Type.Number({
        description: `Team ${team}'s expected total over all the games if it plays this option and the other team replies at best`,
      }),
    },
    { description: `An option of team ${team}` },
  );

const Members = (description: string) => Type.Array(Player('A player'), { description });

const StepNow = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'The step, 0 first' }),
    phase: Type.Union(
      [Type.Literal('defenders'), Type.Literal('attackers'), Type.Literal('keep')],
      { description: 'The choice both teams make now' },
    ),
    leftA: Members("Team A's players not yet paired (rows)"),
    leftB: Members("Team B's players not yet paired (columns)"),
    defenderA: Type.Optional(Player("Team A's defender this step, once chosen")),
    defenderB: Type.Optional(Player("Team B's defender this step, once chosen")),
    attackersA: Type.Optional(Pair("Team A's attackers this step, once offered")),
    attackersB: Type.Optional(Pair("Team B's attackers this step, once offered")),
    teamA: Type.Array(OptionSchema('A'), {
      description:
        "Team A's options (defenders: rows; attackers: pairs of rows; keep: the columns offered to its defender)",
    }),
    teamB: Type.Array(OptionSchema('B'), {
      description:
        "Team B's options (defenders: columns; attackers: pairs of columns; keep: the rows offered to its defender)",
    }),
  },
  { description: 'The choice to make now' },
);

export const TeamPairingResponse = Envelope(
  Type.Object(
    {
      format: Format,
      players: Type.Integer({ description: 'Players a team' }),
      gameTotal: Type.Number({ description: 'As asked' }),
      value: Type.Number({
        description:
          "Team A's expected total over all the games when both teams play their best from the position given (team B's: players × gameTotal minus it)",
      }),
      paired: Type.Number({ description: "Team A's total of the games the history has fixed" }),
      pairings: Type.Array(
        Type.Object(
          {
            a: Player("Team A's player (row)"),
            b: Player("Team B's player (column)"),
            score: Type.Number({ description: "Team A's expected score in it (the matrix cell)" }),
            how: Type.Union(
              [
                Type.Literal('defender-a'),
                Type.Literal('defender-b'),
                Type.Literal('refused'),
                Type.Literal('last'),
              ],
              {
                description:
                  "defender-a: A's defender and the attacker it kept; defender-b: the same for B; refused: the refused attackers with three or four left; last: the last player of each team",
              },
            ),
          },
          { description: 'A game the history has fixed' },
        ),
        { description: 'The games fixed so far, in the order fixed' },
      ),
      step: Nullable(StepNow),
      history: Type.Array(StepSchema, { description: 'The history as given' }),
    },
    { description: 'The draft solved from the position given' },
  ),
  Type.Object(
    {
      format: Format,
      players: Type.Integer({ description: 'Players a team' }),
      gameTotal: Type.Number({ description: 'As asked' }),
    },
    { description: 'The request applied (the matrix is not echoed)' },
  ),
  { events: 'Always 0: the matrix is the request’s own', games: 'Always 0' },
);

/** The statistics route POST /api/team-pairing. */
export const teamPairingRoute = statsRoute({
  path: '/api/team-pairing',
  summary: 'Solve the pairing draft of a team match exactly',
  description:
    "The defender-attacker draft of two teams of 3 to 8 as a sequence of simultaneous zero-sum games, solved exactly from the position the history reached: team A's expected total under best play by both, and the current choice with both teams' optimal mixed strategies and each option's worth against the other's best reply. An impossible history is a 400 naming the step. The matrix is never stored, cached or logged.",
  body: TeamPairingBody,
  response: TeamPairingResponse,
  task: 'teamPairing',
  filterOf: () => ({}),
  noData: true,
  args: (_snapshot, _filter, body) => [body],
  cache: false,
});
