/**
 * The canonical domain model of Muster (docs/data-model.md). Every importer produces these shapes
 * and the store writes exactly these; field names are those of the canonical JSON format.
 */
import type { PlayerMerge } from './player-merge.ts';

export const RESULTS = ['win', 'draw', 'loss'] as const;
export const EVENT_STATUSES = ['scheduled', 'ongoing', 'completed', 'cancelled'] as const;
export const EVENT_FORMATS = ['singles', 'teams'] as const;
/** In this order: a snapshot stores an event's tier as its index here. */
export const EVENT_TIERS = ['standard', 'satellite', 'major'] as const;
/** The parts of a scenario, in the order of the snapshot's scenario dictionaries. */
export const SCENARIO_KINDS = ['scenario', 'map', 'deployment', 'primary', 'secondary'] as const;

export type Result = (typeof RESULTS)[number];
export type EventStatus = (typeof EVENT_STATUSES)[number];
export type EventFormat = (typeof EVENT_FORMATS)[number];
export type EventTier = (typeof EVENT_TIERS)[number];
export type ScenarioKind = (typeof SCENARIO_KINDS)[number];

/** Inclusive score band of the winner's score, e.g. T9A decisive 18..20. */
export interface ScoreBand {
  min: number;
  max: number;
}

export interface MarginBands {
  decisive: ScoreBand;
  normal: ScoreBand;
  close: ScoreBand;
}

export interface ScoreRules {
  min: number;
  max: number;
  /** When set, the two scores of a game must sum to it (T9A: 20). */
  total?: number | null;
}

/**
 * What a placing rule compares, higher first: `score` the total of a player's game scores (T9A's
 * battle points), `wins` their wins with a draw as half a win, `opponentWins` and
 * `opponentWinsMean` the sum and mean of their opponents' wins there (strength of schedule),
 * `margin` their scores minus their opponents' (docs/statistics.md#tie-breakers).
 */
export const PLACEMENT_KEYS = [
  'score',
  'wins',
  'opponentWins',
  'opponentWinsMean',
  'margin',
] as const;
export type PlacementKey = (typeof PLACEMENT_KEYS)[number];

/**
 * How a system's events rank when the source publishes no placings: the keys compared in order
 * (the first, then the declared tie-breaks); players equal on every key share a place.
 */
export interface PlacementRule {
  /** The rule in words, e.g. "total battle points". */
  name: string;
  rank: PlacementKey[];
}

/**
 * What a team scoring rule ranks teams by, higher first: `score` the total of their team match
 * scores (each match the sum of its games' scores, capped as the event declares), `matches`
 * their team match wins with a draw as half a win (docs/statistics.md#team-events).
 */
export const TEAM_RANK_KEYS = ['score', 'matches'] as const;
export type TeamRankKey = (typeof TEAM_RANK_KEYS)[number];

/**
 * How a system scores team events: a team match scores the sum of its members' game scores
 * against the other team (capped where the event declares `teamScoreCap`), and teams rank by
 * the keys in order; teams equal on every key share a place.
 */
export interface TeamRule {
  /** The rule in words, e.g. "team battle points". */
  name: string;
  rank: TeamRankKey[];
}

export interface GameSystem {
  id: string;
  name: string;
  /**
   * Absent: scores are taken as given (any finite number), with no scale or total to check and
   * no margin bands (docs/import-formats.md#game-systems).
   */
  score?: ScoreRules | null;
  marginBands?: MarginBands | null;
  /**
   * True when the system's results are generated demo data, not real tournaments: the label
   * travels with the data through export and import (docs/import-formats.md#game-systems).
   */
  demo?: boolean;
  /**
   * How its events rank when the source publishes no placings; absent, such events have no
   * places (docs/import-formats.md#game-systems).
   */
  placementRule?: PlacementRule | null;
  /**
   * How its team events score team matches and rank teams; absent, a team event's teams are
   * listed with plain sums and not ranked (docs/import-formats.md#game-systems).
   */
  teamRule?: TeamRule | null;
}

export interface Faction {
  id: string;
  system: string;
  name: string;
  parent?: string | null;
  aliases?: string[];
}

export interface Player {
  id: string;
  name?: string | null;
  /** ISO 3166-1 alpha-2. */
  country?: string | null;
  aliases?: string[];
}

export interface Scenario {
  system: string;
  kind: ScenarioKind;
  name: string;
  description?: string | null;
}

export interface ListOption {
  name: string;
  type: string;
}

export interface ListUnit {
  name: string;
  category: string;
  cost?: number | null;
  models?: number | null;
  options?: ListOption[];
}

export interface ArmyList {
  points?: number | null;
  units: ListUnit[];
  /**
   * List-level choices that are not units: a battle formation, a lore, battle tactic cards, "Allow
   * Legends" (docs/data-model.md#lists). The type names the choice ("Battle Formation"), the name
   * what was chosen.
   */
  configuration?: ListOption[];
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface Entry {
  player: string;
  faction?: string | null;
  subfaction?: string | null;
  team?: string | null;
  placement?: number | null;
  list?: ArmyList | null;
}

export interface GameScenario {
  name?: string | null;
  map?: string | null;
  deployment?: string | null;
  primary?: string | null;
  secondaries?: string[];
}

export interface Side {
  /** Unknown players are allowed: the game still counts for everything but rankings. */
  player?: string | null;
  faction: string;
  subfaction?: string | null;
  score?: number | null;
  result?: Result | null;
  firstTurn?: boolean | null;
  primaryAchieved?: boolean | null;
  /** The secondary objective this side played for, when sides pick their own (T9A). */
  secondary?: string | null;
  secondaryAchieved?: boolean | null;
  list?: ArmyList | null;
}

export interface Game {
  id: string;
  round?: number | null;
  table?: number | null;
  scenario?: GameScenario | null;
  sides: [Side, Side];
}

export interface Event {
  id: string;
  system: string;
  name: string;
  start: string;
  end?: string | null;
  status: EventStatus;
  format: EventFormat;
  tier: EventTier;
  qualifiesFor?: string | null;
  slots?: number | null;
  participants?: number | null;
  capacity?: number | null;
  rounds?: number | null;
  pointsLimit?: number | null;
  rulesVersion?: string | null;
  /**
   * A team event's cap on one team's score in a team match: the excess goes to the other team,
   * so a match's total stands (docs/statistics.md#team-events). Null: uncapped.
   */
  teamScoreCap?: number | null;
  country?: string | null;
  region?: string | null;
  city?: string | null;
  venue?: string | null;
  location?: GeoPoint | null;
  online?: boolean | null;
  url?: string | null;
  registrationUrl?: string | null;
  entries?: Entry[];
  games?: Game[];
}

/** The canonical import document (docs/import-formats.md#canonical-musterv1). */
export interface CanonicalDocument {
  format: 'muster/v1';
  systems?: GameSystem[];
  factions?: Faction[];
  players?: Player[];
  scenarios?: Scenario[];
  events?: Event[];
  playerMerges?: PlayerMerge[];
}
