/**
 * POST /api/rankings: player rankings by Glicko-2, Elo or best-N event points (docs/ratings.md),
 * a thin adapter over the engine's leaderboard (src/engine/ratings/leaderboard.ts).
 */
import { Type } from 'typebox';
import { DATE_PATTERN } from '../../domain/calendar-day.ts';
import { LEADERBOARD_PAGE_SIZE } from '../../engine/ratings/leaderboard.ts';
import { PLAYER_GAMES_PAGE_SIZE } from '../../engine/ratings/player-games.ts';
import { PROVISIONAL_RD } from '../../engine/ratings/rankings.ts';
import {
  CommonFilterProperties,
  Id,
  IdArray,
  NormalisedFilterProperties,
  Nullable,
  PageProperties,
} from '../schemas/common-filter.ts';
import { Envelope, FactionRefSchema, WinDrawLossProperties } from '../schemas/envelope.ts';
import {
  HeadToHeadSchema,
  PlayerPageSchema,
  PlayerRefSchema,
  PredictionQualitySchema,
} from '../schemas/player-page.ts';
import { MAX_ARRAY_ITEMS } from '../plugins/limits.ts';
import {
  AppliedMethodParamsProperties,
  MethodParamsProperties,
  MethodSchema,
} from '../schemas/rating-methods.ts';
import { statsRoute } from './stats-route.ts';

const { countries: _eventCountries, ...FilterWithoutCountries } = CommonFilterProperties;

const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' });

export const RankingsBody = Type.Object(
  {
    ...FilterWithoutCountries,
    method: Type.Optional(MethodSchema),
    factions: Type.Optional(
      IdArray(
        'Rate only games in which a side played one of these factions, and list only players who played one of them (their record counts those sides)',
        'A faction id',
      ),
    ),
    countries: Type.Optional(
      Type.Array(CountryCode, {
        maxItems: MAX_ARRAY_ITEMS,
        description:
          "Only players of these countries, ranked among themselves (here countries are the players', not the events')",
      }),
    ),
    minGames: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description:
          'Leave out (and do not rank) players with fewer rated games, 0 to 1000000 (default 0)',
      }),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Only rows whose player name or id contains this (case-insensitive); ranks stay those of the full ranking',
      }),
    ),
    ...PageProperties('Rows', LEADERBOARD_PAGE_SIZE),
    sort: Type.Optional(
      Type.Union([Type.Literal('conservative'), Type.Literal('rating')], {
        description: `Glicko-2's order: "conservative" (default) by conservativeRating = rating − 2·RD, the low end of the 95% interval, or "rating". Elo and points always order by rating`,
      }),
    ),
    includeProvisional: Type.Optional(
      Type.Boolean({
        description: `Glicko-2: also rank provisional players (RD above ${PROVISIONAL_RD}), still flagged; default false leaves them out, unless the filter keeps no established player, when they are listed all the same (provisionalFallback says so). Elo and points have no provisional players: minGames does that job there`,
      }),
    ),
    asOf: Type.Optional(
      Type.String({
        pattern: DATE_PATTERN,
        maxLength: 10,
        description:
          'Rate as of this date (YYYY-MM-DD): games of events starting up to it, and with week or month periods, deviations grown through its period; the ranking as it stood that day',
      }),
    ),
    player: Type.Optional(
      Id("A player id: also answer data.player, that player's page (404 when the id is unknown)"),
    ),
    gamesPage: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: `With player: the page of data.player.games, ${PLAYER_GAMES_PAGE_SIZE} games a page, latest first (default 1)`,
      }),
    ),
    versus: Type.Optional(
      Type.Array(Id('A player id'), {
        minItems: 2,
        maxItems: 2,
        description:
          'Two player ids [A, B]: also answer data.versus, the expected score of A against B and their past games (404 when an id is unknown)',
      }),
    ),
    ...MethodParamsProperties,
  },
  {
    additionalProperties: false,
    description:
      'Common filter plus ranking options. Games are rated in order of event start, then round, then game id; sides with an unknown player are skipped.',
    // No system or data-specific ids: the /docs "try it" examples work on whatever is served.
    examples: [
      { method: 'glicko2', glicko2: { period: 'event' }, includeProvisional: true, pageSize: 20 },
      { method: 'points', points: { bestN: 4 }, minGames: 2 },
    ],
  },
);

const RATED =
  "sides the player played in rated games (games in scope with two different known players; with factions, only the player's sides with those factions)";

const RANK =
  'Standard competition rank by the sort value among the players kept by provisional status, minGames and countries (equal values share a rank: 1, 2, 2, 4); search and paging do not change it';

const RankingRowSchema = Type.Object(
  {
    rank: Type.Integer({ description: RANK }),
    player: PlayerRefSchema,
    rating: Type.Number({
      description:
        'glicko2: Glicko-2 rating after the last period; elo: Elo rating after the last game; points: sum of the best N event scores',
    }),
    conservativeRating: Nullable(
      Type.Number({
        description:
          'Glicko-2: rating − 2·RD, the low end of the 95% interval, the default order; null for other methods',
      }),
    ),
    provisional: Type.Boolean({
      description: `Glicko-2: RD above ${PROVISIONAL_RD} (too few recent games to rank with confidence); always false for other methods`,
    }),
    rd: Nullable(Type.Number({ description: 'Glicko-2 rating deviation; null for other methods' })),
    volatility: Nullable(
      Type.Number({ description: 'Glicko-2 volatility; null for other methods' }),
    ),
    games: Type.Integer({ description: `Rated games: ${RATED}` }),
    ...WinDrawLossProperties(
      {
        wins: 'Rated games won',
        draws: 'Rated games drawn',
        losses: 'Rated games lost (a double loss counts as a loss)',
      },
      true,
    ),
    events: Type.Integer({
      description: 'Events with a rated game (points: events scored)',
    }),
    mainFaction: Nullable(
      FactionRefSchema,
      "The faction of most of the player's rated sides (ties: the lowest id); null when none",
    ),
    lastPlayed: Nullable(
      Type.String({
        description:
          'Start date (YYYY-MM-DD) of the latest event with a rated game (points: or scored); null when none',
      }),
    ),
  },
  { description: 'One ranked player' },
);

/**
 * The player page's row: the leaderboard row whose rank is null when the leaderboard leaves the
 * player out (an integer-only rank would be serialised as 0 there).
 */
const PlayerRowSchema = Type.Object(
  {
    ...RankingRowSchema.properties,
    rank: Nullable(
      Type.Integer({ description: RANK }),
      `${RANK}; null when the leaderboard leaves the player out (provisional, minGames or countries)`,
    ),
  },
  { description: "The player's leaderboard row" },
);

const RankingsFilter = Type.Object(
  {
    ...NormalisedFilterProperties,
    method: MethodSchema,
    factions: Type.Array(Type.String({ description: 'A faction id' }), {
      description: 'Faction ids applied, sorted; empty: every faction',
    }),
    countries: Type.Array(Type.String({ description: "A player's country, upper case" }), {
      description: "Players' countries applied, duplicates removed; empty: every player",
    }),
    minGames: Type.Integer({ description: 'Minimum rated games applied' }),
    search: Nullable(Type.String({ description: 'Name or id search applied; null: none' })),
    page: Type.Integer({ description: 'Page number applied' }),
    pageSize: Type.Integer({ description: 'Page size applied' }),
    sort: Type.Union([Type.Literal('conservative'), Type.Literal('rating')], {
      description: 'Order applied (always rating for elo and points)',
    }),
    includeProvisional: Type.Boolean({ description: 'Whether provisional players are ranked' }),
    asOf: Nullable(Type.String({ description: 'The asOf date applied; null: none' })),
    player: Nullable(Type.String({ description: 'The player whose page is answered; null: none' })),
    gamesPage: Type.Integer({ description: "The page of the player's game list applied" }),
    versus: Type.Array(Type.String({ description: 'A player id' }), {
      description: 'The two players of the forecast; empty: none',
    }),
    ...AppliedMethodParamsProperties,
  },
  { description: 'The filter and parameters applied, defaults filled in' },
);

export const RankingsResponse = Envelope(
  Type.Object(
    {
      players: Type.Array(RankingRowSchema, {
        description:
          'This page of the ranked players matching search, best first by the sort value (then most games)',
      }),
      total: Type.Integer({ description: 'Rows matching (all pages)' }),
      page: Type.Integer({ description: 'This page number, from 1' }),
      pageSize: Type.Integer({ description: 'Rows per page' }),
      provisionalFallback: Nullable(
        Type.String({
          description: `Glicko-2 without includeProvisional: when the filter keeps no established player (every one has an RD above ${PROVISIONAL_RD}) but some provisional ones, those are ranked and listed all the same, each with provisional true, and this says why in one line (e.g. "Every player here is provisional (rating deviation above 110; the lowest is 115), so they are all shown, each marked provisional."); null otherwise`,
        }),
      ),
      player: Type.Optional(PlayerPageSchema(PlayerRowSchema)),
      versus: Type.Optional(HeadToHeadSchema),
    },
    { description: 'One page of the ranking' },
  ),
  RankingsFilter,
  undefined,
  { predictionQuality: PredictionQualitySchema },
);

/** The statistics route POST /api/rankings. */
export const rankingsRoute = statsRoute({
  path: '/api/rankings',
  summary: 'Player rankings',
  description:
    'Players ranked by Glicko-2 (Glickman 2012; default), Elo, or best-N event points, over the games the common filter selects. Equal ratings share a rank; a page beyond the end is empty.',
  body: RankingsBody,
  response: RankingsResponse,
  notFound: 'player or an id of versus is not a player in the data (`errors[]` points at it)',
  // Here `countries` are the players' countries, not the events': the engine applies them.
  filterOf: (body) => ({ ...body, countries: [] }),
  // Rating every game in scope is linear in games, the dearest statistic: on an
  // engine thread, the serving thread answers other requests meanwhile.
  task: 'leaderboard',
  args: (_snapshot, filter, body) => [filter, body],
});
