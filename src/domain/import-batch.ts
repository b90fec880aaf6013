/**
 * The shapes a validated import batch takes on its way from ingest to the store, and the counts
 * the store reports back (docs/import-formats.md). They live below both layers so that the store
 * never reaches up into ingest.
 */
import type { PlayerMerge } from './player-merge.ts';
import type { Entry, Event, Faction, Game, GameSystem, Player, Scenario } from './model.ts';

export type RecordKind =
  | 'file'
  | 'system'
  | 'faction'
  | 'player'
  | 'scenario'
  | 'event'
  | 'entry'
  | 'game'
  | 'merge';

/** A record that failed validation, kept with its raw payload so it can be fixed and replayed. */
export interface Reject {
  kind: RecordKind;
  source: string;
  record: string | null;
  /** JSON Pointer (or CSV column) of the offending field, when there is one. */
  field: string | null;
  reason: string;
  payload: unknown;
}

export interface ValidGame {
  game: Game;
  source: string;
  record: string;
}

export interface ValidEvent {
  event: Omit<Event, 'entries' | 'games'>;
  /** null: the input said nothing about entries, so stored entries are kept. */
  entries: Entry[] | null;
  games: ValidGame[];
  source: string;
  record: string;
}

export interface ValidMerge {
  merge: PlayerMerge;
  source: string;
  record: string;
  payload: unknown;
}

/** A validated batch: every reference resolved, every name normalised. */
export interface ValidBatch {
  systems: GameSystem[];
  factions: Faction[];
  players: Player[];
  scenarios: Scenario[];
  events: ValidEvent[];
  /** Player merges, as exported (docs/import-formats.md#player-merges). */
  playerMerges: ValidMerge[];
  /** Factions a CSV introduced, as "system/id". */
  newFactions: string[];
  /** Game systems a CSV introduced, by id. */
  newSystems: string[];
}

export interface Counts {
  imported: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface ImportCounts {
  events: Counts;
  players: Counts;
  games: Counts;
  lists: Counts;
  /** Player merges (canonical `playerMerges`, docs/import-formats.md#player-merges). */
  merges: Counts;
}

/** Counts of an import that has written nothing yet (docs/import-formats.md#rules-for-every-format). */
export function zeroCounts(): ImportCounts {
  const zero = (): Counts => ({ imported: 0, updated: 0, unchanged: 0, rejected: 0 });
  return { events: zero(), players: zero(), games: zero(), lists: zero(), merges: zero() };
}
