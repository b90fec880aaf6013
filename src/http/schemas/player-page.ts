/**
 * Response pieces of the rankings' player page, head-to-head forecast and prediction quality
 * (docs/ratings.md "A player's page", "Head to head", "Prediction quality").
 */
import { Type } from 'typebox';
import { Nullable } from './common-filter.ts';
import { EventFormatSchema, PlacementSourceProperties } from './placement-source.ts';
import { FactionRefSchema, WinDrawLossProperties } from './envelope.ts';

export const PlayerRefSchema = Type.Object(
  {
    id: Type.String({ description: 'Player id (may be opaque)' }),
    shortId: Type.String({
      description:
        'The shortest prefix of the id that no other player of the data shares, at least 6 characters (the whole id when shorter): how to show a player without a name',
    }),
    name: Nullable(Type.String({ description: 'Player name, when known; else null' })),
    country: Nullable(
      Type.String({
        description: "Player's country (ISO 3166-1 alpha-2), when known; else null",
      }),
    ),
  },
  { description: 'The player' },
);

const EventRefSchema = Type.Object(
  {
    id: Type.String({ description: 'Event id' }),
    name: Type.String({ description: 'Event name' }),
  },
  { description: 'The event' },
);

const DATE = 'Start date of the event (YYYY-MM-DD)';

const wdl = (scope: string) =>
  WinDrawLossProperties(
    {
      wins: `Rated games won ${scope}`,
      draws: `Rated games drawn ${scope}`,
      losses: `Rated games lost ${scope} (a double loss counts as a loss)`,
    },
    true,
  );

const HistoryRowSchema = Type.Object(
  {
    date: Type.String({ description: DATE }),
    event: EventRefSchema,
    rating: Type.Number({
      description:
        'The rating as it stood at the end of that date, as the leaderboard cut off with `to` (or asOf) at that date gives it; with week or month periods, after the period holding the event',
    }),
    rd: Nullable(
      Type.Number({ description: 'Glicko-2 rating deviation at the same point; null otherwise' }),
    ),
    games: Type.Integer({ description: 'Rated games of the player in the event' }),
    ...wdl('in the event'),
    placement: Nullable(
      Type.Integer({
        description:
          "The player's placement in the event (1 = won it), as `placements` says where it comes from; null when the event places them nowhere (always at a team event)",
      }),
    ),
    format: EventFormatSchema,
    ...PlacementSourceProperties,
    participants: Nullable(
      Type.Integer({ description: "The event's participant count; null when unknown" }),
    ),
  },
  { description: 'The player after one event with a rated game of theirs' },
);

const FactionRecordSchema = Type.Object(
  {
    faction: FactionRefSchema,
    games: Type.Integer({ description: 'Rated games with the faction' }),
    ...wdl('with the faction'),
  },
  { description: "The player's record with one faction" },
);

const PlacementSchema = (description: string) =>
  Nullable(
    Type.Object(
      {
        date: Type.String({ description: DATE }),
        event: EventRefSchema,
        placement: Type.Integer({ description: 'Placement (1 = won the event)' }),
        ...PlacementSourceProperties,
      },
      { description },
    ),
    `${description}; null when the player has no placement in scope`,
  );

const PlayerGameSchema = Type.Object(
  {
    date: Type.String({ description: DATE }),
    event: EventRefSchema,
    round: Nullable(Type.Integer({ description: 'Round; null when unknown' })),
    opponent: PlayerRefSchema,
    result: Type.Union([Type.Literal('win'), Type.Literal('draw'), Type.Literal('loss')], {
      description: "The player's result (a double loss is a loss)",
    }),
    score: Nullable(Type.Number({ description: "The player's score; null when unknown" })),
    opponentScore: Nullable(
      Type.Number({ description: "The opponent's score; null when unknown" }),
    ),
    faction: Nullable(FactionRefSchema, "The player's faction; null when unknown"),
    opponentFaction: Nullable(FactionRefSchema, "The opponent's faction; null when unknown"),
    ratingChange: Nullable(
      Type.Number({
        description:
          "The change the game made to the player's rating. elo: the rating after the game minus before. glicko2: the game's share of its rating period's change, φ'²·g(φⱼ)·(s − E) on the rating scale (Glickman 2012, step 7), so the shares of an event add up to the event's change; null for points (scored per event, not per game)",
      }),
    ),
  },
  { description: 'One rated game of the player, from their side' },
);

const PlayerGamesSchema = Type.Object(
  {
    rows: Type.Array(PlayerGameSchema, {
      description: 'This page of their rated games in scope, latest first',
    }),
    total: Type.Integer({ description: 'Their rated games in scope (all pages)' }),
    page: Type.Integer({ description: 'This page number, from 1' }),
    pageSize: Type.Integer({ description: 'Games per page' }),
  },
  { description: "The player's rated games one by one, paged (gamesPage)" },
);

/** The player page of `player`, beside the leaderboard row schema. */
export const PlayerPageSchema = (row: ReturnType<typeof Type.Object>) =>
  Type.Object(
    {
      player: PlayerRefSchema,
      row: Nullable(
        row,
        "The player's leaderboard row (rank null when left out by provisional, minGames or countries); null when they have no rated game in scope",
      ),
      history: Type.Array(HistoryRowSchema, {
        description: 'Their rating after each event with a rated game of theirs, oldest first',
      }),
      factions: Type.Array(FactionRecordSchema, {
        description: 'Their record per faction played, most games first',
      }),
      games: PlayerGamesSchema,
      bestPlacement: PlacementSchema('Their best placement (the latest of equals)'),
      latestPlacement: PlacementSchema('Their placement in their latest placed event'),
      mergedInto: Nullable(
        PlayerRefSchema,
        'The player the id asked for is merged into, whose page this is (docs/data-model.md#player-merges); null when the id is not merged',
      ),
      merged: Type.Array(
        Type.Object(
          {
            id: Type.String({ description: 'A merged player id' }),
            name: Nullable(Type.String({ description: 'Its name; null when unknown' })),
          },
          { description: 'One id merged into this player' },
        ),
        { description: 'The ids merged into this player, in id order; empty when none' },
      ),
    },
    { description: 'With `player`: that player’s page' },
  );

const PastGameSchema = Type.Object(
  {
    date: Type.String({ description: DATE }),
    event: EventRefSchema,
    round: Nullable(Type.Integer({ description: 'Round; null when unknown' })),
    result: Type.Union([Type.Literal('win'), Type.Literal('draw'), Type.Literal('loss')], {
      description: "The first player's result",
    }),
    score: Nullable(Type.Number({ description: "The first player's score; null when unknown" })),
    opponentScore: Nullable(
      Type.Number({ description: "The second player's score; null when unknown" }),
    ),
    faction: Nullable(FactionRefSchema, "The first player's faction; null when unknown"),
    opponentFaction: Nullable(FactionRefSchema, "The second player's faction; null when unknown"),
  },
  { description: 'One past rated game between the two' },
);

export const HeadToHeadSchema = Type.Object(
  {
    player: PlayerRefSchema,
    opponent: PlayerRefSchema,
    expectedScore: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          "The first player's expected score against the second from the current ratings (win 1, draw ½): Glicko-2's E with the opponent's g(RD), or Elo's 1/(1+10^((Rb−Ra)/400)); null for points or when either has no rated game in scope",
      }),
    ),
    games: Type.Array(PastGameSchema, {
      description: 'Their past rated games against each other in scope, oldest first',
    }),
    record: Type.Object(
      {
        games: Type.Integer({ description: 'Games between them' }),
        ...wdl('by the first player against the second'),
      },
      { description: "The first player's record against the second" },
    ),
  },
  { description: 'With `versus`: the forecast of the first player against the second' },
);

const ScoresProperties = {
  brier: Type.Number({
    description: 'Brier score: mean of (forecast − score)²; 0 is perfect, a coin flip 0.25',
  }),
  logLoss: Type.Number({
    description: 'Log loss: mean of −[s·ln p + (1−s)·ln(1−p)]; a coin flip ln 2 ≈ 0.693',
  }),
  accuracy: Nullable(
    Type.Number({
      description:
        'Share of decided games whose winner had the higher forecast (an even forecast counts half); null without decided games',
    }),
  ),
};

export const PredictionQualitySchema = Nullable(
  Type.Object(
    {
      games: Type.Integer({
        description: 'Rated games in scope scored (one point between the sides: double losses out)',
      }),
      decidedGames: Type.Integer({ description: 'Of those, games with a winner' }),
      ...ScoresProperties,
      coinFlip: Type.Object(ScoresProperties, {
        description: 'The same figures for a forecast of one half every game',
      }),
    },
    {
      description:
        'How well the method predicted the games in scope from the ratings each player had before each game (Glicko-2: at the start of its period)',
    },
  ),
  'Prediction quality of the method over the games in scope; null for points (no forecast) or without games',
);
