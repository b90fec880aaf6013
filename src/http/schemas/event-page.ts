/**
 * Response pieces of the events route: an event's fields, its winners and undefeated entries,
 * and one event's page with standings and rounds (docs/statistics.md#events).
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { EVENT_FORMATS, EVENT_TIERS, PLACEMENT_KEYS } from '../../domain/model.ts';
import { Nullable } from './common-filter.ts';
import { FactionRefSchema, WinDrawLossProperties } from './envelope.ts';
import { PlacementSourceProperties } from './placement-source.ts';
import { PlayerRefSchema } from './player-page.ts';

export const EventInfoProperties = {
  id: Type.String({ description: 'Event id' }),
  name: Type.String({ description: 'Event name' }),
  date: Type.String({ description: 'Start date of the event (YYYY-MM-DD)' }),
  tier: Type.Union(
    EVENT_TIERS.map((t) => Type.Literal(t)),
    { description: 'Event tier: standard, satellite or major' },
  ),
  format: Type.Union(
    EVENT_FORMATS.map((f) => Type.Literal(f)),
    { description: 'Event format: singles or teams' },
  ),
  participants: Nullable(
    Type.Integer({ description: 'Participants the event declared; null when it declared none' }),
  ),
  country: Nullable(
    Type.String({
      description: 'Country the event was held in (ISO 3166-1 alpha-2); null when unknown',
    }),
  ),
  online: Nullable(
    Type.Boolean({ description: 'true online, false in person; null when unknown' }),
  ),
  rulesVersion: Nullable(
    Type.String({ description: 'Rules version the event was played under; null when unknown' }),
  ),
  rounds: Nullable(
    Type.Integer({
      description: 'Rounds: declared, else the highest round played; null when neither is known',
    }),
  ),
  running: Type.Boolean({
    description:
      'true while the event has games paired but not played yet (a round in progress): its page lists them in their round with played false',
  }),
  ...PlacementSourceProperties,
};

export const EntryRefSchema = Type.Object(
  {
    player: PlayerRefSchema,
    faction: Nullable(
      FactionRefSchema,
      'The faction of the entry: declared, else the one its player played most there; null when neither',
    ),
  },
  { description: 'A standings entry: its player and faction' },
);

const StandingSchema = Type.Object(
  {
    placement: Nullable(
      Type.Integer({
        description:
          'Final placement: published, else derived from the games by the game system\'s placing rule (equals share a place); null when the event has none (placements "none", as while it is running) or published none for this entry',
      }),
    ),
    currentPlace: Nullable(
      Type.Integer({
        description:
          "While the event is running: the entry's place in the order so far, after the games played (by the placing rule, placementRule, else as the source publishes it); not a placement, and counted in no statistic; null once the event is over, or when it has no order",
      }),
    ),
    player: PlayerRefSchema,
    faction: EntryRefSchema.properties.faction,
    team: Nullable(Type.String({ description: 'The team the entry names; null when none' })),
    games: Type.Integer({ description: "Games the entry's player played in the event" }),
    ...WinDrawLossProperties(
      { wins: 'Games won', draws: 'Games drawn', losses: 'Games lost (a double loss counts)' },
      true,
    ),
    score: Nullable(
      Type.Number({
        description: 'Sum of the known scores of those games; null when none is known',
      }),
    ),
    top: Type.Boolean({
      description: 'Placed within the top 10% (ceil) of the placed entries; false when unplaced',
    }),
    undefeated: Type.Boolean({ description: 'Played at least one game and lost none' }),
    fewerGames: Type.Boolean({
      description:
        'With derived places: the entry played fewer games than the most any player there played, so its total is over fewer games (it is ranked as if the missing games scored nothing); false otherwise',
    }),
    tieBreaks: Type.Array(Nullable(Type.Number({ description: 'The value on one tie-breaker' })), {
      description:
        "The entry's value on each of the event's tieBreakers, in their order (wins and opponents' wins count a draw as half); null where it needs scores the entry has none of",
    }),
  },
  { description: 'One standings entry' },
);

const ListItemSchema = Type.Object(
  {
    name: Type.String({ description: 'Item name (a unit, an upgrade, a character...)' }),
    category: Type.String({ description: "The item's category in the game system" }),
    picks: Type.Integer({ description: 'How many times the list takes it' }),
  },
  { description: 'One item of a list' },
);

const SideSchema = Type.Object(
  {
    player: Nullable(PlayerRefSchema, 'The player of this side; null when unknown'),
    faction: FactionRefSchema,
    result: Nullable(
      Type.Union([Type.Literal('win'), Type.Literal('draw'), Type.Literal('loss')], {
        description: "This side's result (both sides lose in a double loss)",
      }),
      "This side's result (both sides lose in a double loss); null while the game is not played",
    ),
    score: Nullable(Type.Number({ description: "This side's score; null when unknown" })),
    list: Nullable(
      Type.Array(ListItemSchema, { description: 'The list this side played, items by name' }),
      'The list this side played, items by name; null when the data has none',
    ),
  },
  { description: 'One side of a game' },
);

const RoundSchema = Type.Object(
  {
    round: Nullable(Type.Integer({ description: 'Round number; null for games of unknown round' })),
    games: Type.Array(
      Type.Object(
        {
          played: Type.Boolean({
            description:
              'false while the game is paired but not played yet: its sides have no result, score or list',
          }),
          table: Nullable(
            Type.Integer({
              description:
                'The table of a game not played yet; null for a played game or when unknown',
            }),
          ),
          scenario: Nullable(Type.String({ description: 'Scenario played; null when unknown' })),
          sides: Type.Array(SideSchema, {
            minItems: 2,
            maxItems: 2,
            description: 'The two sides of the game',
          }),
        },
        { description: 'One pairing and its result' },
      ),
      { description: "The round's games, in the data's order" },
    ),
  },
  { description: 'One round' },
);

const Pair = <T extends TSchema>(item: T, description: string) =>
  Type.Array(item, { minItems: 2, maxItems: 2, description });

const TeamsSchema = Type.Object(
  {
    rule: Nullable(
      Type.String({ description: "The system's team rule, by name" }),
      'The team rule that scores its matches and ranks its teams; null when the system declares none (the sums are plain sums and no team is placed)',
    ),
    cap: Nullable(
      Type.Number({ description: "The event's cap on a team's match score" }),
      "The event's declared cap on a team's match score under the rule; null when uncapped or without a rule",
    ),
    teams: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: 'Team name as the source gives it' }),
          members: Type.Array(EntryRefSchema, { description: "The team's entries" }),
          games: Type.Integer({ description: 'Games its members played' }),
          ...WinDrawLossProperties(
            { wins: 'Games its members won', draws: 'Drawn', losses: 'Lost' },
            true,
          ),
          score: Nullable(
            Type.Number({ description: "Sum of its members' known game scores; null when none" }),
          ),
          matches: Nullable(
            Type.Object(
              {
                wins: Type.Integer({ description: 'Team matches won on match score' }),
                draws: Type.Integer({ description: 'Team matches drawn' }),
                losses: Type.Integer({ description: 'Team matches lost' }),
              },
              { description: 'Its team matches under the team rule' },
            ),
            'Its team matches won, drawn and lost under the team rule; null without a rule',
          ),
          matchScore: Nullable(
            Type.Number({
              description: 'Total of its team match scores under the team rule; null without one',
            }),
          ),
          place: Nullable(
            Type.Integer({
              minimum: 1,
              description: 'Its place by the team rule (tied teams share one); null without a rule',
            }),
          ),
        },
        { description: 'One team: its members, the sum of their games, and its place by rule' },
      ),
      { description: 'The teams, by place under a team rule (then name), else by name' },
    ),
    matches: Type.Array(
      Type.Object(
        {
          round: Nullable(Type.Integer({ description: 'Round; null when unknown' })),
          teams: Pair(Type.String(), 'The two teams, in name order'),
          games: Type.Integer({ description: 'Games between their members in the round' }),
          wins: Pair(Type.Integer(), "Games each team's members won"),
          draws: Type.Integer({ description: 'Games drawn' }),
          score: Pair(
            Nullable(Type.Number()),
            "Each team's summed known game scores; null when none is known",
          ),
          matchScore: Nullable(
            Pair(Type.Number(), "Each team's match score, the sums capped"),
            "Each team's match score under the team rule (the summed scores, the higher capped at the event's cap with the excess to the other team); null without a rule or a known sum",
          ),
        },
        { description: 'One team match: the games of one round between two teams, summed' },
      ),
      { description: 'Team matches by round (unknown round last), then team name' },
    ),
  },
  {
    description:
      "A team event's teams as its source gives them (entries' team), with sums of their members' games; ranked only where the system declares a team rule (docs/statistics.md#team-events)",
  },
);

export const EventPageSchema = Type.Object(
  {
    event: Type.Object(EventInfoProperties, { description: "The event's fields" }),
    standings: Type.Array(StandingSchema, {
      description:
        'Every entry, declared or having played a game, by placement (entries without one last), then player id',
    }),
    rounds: Type.Array(RoundSchema, {
      description: 'Rounds in ascending order, games of unknown round last',
    }),
    tieBreakers: Type.Array(
      Type.Object(
        {
          key: Type.Union(
            PLACEMENT_KEYS.map((k) => Type.Literal(k)),
            { description: 'The placing key' },
          ),
          title: Type.String({ description: 'The key in words' }),
        },
        { description: 'One tie-breaker' },
      ),
      {
        description:
          "The tie-breakers the event's game system declares (its placing rule's keys after the first) that the source can give: the ones that read scores only where the games have them; empty when the system declares none or for a team event (docs/statistics.md#tie-breakers)",
      },
    ),
    teams: Nullable(
      TeamsSchema,
      "A team event's teams when its source gives them; null otherwise (a singles event, or a team event whose source gives no teams)",
    ),
  },
  { description: "With `event`: that event's page" },
);
