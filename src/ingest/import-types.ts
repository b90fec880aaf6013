/**
 * The shapes that flow through an import: raw records from an adapter, the validated batch the
 * store writes, rejected records, and the report a user reads at the end.
 */
import type { Entry, Event, Faction, Game, GameSystem, Player, Scenario } from '../domain/model.ts';

export type ImportFormat = 'canonical' | 'csv' | 't9a';

/** A record as an adapter found it, before validation. */
export interface RawRecord {
  /** File (or "stdin") the record came from. */
  source: string;
  /** Where in the source: a line number, an id, an array index. */
  record: string;
  value: unknown;
  /**
   * For an event whose games came from files of their own (T9A reports): each game's file and
   * raw payload, index for index, so a rejected game names its own file and keeps its original.
   */
  gameOrigins?: Array<{ source: string; payload: unknown }>;
}

export type RecordKind =
  | 'file'
  | 'system'
  | 'faction'
  | 'player'
  | 'scenario'
  | 'event'
  | 'entry'
  | 'game';

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

/** What an adapter hands to validation. */
export interface RawBatch {
  systems: RawRecord[];
  factions: RawRecord[];
  players: RawRecord[];
  scenarios: RawRecord[];
  events: RawRecord[];
  rejects: Reject[];
  /** CSV sheets may introduce factions; canonical documents must declare them. */
  createUnknownFactions: boolean;
}

export function emptyRawBatch(createUnknownFactions = false): RawBatch {
  return {
    systems: [],
    factions: [],
    players: [],
    scenarios: [],
    events: [],
    rejects: [],
    createUnknownFactions,
  };
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

/** A validated batch: every reference resolved, every name normalised. */
export interface ValidBatch {
  systems: GameSystem[];
  factions: Faction[];
  players: Player[];
  scenarios: Scenario[];
  events: ValidEvent[];
  /** Factions a CSV introduced, as "system/id". */
  newFactions: string[];
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
}

export function zeroCounts(): ImportCounts {
  const zero = (): Counts => ({ imported: 0, updated: 0, unchanged: 0, rejected: 0 });
  return { events: zero(), players: zero(), games: zero(), lists: zero() };
}

export interface ImportReport {
  importId: number;
  format: ImportFormat;
  /** "imported" | "rejected" (strict mode refused the batch) | "failed" (the transaction failed). */
  status: 'imported' | 'rejected' | 'failed';
  dataVersion: number;
  counts: ImportCounts;
  newFactions: string[];
  rejects: Reject[];
  durationMs: number;
}
