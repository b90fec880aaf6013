/** POST /api/faction-stats: how each faction (army) performs (docs/statistics.md#faction-stats). */
import { Type } from 'typebox';
import { MethodologyEcho, MethodologyProperties, methodologyOf } from '../../domain/methodology.ts';
import { AppliedIds, applied, compareFilter, statsRoute } from './stats-route.ts';
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
  MarginBandsSchema,
  MeanIntervalSchema,
  RateSchema,
  TurnStatsSchema,
  WIN_RATE,
  WilsonIntervalSchema,
  WinDrawLossProperties,
} from '../schemas/envelope.ts';
import { OverRepresentationSchema } from '../schemas/over-representation.ts';

const GroupBySchema = Type.Union(
  [Type.Literal('none'), Type.Literal('month'), Type.Literal('quarter')],
  { description: 'Add a per-period series to each faction; default none' },
);

const RouteProperties = {
  factions: Type.Optional(
    IdArray(
      'Only these factions (rows); shares and the summary still cover the whole scope',
      'A faction id',
    ),
  ),
  excludeMirrors: Type.Optional(
    Type.Boolean({
      description:
        'Leave mirror games out of games, W/D/L and winRate (default true). When false every side counts, so a mirror gives its faction two games. mirrors, when given, decides instead',
    }),
  ),
  ...MethodologyProperties(
    'exclude',
    'counts every side, so a mirror game gives its faction two games (= excludeMirrors false); when given it decides over excludeMirrors',
  ),
  minGames: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1000000,
      description: 'Leave out factions with fewer games, 0 to 1000000 (default 0)',
    }),
  ),
  groupBy: Type.Optional(GroupBySchema),
  scoreDistribution: Type.Optional(
    Type.Boolean({
      description:
        "Give each row scoreDistribution, its sides' scores counted step by step on the system's scale (default false)",
    }),
  ),
  compareTo: CompareToProperty,
  interval: IntervalKindProperty,
};

export const FactionStatsBody = Type.Object(
  { ...CommonFilterProperties, ...RouteProperties },
  {
    additionalProperties: false,
    description: 'Common filter plus faction-stats options',
    // No system or data-specific ids: the /docs "try it" example works on whatever is served.
    examples: [{ minParticipants: 8, groupBy: 'quarter' }],
  },
);

const FactionStatsFilter = Type.Object(
  {
    ...NormalisedFilterProperties,
    factions: AppliedIds('faction'),
    excludeMirrors: Type.Boolean({ description: 'Whether mirror games were left out of games' }),
    minGames: Type.Integer({ description: 'Minimum games of a row applied' }),
    groupBy: GroupBySchema,
    scoreDistribution: Type.Boolean({ description: 'Whether rows carry scoreDistribution' }),
    compareTo: CompareToEcho,
    interval: IntervalKindEcho,
    ...MethodologyEcho,
  },
  { description: 'The filter applied, defaults filled in' },
);

const GAMES_RULE =
  'mirror games (the faction against itself) left out when excludeMirrors is true (default); when false every side counts, so a mirror game counts twice';

const SeriesPointSchema = Type.Object(
  {
    period: Type.String({
      description:
        'The period of the events\' start dates (UTC): "YYYY-MM" for months, "YYYY-Qn" for quarters',
    }),
    sides: Type.Number({ description: 'Sides the faction played in the period, mirrors included' }),
    games: Type.Number({ description: `Games counted in the period: ${GAMES_RULE}` }),
    ...WinDrawLossProperties({
      wins: 'Counted games won in the period',
      draws: 'Counted games drawn in the period',
      losses: 'Counted games lost in the period (a double loss counts as a loss)',
    }),
    winRate: RateSchema(WIN_RATE),
    winRateInterval: WilsonIntervalSchema(),
    avgScore: Nullable(
      Type.Number({
        description:
          'Mean score over the sides of the period with a known score, mirrors included; null when none',
      }),
    ),
  },
  { description: 'The faction in one period with at least one side' },
);

const turnFields = (turn: 'first' | 'second') => ({
  games: `Counted games in which the faction went ${turn}: ${GAMES_RULE}`,
  winRate: `(wins + draws/2) / games over those games; null when games is 0`,
  avgScore: `Mean score over its sides that went ${turn} with a known score, mirrors included; null when none`,
});

const RunTheTableSchema = Type.Array(
  Type.Object(
    {
      games: Type.Integer({
        description: 'Games an entry played in its event (1 to 15): the entries of this length',
      }),
      entries: Type.Number({
        description:
          "The faction's standings entries in events with a game in scope that played this many games (an entry without a declared faction takes the one it played most)",
      }),
      undefeated: Type.Number({ description: 'Of those, entries that lost no game' }),
      undefeatedShare: Type.Number({ description: 'undefeated / entries' }),
      coinFlipUndefeated: Type.Number({
        description: '2^−games: the share expected if every game were a coin flip',
      }),
      atMostOneLoss: Type.Number({ description: 'Entries that lost at most one game' }),
      atMostOneLossShare: Type.Number({ description: 'atMostOneLoss / entries' }),
      coinFlipAtMostOneLoss: Type.Number({
        description: '(games + 1) · 2^−games: the share expected if every game were a coin flip',
      }),
    },
    { description: 'Entries of one length and how many ran the table' },
  ),
  {
    description:
      "Run the table: per number of games played in an event (rounds played), the share of the faction's entries that finished undefeated and with at most one loss, beside the coin-flip shares; above them the faction runs hot (swingy or strong), below them it grinds; a double loss is a loss, a draw is not; shortest first, lengths without entries left out",
  },
);

const FactionRowSchema = Type.Object(
  {
    faction: FactionRefSchema,
    sides: Type.Number({
      description:
        'Sides the faction played in scope, mirrors included whatever excludeMirrors says (a mirror game gives two)',
    }),
    games: Type.Number({
      description: `Games counted for wins, draws, losses and winRate: ${GAMES_RULE}`,
    }),
    ...WinDrawLossProperties({
      wins: 'Counted games won',
      draws: 'Counted games drawn',
      losses: 'Counted games lost (a double loss, both sides penalised, counts as a loss)',
    }),
    mirrorGames: Type.Number({
      description:
        'Mirror games (the faction against itself), each counted once, whatever excludeMirrors says',
    }),
    winRate: RateSchema(WIN_RATE),
    winRateInterval: RateIntervalSchema(),
    avgScore: Nullable(
      Type.Number({
        description:
          'Mean score over all sides with a known score, mirrors included whatever excludeMirrors says; null when none',
      }),
    ),
    avgScoreInterval: MeanIntervalSchema(),
    players: Type.Number({
      description:
        'Distinct known players who played the faction in scope (unknown players not counted)',
    }),
    entries: Type.Number({
      description:
        'Standings entries with the faction in events with a game in scope (an entry without a declared faction takes the one it played most)',
    }),
    metaShare: RateSchema(
      "The faction's sides over all sides in scope (every faction of the system, mirrors included, whatever factions selects); null when the scope has no sides",
    ),
    firstTurn: TurnStatsSchema('Games in which the faction went first', turnFields('first')),
    secondTurn: TurnStatsSchema(
      'Games in which the faction went second (sides whose turn order is unknown are in neither)',
      turnFields('second'),
    ),
    eventWins: Type.Number({
      description:
        'Entries placed 1st in events with a game in scope (the published placement, else derived by the system rule, ties sharing a place; events without placings have none)',
    }),
    derivedEventWins: Type.Number({
      description:
        'Of eventWins, those at events whose places the source does not publish and the system rule derives from the games (docs/statistics.md#standings); 0 when all are published',
    }),
    undefeated: Type.Number({
      description:
        'Entries in events with a game in scope that played at least one game and lost none',
    }),
    topShare: Nullable(
      Type.Number({
        description:
          "(The faction's top-10% entries / all top-10% entries) / (its entries / all entries), both counted over the events in scope with published or rule-derived placings, where an entry is top 10% when its placement is at most ceil(placed entries / 10) in its event; 1 = as many top placements as its share of entries predicts; = overRepresentation.topTen.ratio; null when that is",
      }),
    ),
    overRepresentation: OverRepresentationSchema,
    skill: Nullable(
      Type.Object(
        {
          expectedWinRate: Nullable(
            Type.Number({
              description:
                "Mean Elo expectation 1 / (1 + 10^((opponent's rating − player's rating) / 400)) over those sides",
            }),
          ),
          overExpected: Nullable(
            Type.Number({
              description:
                "Win rate of those same sides (draws half) minus expectedWinRate: above 0 the faction did better than its players' ratings predicted (a strong army), below 0 worse",
            }),
          ),
        },
        {
          description:
            "Strong army or strong players? Over the faction's non-mirror sides in scope where both players are known and rated: each player's Glicko-2 rating before the game (default parameters, one rating period per event, over all of the system's games), compared with the result; null when there is no such side",
        },
      ),
    ),
    runTheTable: RunTheTableSchema,
    lowSample: Type.Boolean({ description: 'true when games is under 30' }),
    scoreDistribution: Type.Optional(
      Nullable(
        Type.Object(
          {
            min: Type.Number({ description: "The scale's lowest score" }),
            max: Type.Number({ description: "The scale's highest score" }),
            counts: Type.Array(Type.Integer({ minimum: 0 }), {
              description:
                'counts[i]: sides of the faction in scope that scored min + i (every side, a mirror both, as avgScore counts them)',
            }),
            offScale: Type.Integer({
              description: 'Sides with a known score that is not a whole step of the scale',
            }),
          },
          { description: "The faction's score distribution on the system's scale" },
        ),
        "Only with scoreDistribution: the faction's scores counted step by step; null when the system declares no whole-number scale (or one over 200 steps)",
      ),
    ),
    series: Type.Optional(
      Type.Array(SeriesPointSchema, {
        description:
          'Per month or quarter of event start with at least one side, oldest first; only when groupBy is month or quarter',
      }),
    ),
    compare: ComparisonSchema(`Games counted (${GAMES_RULE}) of the faction`),
  },
  { description: 'One faction; rows with fewer than minGames games are left out' },
);

export const FactionStatsResponse = Envelope(
  Type.Object(
    {
      factions: Type.Array(FactionRowSchema, {
        description:
          'Factions with at least one side in scope (only those of factions, when given), most games first, then most sides, then id',
      }),
      summary: Type.Object(
        {
          games: Type.Number({
            description: 'Games in scope, every faction, mirrors included (= meta.sample.games)',
          }),
          events: Type.Number({
            description: 'Events with at least one game in scope (= meta.sample.events)',
          }),
          avgScoreFirstTurn: Nullable(
            Type.Number({
              description:
                'Mean score of all sides in scope that went first (every faction, mirrors included) with a known score; null when none',
            }),
          ),
          avgScoreSecondTurn: Nullable(
            Type.Number({
              description:
                'Mean score of all sides in scope that went second (every faction, mirrors included) with a known score; null when none',
            }),
          ),
          marginBands: MarginBandsSchema('in scope (every faction)'),
          diversity: Type.Object(
            {
              hhi: Nullable(
                Type.Number({
                  description:
                    "Herfindahl-Hirschman index: the sum over the system's factions of (faction sides / all sides in scope)²; null when the scope has no sides",
                }),
              ),
              effectiveFactions: Nullable(
                Type.Number({
                  description:
                    '1 / hhi: the number of equally played factions with the same hhi; null when hhi is null',
                }),
              ),
            },
            { description: "How varied the meta is, from every faction's share of sides" },
          ),
        },
        {
          description: 'The whole scope, whatever factions and minGames select',
        },
      ),
    },
    { description: 'Per-faction rows and a summary of the scope' },
  ),
  FactionStatsFilter,
  DEFAULT_SAMPLE,
  CompareSampleMeta,
);

/**
 * `mirrors` and the older `excludeMirrors` as one rule (docs/statistics.md#methodology-switches):
 * `mirrors` decides when given, both are echoed.
 */
function mirrorsOf(body: { excludeMirrors?: boolean; mirrors?: 'exclude' | 'include' }) {
  const legacy = body.excludeMirrors === false ? 'include' : 'exclude';
  const methodology = methodologyOf(body, body.mirrors ?? legacy);
  return { ...methodology, excludeMirrors: methodology.mirrors === 'exclude' };
}

/** The statistics route POST /api/faction-stats. */
export const factionStatsRoute = statsRoute({
  path: '/api/faction-stats',
  summary: 'How each faction performs',
  description:
    'Win/draw/loss, win rate with a Wilson interval, average score with a t interval, meta share, first/second turn, event wins, top-10% share, over-representation (top 10%, X-0 runs, event wins against share of entries, with intervals) and diversity, optionally per month or quarter. Draws count half; mirror games are left out of win rates by default.',
  body: FactionStatsBody,
  response: FactionStatsResponse,
  filterOf: (body) => body,
  task: 'factionStats',
  args: (snapshot, filter, body) => [
    {
      ...filter,
      factions: applied(body.factions),
      ...mirrorsOf(body),
      minGames: body.minGames ?? 0,
      groupBy: body.groupBy ?? 'none',
      scoreDistribution: body.scoreDistribution ?? false,
      compareTo: compareFilter(snapshot, filter, body.compareTo),
      interval: body.interval ?? 'wilson',
    },
  ],
});
