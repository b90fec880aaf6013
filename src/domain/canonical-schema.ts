/**
 * The canonical import format `muster/v1` (docs/import-formats.md#canonical-musterv1) as TypeBox
 * schemas. They validate each
 * record on import and are published as JSON Schema (schema/muster-v1.schema.json) so
 * organisers can check a file before sending it.
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { DATE_PATTERN } from './calendar-day.ts';
import {
  EVENT_FORMATS,
  EVENT_STATUSES,
  EVENT_TIERS,
  PLACEMENT_KEYS,
  TEAM_RANK_KEYS,
  RESULTS,
  SCENARIO_KINDS,
} from './model.ts';

const Id = Type.String({ minLength: 1, maxLength: 200, description: 'Stable identifier' });
const Name = Type.String({ minLength: 1, maxLength: 300 });
const Text = (max = 300) => Type.String({ maxLength: max });
const Date = Type.String({
  pattern: DATE_PATTERN,
  description: 'Calendar date, YYYY-MM-DD',
});
const Instant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$',
  description: 'ISO 8601 UTC instant, YYYY-MM-DDTHH:MM:SS(.sss)Z',
});
const Country = Type.String({
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166-1 alpha-2 country code',
});
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });
const Enum = (values: readonly string[], description?: string) =>
  Type.Unsafe<string>({
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });

const Band = Type.Object(
  { min: Type.Number(), max: Type.Number() },
  { additionalProperties: false, description: "Inclusive range of the winner's score" },
);

export const SystemSchema = Type.Object(
  {
    id: Id,
    name: Name,
    score: Type.Optional(
      Type.Object(
        {
          min: Type.Number(),
          max: Type.Number(),
          total: Opt(Type.Number({ description: 'The two scores of a game sum to this' })),
        },
        {
          additionalProperties: false,
          description:
            'Score rules; without them scores are taken as given, unchecked, and margin bands are null',
        },
      ),
    ),
    marginBands: Opt(
      Type.Object({ decisive: Band, normal: Band, close: Band }, { additionalProperties: false }),
    ),
    demo: Type.Optional(
      Type.Boolean({
        description:
          'true when the results of this system are generated demo data, not real tournaments',
      }),
    ),
    placementRule: Opt(
      Type.Object(
        {
          name: Name,
          rank: Type.Array(Enum(PLACEMENT_KEYS), { minItems: 1, maxItems: PLACEMENT_KEYS.length }),
        },
        {
          additionalProperties: false,
          description:
            "How the system's events rank when the source publishes no placings: the keys compared in order, higher first (score: total game score; wins: wins, a draw half; opponentWins, opponentWinsMean: the sum and mean of the opponents' wins there; margin: scores for minus against), then tied players share a place. Absent: such events have no places",
        },
      ),
    ),
    teamRule: Opt(
      Type.Object(
        {
          name: Name,
          rank: Type.Array(Enum(TEAM_RANK_KEYS), {
            minItems: 1,
            maxItems: TEAM_RANK_KEYS.length,
          }),
        },
        {
          additionalProperties: false,
          description:
            "How the system's team events score: a team match scores the sum of its members' game scores (capped where the event declares teamScoreCap), and teams rank by the keys in order, higher first (score: total team match score; matches: team match wins, a draw half), tied teams sharing a place. Absent: teams are listed with plain sums and not ranked",
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'A game system and its score rules' },
);

export const FactionSchema = Type.Object(
  {
    id: Id,
    system: Id,
    name: Name,
    parent: Opt(Id),
    aliases: Type.Optional(Type.Array(Name, { maxItems: 100 })),
  },
  { additionalProperties: false, description: 'A faction (army); parent marks a subfaction' },
);

export const PlayerSchema = Type.Object(
  {
    id: Id,
    name: Opt(Name),
    country: Opt(Country),
    aliases: Type.Optional(Type.Array(Name, { maxItems: 100 })),
  },
  { additionalProperties: false },
);

/** A player merge as the store keeps it (docs/data-model.md#player-merges). */
export const PlayerMergeSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'The merge id in the store it was exported from' }),
    keep: Id,
    other: Id,
    note: Text(2000),
    mergedAt: Instant,
    undoneAt: Opt(Instant),
    moved: Type.Object(
      { games: Count, entries: Count },
      { additionalProperties: false, description: 'What the other id held when merged' },
    ),
  },
  {
    additionalProperties: false,
    description: "One person's two ids made one: `other` counts as `keep` while it stands",
  },
);

export const ScenarioSchema = Type.Object(
  {
    system: Id,
    kind: Enum(SCENARIO_KINDS),
    name: Name,
    description: Opt(Text(5000)),
  },
  { additionalProperties: false },
);

const OptionSchema = Type.Object({ name: Name, type: Name }, { additionalProperties: false });

const UnitSchema = Type.Object(
  {
    name: Name,
    category: Name,
    cost: Opt(Type.Number({ minimum: 0 })),
    models: Opt(Count),
    options: Type.Optional(Type.Array(OptionSchema, { maxItems: 500 })),
  },
  { additionalProperties: false },
);

export const ListSchema = Type.Object(
  {
    points: Opt(Type.Number({ minimum: 0 })),
    units: Type.Array(UnitSchema, { maxItems: 500 }),
    configuration: Type.Optional(
      Type.Array(OptionSchema, {
        maxItems: 500,
        description:
          'List-level choices that are not units (a battle formation, a lore): type names the choice, name what was chosen',
      }),
    ),
  },
  { additionalProperties: false, description: 'An army list' },
);

export const EntrySchema = Type.Object(
  {
    player: Id,
    faction: Opt(Name),
    subfaction: Opt(Name),
    team: Opt(Name),
    placement: Opt(Type.Integer({ minimum: 1 })),
    list: Opt(ListSchema),
  },
  { additionalProperties: false, description: 'A player taking part in an event' },
);

const ResultSchema = Enum(RESULTS);

export const SideSchema = Type.Object(
  {
    player: Opt(Id),
    faction: Name,
    subfaction: Opt(Name),
    score: Opt(Type.Number()),
    result: Opt(ResultSchema),
    firstTurn: Opt(Type.Boolean()),
    primaryAchieved: Opt(Type.Boolean()),
    secondary: Opt(Name),
    secondaryAchieved: Opt(Type.Boolean()),
    list: Opt(ListSchema),
  },
  { additionalProperties: false, description: 'One side of a game' },
);

export const GameSchema = Type.Object(
  {
    id: Id,
    round: Opt(Type.Integer({ minimum: 0, maximum: 1000 })),
    table: Opt(Type.Integer({ minimum: 0, maximum: 100000 })),
    scenario: Opt(
      Type.Object(
        {
          name: Opt(Name),
          map: Opt(Name),
          deployment: Opt(Name),
          primary: Opt(Name),
          secondaries: Type.Optional(Type.Array(Name, { maxItems: 50 })),
        },
        { additionalProperties: false },
      ),
    ),
    sides: Type.Array(SideSchema, { minItems: 2, maxItems: 2 }),
  },
  { additionalProperties: false, description: 'A game: exactly two sides (a bye is not a game)' },
);

/** An event's own fields; entries and games are validated one record at a time. */
export const EventFieldsSchema = Type.Object(
  {
    id: Id,
    system: Id,
    name: Name,
    start: Date,
    end: Opt(Date),
    status: Type.Optional(Enum(EVENT_STATUSES, 'Default: completed')),
    format: Type.Optional(Enum(EVENT_FORMATS, 'Default: singles')),
    tier: Type.Optional(Enum(EVENT_TIERS, 'Default: standard')),
    qualifiesFor: Opt(Id),
    slots: Opt(Count),
    participants: Opt(Count),
    capacity: Opt(Count),
    rounds: Opt(Type.Integer({ minimum: 0, maximum: 100 })),
    pointsLimit: Opt(Count),
    rulesVersion: Opt(Text(50)),
    teamScoreCap: Opt(
      Type.Number({
        minimum: 0,
        description:
          "A team event's cap on one team's score in a team match; the excess goes to the other team",
      }),
    ),
    country: Opt(Country),
    region: Opt(Text()),
    city: Opt(Text()),
    venue: Opt(Text()),
    location: Opt(
      Type.Object(
        {
          lat: Type.Number({ minimum: -90, maximum: 90 }),
          lon: Type.Number({ minimum: -180, maximum: 180 }),
        },
        { additionalProperties: false },
      ),
    ),
    online: Opt(Type.Boolean()),
    url: Opt(Text(2000)),
    registrationUrl: Opt(Text(2000)),
    entries: Type.Optional(Type.Array(Type.Unknown())),
    games: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: false, description: 'An event (tournament)' },
);

/** The published document schema: EventFieldsSchema with entries and games spelled out. */
export const CanonicalDocumentSchema = Type.Object(
  {
    format: Type.Literal('muster/v1'),
    systems: Type.Optional(Type.Array(SystemSchema)),
    factions: Type.Optional(Type.Array(FactionSchema)),
    players: Type.Optional(Type.Array(PlayerSchema)),
    scenarios: Type.Optional(Type.Array(ScenarioSchema)),
    events: Type.Optional(
      Type.Array(
        Type.Object(
          {
            ...EventFieldsSchema.properties,
            entries: Type.Optional(Type.Array(EntrySchema)),
            games: Type.Optional(Type.Array(GameSchema)),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    playerMerges: Type.Optional(Type.Array(PlayerMergeSchema)),
  },
  {
    additionalProperties: false,
    title: 'Muster canonical import document (muster/v1)',
  },
);

/** The top level only: every array is then checked record by record. */
export const DocumentEnvelopeSchema = Type.Object(
  {
    format: Type.Literal('muster/v1'),
    systems: Type.Optional(Type.Array(Type.Unknown())),
    factions: Type.Optional(Type.Array(Type.Unknown())),
    players: Type.Optional(Type.Array(Type.Unknown())),
    scenarios: Type.Optional(Type.Array(Type.Unknown())),
    events: Type.Optional(Type.Array(Type.Unknown())),
    playerMerges: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: false },
);
