/**
 * Response pieces of the events route: an event's fields, its winners and undefeated entries,
 * and one event's page with standings and rounds (docs/statistics.md#events).
 */
import { Type } from 'typebox';
import { EVENT_FORMATS, EVENT_TIERS } from '../../domain/model.ts';
import { Nullable } from './common-filter.ts';
import { FactionRefSchema, WinDrawLossProperties } from './envelope.ts';
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
          'Final placement: published, else derived from the games (wins, then total score; equals share a place); null when the event published placements but none for this entry',
      }),
    ),
    player: PlayerRefSchema,
    faction: EntryRefSchema.properties.faction,
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
    top: Type.Boolean({ description: 'Placed within the top 10% (ceil) of the event' }),
    undefeated: Type.Boolean({ description: 'Played at least one game and lost none' }),
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
    result: Type.Union([Type.Literal('win'), Type.Literal('draw'), Type.Literal('loss')], {
      description: "This side's result (both sides lose in a double loss)",
    }),
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
  },
  { description: "With `event`: that event's page" },
);
