/**
 * What a rating method is to the engine (docs/ratings.md): its description (src/domain/
 * rating-methods.ts), its defaults, the run over the rated games in processing order, a player's
 * value after each of their events, and, where the method has one, the expected score of a
 * pairing. One folder per method implements it; methods/index.ts lists them.
 */
import type { RatingMethodSpec } from '../../../domain/rating-methods.ts';
import type { EventGroups } from '../event-groups.ts';
import type { PlayerTallies } from '../player-tallies.ts';
import type { RankingFacts } from '../ranking-facts.ts';

/** A method's numbers by player index (rd and volatility: where the method has them). */
export interface MethodRatings {
  rating: Float64Array;
  rd: Float64Array | null;
  volatility: Float64Array | null;
  /** The events each player scored, where the method counts events rather than games. */
  eventsScored: Int32Array | null;
}

/** What a run is given: the rated games in processing order and what the leaderboard built. */
export interface RatingRunInput {
  facts: RankingFacts;
  order: Int32Array;
  /** Rate only sides of these factions' games (null: every game of `order`). */
  factions: ReadonlySet<number> | null;
  groups: EventGroups;
  tallies: PlayerTallies;
  /** Rate as of this date (YYYY-MM-DD): inactivity runs through it. */
  asOf?: string;
}

/** A rated player as a pairing's forecast reads them. */
export interface Rated {
  rating: number;
  rd: number | null;
}

/** A player's value as of the end of a date, the date of one of their events. */
export type HistoryValuer = (event: number, date: string) => Rated;

/** Side a's expected score before each game, in the order the method ran the games. */
export interface GameForecasts {
  games: Int32Array;
  forecast: Float64Array;
}

/** The expected score of a pairing (win 1, draw ½), of a method that forecasts. */
export interface MethodExpectation<P> {
  /** Of `a` against `b` after the run. */
  pairing(a: Rated, b: Rated): number;
  /** Before each game of `order`, from the ratings just before it. */
  beforeEachGame(
    facts: RankingFacts,
    order: Int32Array,
    params: P,
    asOf: string | undefined,
  ): GameForecasts;
}

export interface RatingMethod<P> {
  readonly spec: RatingMethodSpec;
  /** One value per parameter of the spec, each its default. */
  readonly defaults: Readonly<P>;
  /** Every player's rating over the games of `input.order`. */
  run(input: RatingRunInput, params: P): MethodRatings;
  /** A player's value after each of their events (docs/ratings.md#a-players-page). */
  history(
    facts: RankingFacts,
    order: Int32Array,
    params: P,
    factions: ReadonlySet<number> | null,
    player: number,
    asOf: string | undefined,
  ): HistoryValuer;
  /** Present exactly when the spec says the method forecasts. */
  readonly expected?: MethodExpectation<P>;
  /**
   * The rating change each game of `order` made to `player`, by game index, where the method
   * rates game by game (docs/ratings.md "A player's page"); absent: no per-game change.
   */
  gameChanges?(
    facts: RankingFacts,
    order: Int32Array,
    params: P,
    player: number,
    asOf: string | undefined,
  ): Map<number, number>;
}
