/**
 * The shapes that flow through an import: raw records from an adapter and the report a user reads
 * at the end (the validated batch and rejects are in src/domain/import-batch.ts).
 */
import type { ImportCounts, Reject } from '../domain/import-batch.ts';

/** An import format's name, one of src/ingest/formats/index.ts's list (kept as text in the import records). */
export type ImportFormat = string;

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
  gameOrigins?: Array<{ source: string; payload: unknown; record?: string }>;
  /** The same for entries that came from a file of their own (a pairing app's players). */
  entryOrigins?: Array<{ source: string; payload: unknown; record?: string }>;
  /**
   * A player or system the adapter made up for the events beside it (a sheet's players, a
   * pairing-app export's players and new system), not one the input declared: it is written only
   * when an event, entry or game that uses it is (docs/import-formats.md#rejects-and-replay).
   */
  implied?: boolean;
  /** Told to the user when an implied record is written (a new system and its score rules). */
  note?: string;
}

/** What an adapter hands to validation. */
export interface RawBatch {
  systems: RawRecord[];
  factions: RawRecord[];
  players: RawRecord[];
  scenarios: RawRecord[];
  events: RawRecord[];
  playerMerges: RawRecord[];
  rejects: Reject[];
  /** CSV sheets may introduce factions (and their system); canonical documents must declare them. */
  createUnknownFactions: boolean;
  /** Game ids an adapter derived for records that had none (T9A reports without id_match). */
  derivedIds: number;
  /** What the user should hear besides rejects (byes skipped, players left without a list). */
  notes: string[];
}

export function emptyRawBatch(createUnknownFactions = false): RawBatch {
  return {
    systems: [],
    factions: [],
    players: [],
    scenarios: [],
    events: [],
    playerMerges: [],
    rejects: [],
    createUnknownFactions,
    derivedIds: 0,
    notes: [],
  };
}

export interface ImportReport {
  importId: number;
  format: ImportFormat;
  /** "imported" | "rejected" (strict mode refused the batch) | "failed" (the transaction failed). */
  status: 'imported' | 'rejected' | 'failed';
  dataVersion: number;
  counts: ImportCounts;
  newFactions: string[];
  /** Game systems a CSV introduced (by id, without score rules). */
  newSystems: string[];
  /** Game ids derived for records that had none (docs/import-formats.md#t9a-the-ninth-age-data-project). */
  derivedIds: number;
  /**
   * The first rejects, for printing (docs/operations.md#import-limits): every reject is stored with its
   * payload in the rejects table, and `rejectCount` counts them all.
   */
  rejects: Reject[];
  /** Every reject of the import, the ones past the `rejects` sample included. */
  rejectCount: number;
  /** File rejects counted exactly: whole files, and parts of a file (a line, a row). */
  fileRejects: { whole: number; parts: number };
  /**
   * Rejects sharing kind, field and reason, in order of first appearance, each with its exact
   * count; past a bounded number of groups a new reason is only counted in `rejectCount`.
   */
  rejectGroups: RejectGroup[];
  /** Batches written, one transaction each (a streamed input has several). */
  batches: number;
  /** Adapter and validation notes: byes, unplayed pairings, names one edit from a known one. */
  notes: string[];
  /** Earlier imports this one found stopped half-way and marked interrupted, with what they kept. */
  interrupted: Array<{ importId: number; summary: string }>;
  durationMs: number;
}

/** Rejects that share kind, field and reason: the first of them and how many there are. */
export interface RejectGroup {
  first: Reject;
  count: number;
}
