/**
 * The in-memory snapshot the engine reads (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * one row per game side in typed-array columns, the two sides of a game in adjacent rows (2g,
 * 2g+1), games ordered by system, event start, event, round and id so that a system and a date
 * window are each one contiguous row range. Strings are dictionary-encoded; -1 means unknown.
 */
import type { ItemKind } from '../domain/item-kinds.ts';
import type { EventRecord } from '../domain/event-record.ts';
import type { PairedGame } from '../domain/unplayed-game.ts';
import type { LoadPhases } from './load-phases.ts';
import type { MarginBands, PlacementRule, ScenarioKind, TeamRule } from '../domain/model.ts';

/** Result codes: the value is the result's worth in half points (draws count half). */
export const RESULT_LOSS = 0;
export const RESULT_DRAW = 1;
export const RESULT_WIN = 2;

/** Where an event's placings come from (SnapshotStandings.eventPlacements). */
export const PLACEMENTS_NONE = 0;
export const PLACEMENTS_PUBLISHED = 1;
export const PLACEMENTS_DERIVED = 2;

export interface SnapshotSystem {
  id: string;
  name: string;
  /** Null when the system has no score rules. */
  scoreMin: number | null;
  scoreMax: number | null;
  scoreTotal: number | null;
  marginBands: MarginBands | null;
  /** Generated demo data, not real results (docs/import-formats.md#game-systems). */
  demo: boolean;
  /** How its events rank when the source publishes no placings; null: they have no places. */
  placementRule: PlacementRule | null;
  /** How its team events score and rank teams; null: teams are listed with plain sums. */
  teamRule: TeamRule | null;
  /** Rows [rowStart, rowEnd) hold this system's sides. */
  rowStart: number;
  rowEnd: number;
  /** Faction indices of this system, ascending. */
  factions: number[];
}

export interface SnapshotFaction {
  id: string;
  name: string;
  system: number;
  parent: string | null;
}

export interface SnapshotItem {
  name: string;
  /** "unit" for a unit, else the option's or configuration choice's type. */
  category: string;
  kind: ItemKind;
}

/** A string dictionary; lookups are case-folded, the first spelling seen is displayed. */
export interface Dictionary {
  readonly values: readonly string[];
  readonly index: ReadonlyMap<string, number>;
}

export interface SnapshotEvents {
  readonly count: number;
  readonly ids: readonly string[];
  readonly names: readonly string[];
  readonly idIndex: ReadonlyMap<string, number>;
  readonly system: Int32Array;
  /** Start date as days since 1970-01-01. */
  readonly startDay: Int32Array;
  /** -1 when unknown. */
  readonly participants: Int32Array;
  readonly format: Uint8Array;
  readonly tier: Uint8Array;
  /** Index into `countries` (upper-cased ISO code), -1 when unknown. */
  readonly country: Int32Array;
  /** Index into `rulesVersions`, -1 when unknown. */
  readonly rulesVersion: Int32Array;
  /** Declared rounds, else the highest game round seen, else -1. */
  readonly rounds: Int32Array;
  /** 1 online, 0 in person, -1 unknown. */
  readonly online: Int8Array;
  /** A team event's cap on a team's match score (docs/statistics.md#team-events), NaN none. */
  readonly teamScoreCap: Float64Array;
}

/**
 * Standings per event (docs/statistics.md#standings): published placements, or derived from the
 * games by the system's placing rule, or none (placement -1); a team event has none.
 */
export interface SnapshotStandings {
  readonly count: number;
  readonly event: Int32Array;
  readonly player: Int32Array;
  /** -1 when the entry names no faction and played no game. */
  readonly faction: Int32Array;
  /** The final placement; -1 when none and while the event runs (statistics.md#running-events). */
  readonly placement: Int32Array;
  /**
   * While the event is running, the entry's place in its order so far (by its system's rule,
   * else as published); -1 otherwise (docs/statistics.md#running-events).
   */
  readonly current: Int32Array;
  /** Index into the snapshot's `teams`: the team the entry names, -1 none. */
  readonly team: Int32Array;
  /** 1 when the placement is within the top 10% (ceil) of the event's standings. */
  readonly top: Uint8Array;
  /** 1 when the entry played at least one game and lost none. */
  readonly undefeated: Uint8Array;
  /** Per event index: PLACEMENTS_NONE, PLACEMENTS_PUBLISHED or PLACEMENTS_DERIVED. */
  readonly eventPlacements: Uint8Array;
  /**
   * Per event index: while it is running, where its current order comes from (PLACEMENTS_*),
   * its `eventPlacements` being PLACEMENTS_NONE until it is over; PLACEMENTS_NONE otherwise.
   */
  readonly eventCurrent: Uint8Array;
  /**
   * 1 when the row's event has derived places and the row played fewer games than the most any
   * player there played (docs/statistics.md#standings).
   */
  readonly fewerGames: Uint8Array;
  /**
   * Per event: 1 when its system's rule would derive places but the games are too few
   * (docs/statistics.md#standings), so it has none.
   */
  readonly eventWithheld: Uint8Array;
  /** Per event: players with at least one game there. */
  readonly eventGamePlayers: Int32Array;
  /** Per event: games recorded, counted from its players' games (half a game per side). */
  readonly eventGames: Float64Array;
  /** Per event: the most games any one player played there. */
  readonly eventMostGames: Int32Array;
}

/** Per game (index g; its sides are rows 2g and 2g+1). */
export interface GameColumns {
  readonly games: number;
  readonly gameEvent: Int32Array;
  /** -1 when unknown. */
  readonly gameRound: Int32Array;
  readonly gameScenario: Int32Array;
  readonly gameMap: Int32Array;
  readonly gameDeployment: Int32Array;
  readonly gamePrimary: Int32Array;
  /** CSR: game-level secondaries of game g are secondaryIds[secondaryStart[g] .. [g+1]). */
  readonly gameSecondaryStart: Int32Array;
  readonly gameSecondaryIds: Int32Array;
  /**
   * The store's id of each game (docs/data-model.md#game-and-sides), the one every output names it by:
   * game g's id is the UTF-8 text gameIdBytes[gameIdStart[g] .. gameIdStart[g + 1]) (gameIdOf).
   */
  readonly gameIdStart: Int32Array;
  readonly gameIdBytes: Uint8Array;
}

/** Per side (row r, game r >> 1, opponent row r ^ 1). */
export interface SideColumns {
  readonly sides: number;
  readonly rowEvent: Int32Array;
  readonly faction: Int32Array;
  readonly opponent: Int32Array;
  readonly subfaction: Int32Array;
  readonly player: Int32Array;
  /** NaN when unknown. */
  readonly score: Float64Array;
  /** RESULT_LOSS | RESULT_DRAW | RESULT_WIN. */
  readonly result: Uint8Array;
  /** 1 first, 0 second, -1 unknown. */
  readonly firstTurn: Int8Array;
  readonly primaryAchieved: Int8Array;
  /** The secondary this side played for: its own, or the game's only one; -1 unknown. */
  readonly secondary: Int32Array;
  readonly secondaryAchieved: Int8Array;
  /** Index of the list played, -1 none. */
  readonly list: Int32Array;
}

/** Lists as CSR: items of list l are listItems[listStart[l] .. listStart[l+1]). */
export interface ListColumns {
  readonly listStart: Int32Array;
  readonly listItems: Int32Array;
  /** How many times the list takes the item. */
  readonly listPicks: Int32Array;
}

/**
 * What the snapshot knows of people and of events ahead, beside the games (read with them, so
 * that no request reads the store): each player's name and country by player index, and the
 * satellites with the majors they qualify for, whatever their status (docs/architecture.md).
 */
export interface SnapshotReadModel {
  /** By player index (as `players`): the name, null when unknown. */
  readonly playerNames: readonly (string | null)[];
  /** By player index: the country (ISO 3166-1 alpha-2), null when unknown. */
  readonly playerCountries: readonly (string | null)[];
  /** Every satellite and every event a satellite qualifies for, by id. */
  readonly calendar: readonly EventRecord[];
  /**
   * The standing player merges (docs/data-model.md#player-merges): each merged id, its name, and
   * the id its games and entries count as; a merged id is not in `players`.
   */
  readonly merges: readonly SnapshotMerge[];
  /**
   * The games of its events paired but not played yet (docs/data-model.md#unplayed-games), in
   * game id order: in no column and no statistic, only in their events' rounds.
   */
  readonly pairings: readonly PairedGame[];
}

export interface SnapshotMerge {
  readonly other: string;
  readonly name: string | null;
  readonly keep: string;
}

export interface Snapshot extends GameColumns, SideColumns, ListColumns, SnapshotReadModel {
  readonly dataVersion: number;
  /** Said in every answer's warnings, e.g. that the store holds generated demo data. */
  readonly notice: string | null;
  readonly loadedAt: string;
  readonly loadMs: number;
  /** The snapshot file this snapshot was read from (snapshot-file.ts); absent when built. */
  readonly restoredFrom?: string;
  /** When each step of its load ended (load-phases.ts); absent for a load that kept none. */
  loadPhases?: LoadPhases;
  /** The CPU its loading thread spent on each step, in milliseconds (load-phases.ts). */
  readonly loadCpuMs?: Readonly<Record<string, number>>;
  readonly systems: readonly SnapshotSystem[];
  readonly systemIndex: ReadonlyMap<string, number>;
  readonly factions: readonly SnapshotFaction[];
  /** Key `${systemId}\u0000${factionId}`. */
  readonly factionIndex: ReadonlyMap<string, number>;
  readonly players: readonly string[];
  readonly countries: readonly string[];
  readonly rulesVersions: readonly string[];
  readonly events: SnapshotEvents;
  /** One dictionary per SCENARIO_KINDS entry (src/domain/model.ts). */
  readonly scenarioDicts: Readonly<Record<ScenarioKind, Dictionary>>;
  /** Catalogue descriptions: key `${system}\u0000${kind}\u0000${foldedName}`. */
  readonly scenarioDescriptions: ReadonlyMap<string, string | null>;
  readonly lists: number;
  readonly items: readonly SnapshotItem[];
  readonly standings: SnapshotStandings;
  /** The team names entries give (canonical `team`), by standings `team` index. */
  readonly teams: readonly string[];
  /** Approximate bytes held by the typed arrays. */
  readonly bytes: number;
}

/** Bytes held by the snapshot's typed arrays: its columns, its events' and its standings'. */
export function typedArrayBytes(snapshot: Omit<Snapshot, 'bytes'>): number {
  let bytes = 0;
  for (const part of [snapshot, snapshot.events, snapshot.standings]) {
    for (const value of Object.values(part)) {
      if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    }
  }
  return bytes;
}

/** The store's id of game `g` (docs/data-model.md#game-and-sides), read from the snapshot's id bytes. */
export function gameIdOf(columns: GameColumns, g: number): string {
  const { gameIdBytes, gameIdStart } = columns;
  const start = gameIdStart[g];
  // Buffer reads shared memory too, where TextDecoder refuses it.
  return Buffer.from(
    gameIdBytes.buffer,
    gameIdBytes.byteOffset + start,
    gameIdStart[g + 1] - start,
  ).toString('utf8');
}
