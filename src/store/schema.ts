/**
 * Table types for Kysely. The same columns on SQLite and PostgreSQL: dates are ISO text
 * (YYYY-MM-DD), booleans are 0/1 integers, nested documents (margin bands) are JSON text, so
 * that every query reads the same on both backends.
 */
import type { Generated } from 'kysely';

export interface SystemsTable {
  id: string;
  name: string;
  /** Null when the system has no score rules (scores taken as given). */
  score_min: number | null;
  score_max: number | null;
  score_total: number | null;
  /** JSON MarginBands or null. */
  margin_bands: string | null;
  /** 1 when the system's results are generated demo data (migration 0003). */
  demo: Generated<number>;
  /** JSON PlacementRule, null when the system declares none (migration 0006). */
  placement_rule: string | null;
  /** JSON TeamRule, null when the system declares none (migration 0008). */
  team_rule: string | null;
}

export interface FactionsTable {
  system_id: string;
  id: string;
  name: string;
  parent_id: string | null;
}

export interface FactionAliasesTable {
  system_id: string;
  /** Trimmed, case-folded alias. */
  alias: string;
  faction_id: string;
}

export interface PlayersTable {
  id: string;
  name: string | null;
  country: string | null;
}

export interface PlayerAliasesTable {
  alias: string;
  player_id: string;
}

export interface ScenariosTable {
  system_id: string;
  kind: string;
  name: string;
  description: string | null;
}

export interface EventsTable {
  id: string;
  system_id: string;
  name: string;
  start_date: string;
  end_date: string | null;
  status: string;
  format: string;
  tier: string;
  qualifies_for: string | null;
  slots: number | null;
  participants: number | null;
  capacity: number | null;
  rounds: number | null;
  points_limit: number | null;
  rules_version: string | null;
  /** A team event's cap on a team's match score, null for none (migration 0008). */
  team_score_cap: number | null;
  country: string | null;
  region: string | null;
  city: string | null;
  venue: string | null;
  lat: number | null;
  lon: number | null;
  online: number | null;
  url: string | null;
  registration_url: string | null;
  /** Hash of the event's own fields, to tell "unchanged" from "updated" on re-import. */
  content_hash: string;
}

export interface EntriesTable {
  event_id: string;
  player_id: string;
  faction_id: string | null;
  subfaction_id: string | null;
  team: string | null;
  placement: number | null;
  list_id: string | null;
}

export interface ListsTable {
  id: string;
  points: number | null;
}

export interface ListUnitsTable {
  list_id: string;
  unit_index: number;
  name: string;
  category: string;
  cost: number | null;
  models: number | null;
}

export interface ListOptionsTable {
  list_id: string;
  unit_index: number;
  option_index: number;
  name: string;
  type: string;
}

/** A list's configuration: list-level choices that are not units (docs/data-model.md#lists). */
export interface ListConfigurationTable {
  list_id: string;
  choice_index: number;
  name: string;
  type: string;
}

export interface GamesTable {
  id: string;
  event_id: string;
  round: number | null;
  table_no: number | null;
  scenario: string | null;
  map: string | null;
  deployment: string | null;
  primary_objective: string | null;
  /** JSON array of secondary objective names, or null. */
  secondaries: string | null;
  content_hash: string;
  /** 0 while the game is paired but not played, else 1 (migration 0009). */
  played: Generated<number>;
}

export interface SidesTable {
  game_id: string;
  side: number;
  player_id: string | null;
  faction_id: string;
  subfaction_id: string | null;
  score: number | null;
  /** 'win', 'draw' or 'loss'; 'unplayed' while the game is paired but not played (migration 0009). */
  result: string;
  first_turn: number | null;
  primary_achieved: number | null;
  secondary: string | null;
  secondary_achieved: number | null;
  list_id: string | null;
}

export interface RejectsTable {
  id: Generated<number>;
  import_id: number;
  source: string;
  record: string | null;
  field: string | null;
  reason: string;
  payload: string | null;
  created_at: string;
}

export interface ImportsTable {
  id: Generated<number>;
  started_at: string;
  finished_at: string | null;
  format: string;
  sources: string;
  status: string;
  /** JSON ImportSummary counts. */
  summary: string | null;
}

/** One player merge (migration 0009, docs/data-model.md#player-merges). */
export interface PlayerMergesTable {
  id: Generated<number>;
  keep_id: string;
  other_id: string;
  note: string;
  /** ISO 8601 UTC instants. */
  merged_at: string;
  /** Null while the merge stands. */
  undone_at: string | null;
  /** JSON {games, entries}: what the other id held when it was merged. */
  moved: string;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface Database {
  systems: SystemsTable;
  factions: FactionsTable;
  faction_aliases: FactionAliasesTable;
  players: PlayersTable;
  player_aliases: PlayerAliasesTable;
  scenarios: ScenariosTable;
  events: EventsTable;
  entries: EntriesTable;
  lists: ListsTable;
  list_units: ListUnitsTable;
  list_options: ListOptionsTable;
  list_configuration: ListConfigurationTable;
  games: GamesTable;
  sides: SidesTable;
  rejects: RejectsTable;
  imports: ImportsTable;
  player_merges: PlayerMergesTable;
  meta: MetaTable;
}
