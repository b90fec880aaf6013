/**
 * The facts the ratings read (docs/ratings.md "Which games are rated"): events, games and
 * placements in the snapshot's columnar layout, as plain arrays.
 */

export interface RankingEvent {
  id: string;
  start: string;
  end: string | null;
  /** Declared (or derived) rounds; null or negative when unknown. */
  rounds: number | null;
  /** Null or negative when unknown. */
  participants: number | null;
  /**
   * False when the event has no places (a team event, or no published placings and no placing
   * rule, docs/statistics.md#standings): it scores no event points. Absent: placed as given, else
   * from the games.
   */
  placed?: boolean;
  /**
   * A team event ranked by its system's team rule: its number of teams, who take the place of
   * its participants in its points (docs/ratings.md "Points"). Absent otherwise.
   */
  teams?: number;
}

/** An imported or derived placement (one standing of one player in one event). */
export interface RankingPlacement {
  event: number;
  player: number;
  placement: number;
  faction: number;
}

/** Placements as columns: row i is event[i], player[i], placement[i], faction[i]. */
export interface PlacementColumns {
  count: number;
  event: ArrayLike<number>;
  /** -1 when unknown. */
  player: ArrayLike<number>;
  /** 0 or less when unknown. */
  placement: ArrayLike<number>;
  faction: ArrayLike<number>;
}

/**
 * The facts rankings read, in the snapshot's columnar layout: game g has its sides in rows 2g
 * and 2g+1; games are in game-id order within an event and round (the index stands in for the
 * id when ordering). Players and factions are dense indexes, -1 when unknown.
 */
export interface RankingFacts {
  players: number;
  events: readonly RankingEvent[];
  games: number;
  gameEvent: ArrayLike<number>;
  /** -1 when unknown. */
  gameRound: ArrayLike<number>;
  player: ArrayLike<number>;
  faction: ArrayLike<number>;
  /** Result in half points: 0 loss, 1 draw, 2 win. */
  result: ArrayLike<number>;
  /** NaN when unknown. */
  score: ArrayLike<number>;
  placements: readonly RankingPlacement[];
  /**
   * The same placements as columns, when the facts come with them (the snapshot's standings,
   * rows with an unknown player or placement included): event points read these rather than
   * one object per placement.
   */
  placementColumns?: PlacementColumns;
  /** Faction ids by index (only to break ties of the main faction deterministically). */
  factionIds: readonly string[];
}
