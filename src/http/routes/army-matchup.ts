/** POST /api/army-matchup: faction-versus-faction results (docs/statistics.md#army-matchup). */
import { Type } from 'typebox';
import { MethodologyEcho, MethodologyProperties, methodologyOf } from '../../domain/methodology.ts';
import { applied, compareFilter, statsRoute } from './stats-route.ts';
import { EstimateSchema } from '../schemas/estimate.ts';
import { ShrinkageMeta, ShrunkWinRateSchema } from '../schemas/shrinkage-meta.ts';
import {
  IntervalKindEcho,
  IntervalKindProperty,
  RateIntervalSchema,
} from '../schemas/interval-kind.ts';
import {
  CompareSampleMeta,
  CompareToEcho,
  CompareToProperty,
  ComparisonSchema,
} from '../schemas/compare-to.ts';
import {
  CommonFilterProperties,
  IdArray,
  NormalisedFilterProperties,
  Nullable,
} from '../schemas/common-filter.ts';
import {
  DEFAULT_SAMPLE,
  Envelope,
  FactionRefSchema,
  RateSchema,
  WinDrawLossProperties,
} from '../schemas/envelope.ts';

export const ArmyMatchupBody = Type.Object(
  {
    ...CommonFilterProperties,
    factions: Type.Optional(IdArray('Row factions (default all)', 'A faction id')),
    opponents: Type.Optional(IdArray('Column factions (default all)', 'A faction id')),
    minGames: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description: 'Leave out cells with fewer games, 0 to 1000000 (default 0)',
      }),
    ),
    compareTo: CompareToProperty,
    interval: IntervalKindProperty,
    ...MethodologyProperties(
      'include',
      'keeps the mirror cells (each mirror game once, win rate exactly 0.5)',
    ),
    skillAdjusted: Type.Optional(
      Type.Boolean({
        description:
          'true: each cell also carries its expected score after pilot skill, from the joint model fitted to the scope (docs/ratings.md#the-joint-model); the fit costs far more than the matrix itself, so it is asked for (default false: skillAdjusted null)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Common filter plus army-matchup options',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ minGames: 5, interval: 'event-clustered' }],
  },
);

const CellSchema = Type.Object(
  {
    faction: Type.String({ description: 'Row faction id: the numbers are from its side' }),
    opponent: Type.String({ description: 'Column faction id: the opponent' }),
    games: Type.Number({
      description:
        'Games in scope between the row and the column faction; a mirror game (row = column) counts once',
    }),
    ...WinDrawLossProperties({
      wins: 'Games the row faction won; mirror cell: winning sides, i.e. mirror games with a winner',
      draws: 'Games drawn; mirror cell: drawn mirror games',
      losses:
        'Games the row faction lost (a double loss counts); mirror cell: losing sides, so a double loss counts twice',
    }),
    winRate: RateSchema(
      '(wins + draws/2) / games of the row faction: a draw counts half (with draws "exclude": wins / (games − draws), null when every game was drawn); exactly 0.5 in a mirror cell',
    ),
    winRateInterval: RateIntervalSchema(
      '; mirror cell: always the Wilson interval of games/2 successes out of games',
    ),
    shrunkWinRate: ShrunkWinRateSchema(
      "the row faction's win rate over all its non-mirror cells in scope (every opponent of the system); exactly 0.5 in a mirror cell",
    ),
    avgScore: Nullable(
      Type.Number({
        description:
          "Mean score of the row faction's sides with a known score (mirror cell: both sides of each mirror game); null when none",
      }),
    ),
    skillAdjusted: Nullable(
      EstimateSchema(
        "After pilot skill: the row faction's expected score against the column faction between equally rated players, from the joint model of skill, faction and matchup fitted to the scope (docs/ratings.md#the-joint-model), with its 95% interval; exactly 0.5 in a mirror cell; null unless the request asks skillAdjusted, or when the model has no estimate",
      ),
    ),
    lowSample: Type.Boolean({ description: 'true when games is under 30' }),
    compare: ComparisonSchema(
      'Games between the row and the column faction (a mirror cell: rate 0.5 in both scopes, difference 0)',
    ),
  },
  {
    description:
      "One matchup, from the row faction's side; cells with no game or fewer than minGames games are left out",
  },
);

export const ArmyMatchupResponse = Envelope(
  Type.Object(
    {
      factions: Type.Array(FactionRefSchema, {
        description:
          "Row factions with at least one cell, in the order of factions when given, else in the system's faction order",
      }),
      cells: Type.Array(CellSchema, {
        description: 'Matchups, row by row (in the order of factions), then by column',
      }),
    },
    { description: 'The matchup matrix as a list of cells' },
  ),
  Type.Object(
    {
      ...NormalisedFilterProperties,
      factions: Type.Array(Type.String({ description: 'A faction id' }), {
        description: 'Row faction ids applied, duplicates removed; empty: every faction',
      }),
      opponents: Type.Array(Type.String({ description: 'A faction id' }), {
        description: 'Column faction ids applied, duplicates removed; empty: every faction',
      }),
      minGames: Type.Integer({ description: 'Minimum games of a cell applied' }),
      compareTo: CompareToEcho,
      interval: IntervalKindEcho,
      skillAdjusted: Type.Boolean({ description: 'Whether cells carry skillAdjusted' }),
      ...MethodologyEcho,
    },
    { description: 'The filter applied, defaults filled in' },
  ),
  DEFAULT_SAMPLE,
  { ...CompareSampleMeta, ...ShrinkageMeta },
);

/** The statistics route POST /api/army-matchup. */
export const armyMatchupRoute = statsRoute({
  path: '/api/army-matchup',
  summary: 'Faction-versus-faction results',
  description:
    "Each cell is a matchup from the row faction's side: games, W/D/L, win rate (draws half) with a Wilson interval and average score. A mirror cell counts each mirror game once with win rate 0.5.",
  body: ArmyMatchupBody,
  response: ArmyMatchupResponse,
  filterOf: (body) => body,
  task: 'armyMatchup',
  args: (snapshot, filter, body) => [
    {
      ...filter,
      factions: applied(body.factions),
      opponents: applied(body.opponents),
      minGames: body.minGames ?? 0,
      compareTo: compareFilter(snapshot, filter, body.compareTo),
      interval: body.interval ?? 'wilson',
      skillAdjusted: body.skillAdjusted ?? false,
      ...methodologyOf(body, 'include'),
    },
  ],
});
