/**
 * Schema migrations, in code so that `npx muster migrate` needs no files on disk. Each migration
 * is written once with Kysely's schema builder and runs on SQLite and PostgreSQL alike.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { Dialect } from './dialect.ts';
import { optionalScoreRules } from './migrate-optional-score.ts';

// Migrations are schema-only and dialect-aware; they take an untyped Kysely on purpose.
type Db = Kysely<unknown>;

/** Systems, factions, players, the scenario catalogue and their aliases; the meta table. */
async function createReferenceTables(db: Db): Promise<void> {
  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('systems')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('score_min', 'real', (c) => c.notNull())
    .addColumn('score_max', 'real', (c) => c.notNull())
    .addColumn('score_total', 'real')
    .addColumn('margin_bands', 'text')
    .execute();

  await db.schema
    .createTable('factions')
    .addColumn('system_id', 'text', (c) => c.notNull().references('systems.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addPrimaryKeyConstraint('factions_pk', ['system_id', 'id'])
    .execute();

  await db.schema
    .createTable('faction_aliases')
    .addColumn('system_id', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('faction_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('faction_aliases_pk', ['system_id', 'alias'])
    .execute();

  await db.schema
    .createTable('players')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('country', 'text')
    .execute();

  await db.schema
    .createTable('player_aliases')
    .addColumn('alias', 'text', (c) => c.primaryKey())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scenarios')
    .addColumn('system_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addPrimaryKeyConstraint('scenarios_pk', ['system_id', 'kind', 'name'])
    .execute();
}

/** Events, lists, entries, games and sides, with the indexes the snapshot loader reads by. */
async function createEventTables(db: Db): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('system_id', 'text', (c) => c.notNull().references('systems.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('qualifies_for', 'text')
    .addColumn('slots', 'integer')
    .addColumn('participants', 'integer')
    .addColumn('capacity', 'integer')
    .addColumn('rounds', 'integer')
    .addColumn('points_limit', 'integer')
    .addColumn('rules_version', 'text')
    .addColumn('country', 'text')
    .addColumn('region', 'text')
    .addColumn('city', 'text')
    .addColumn('venue', 'text')
    .addColumn('lat', 'real')
    .addColumn('lon', 'real')
    .addColumn('online', 'integer')
    .addColumn('url', 'text')
    .addColumn('registration_url', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_system_start')
    .on('events')
    .columns(['system_id', 'start_date'])
    .execute();
  await db.schema
    .createIndex('events_tier_status_start')
    .on('events')
    .columns(['tier', 'status', 'start_date'])
    .execute();

  await db.schema
    .createTable('lists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer')
    .execute();

  await db.schema
    .createTable('list_units')
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('unit_index', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('cost', 'real')
    .addColumn('models', 'integer')
    .addPrimaryKeyConstraint('list_units_pk', ['list_id', 'unit_index'])
    .execute();

  await db.schema
    .createTable('list_options')
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('unit_index', 'integer', (c) => c.notNull())
    .addColumn('option_index', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_options_pk', ['list_id', 'unit_index', 'option_index'])
    .execute();

  await db.schema
    .createTable('entries')
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('faction_id', 'text')
    .addColumn('subfaction_id', 'text')
    .addColumn('team', 'text')
    .addColumn('placement', 'integer')
    .addColumn('list_id', 'text')
    .addPrimaryKeyConstraint('entries_pk', ['event_id', 'player_id'])
    .execute();

  await db.schema
    .createTable('games')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('round', 'integer')
    .addColumn('table_no', 'integer')
    .addColumn('scenario', 'text')
    .addColumn('map', 'text')
    .addColumn('deployment', 'text')
    .addColumn('primary_objective', 'text')
    .addColumn('secondaries', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('games_event').on('games').column('event_id').execute();

  await db.schema
    .createTable('sides')
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('side', 'integer', (c) => c.notNull())
    .addColumn('player_id', 'text')
    .addColumn('faction_id', 'text', (c) => c.notNull())
    .addColumn('subfaction_id', 'text')
    .addColumn('score', 'real')
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('first_turn', 'integer')
    .addColumn('primary_achieved', 'integer')
    .addColumn('secondary', 'text')
    .addColumn('secondary_achieved', 'integer')
    .addColumn('list_id', 'text')
    .addPrimaryKeyConstraint('sides_pk', ['game_id', 'side'])
    .execute();
  await db.schema.createIndex('sides_player').on('sides').column('player_id').execute();
}

/** The import records and their rejects; the data version starts at 0. */
async function createImportTables(db: Db, dialect: Dialect): Promise<void> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('imports')
    .addColumn('id', autoId, (c) =>
      c.primaryKey().$call((b) => (dialect === 'sqlite' ? b.autoIncrement() : b)),
    )
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .execute();

  await db.schema
    .createTable('rejects')
    .addColumn('id', autoId, (c) =>
      c.primaryKey().$call((b) => (dialect === 'sqlite' ? b.autoIncrement() : b)),
    )
    .addColumn('import_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('record', 'text')
    .addColumn('field', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rejects_import').on('rejects').column('import_id').execute();

  await sql`insert into meta (key, value) values ('data_version', '0')`.execute(db);
}

/**
 * A game system says whether its results are generated demo data (docs/import-formats.md#game-systems).
 * In a store the demo was seeded into before (meta "demo"), the demo's own system is marked;
 * real results imported beside it keep their systems unmarked.
 */
const systemDemo: Migration = {
  async up(db: Db) {
    await db.schema
      .alterTable('systems')
      .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // 'demo-fantasy' is the seeded demo's system id (src/ingest/demo/demo-catalogue.ts).
    await sql`update systems set demo = 1 where id = 'demo-fantasy' and exists (select 1 from meta where key = 'demo')`.execute(
      db,
    );
  },
};

/**
 * The store's own id, random, so that a snapshot file made from another database at the same
 * data version is never taken for this one's (docs/architecture.md#the-snapshot-file).
 */
const storeId: Migration = {
  async up(db: Db) {
    await sql`insert into meta (key, value) values ('store_id', ${randomUUID()})`.execute(db);
  },
};

/**
 * The index of sides by player goes: no statement reads sides by player (the snapshot is read
 * in game-key order, exports by event), and keeping it cost a large import a large share of its
 * time: each batch's sides land at one place per player all over the index, so a batch rewrote
 * tens of thousands of its pages (docs/operations.md#import-throughput).
 */
const dropSidesPlayer: Migration = {
  async up(db: Db) {
    await db.schema.dropIndex('sides_player').ifExists().execute();
  },
};

/**
 * A game system declares how its events rank when the source publishes no placings
 * (docs/statistics.md#standings): a JSON PlacementRule, null for none. Systems stored before
 * declare none until they are imported again with one (the T9A importer declares T9A's).
 */
const systemPlacementRule: Migration = {
  async up(db: Db) {
    await db.schema.alterTable('systems').addColumn('placement_rule', 'text').execute();
  },
};

/**
 * A list's configuration (battle formation, lores, "List Configuration") is stored apart from its
 * units: rosters wrote it as force-level selections that were stored as units
 * (docs/data-model.md#lists).
 */
const listConfiguration: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('list_configuration')
      .addColumn('list_id', 'text', (c) => c.notNull())
      .addColumn('choice_index', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('list_configuration_pk', ['list_id', 'choice_index'])
      .execute();
  },
};

/**
 * A game system declares how its team events score (a JSON TeamRule, null for none) and a team
 * event the cap on a team's match score (docs/statistics.md#team-events). Rows stored before
 * declare neither until imported again with them.
 */
const teamScoring: Migration = {
  async up(db: Db) {
    await db.schema.alterTable('systems').addColumn('team_rule', 'text').execute();
    await db.schema.alterTable('events').addColumn('team_score_cap', 'real').execute();
  },
};

/**
 * Player merges (docs/data-model.md#player-merges): a record per merge, kept when it is undone
 * (undone_at set), so that the store keeps every player's past; the snapshot maps the other id's
 * games to the kept one while a merge stands.
 */
function playerMerges(dialect: Dialect): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .createTable('player_merges')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
          c.primaryKey().$call((b) => (dialect === 'sqlite' ? b.autoIncrement() : b)),
        )
        .addColumn('keep_id', 'text', (c) => c.notNull())
        .addColumn('other_id', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('merged_at', 'text', (c) => c.notNull())
        .addColumn('undone_at', 'text')
        .addColumn('moved', 'text', (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * A game may be paired but not played yet (docs/data-model.md#unplayed-games): `played` 0, its
 * sides' result 'unplayed' and no scores. Every stored game was played. The partial index finds
 * the few unplayed games without reading the played ones.
 */
const unplayedGames: Migration = {
  async up(db: Db) {
    await db.schema
      .alterTable('games')
      .addColumn('played', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('games_unplayed')
      .on('games')
      .column('id')
      .where(sql.ref('played'), '=', 0)
      .execute();
  },
};

function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': {
      async up(db: Db) {
        await createReferenceTables(db);
        await createEventTables(db);
        await createImportTables(db, dialect);
      },
    },
    '0002-optional-score-rules': optionalScoreRules(dialect),
    '0003-system-demo': systemDemo,
    '0004-store-id': storeId,
    '0005-drop-sides-player-index': dropSidesPlayer,
    '0006-system-placement-rule': systemPlacementRule,
    '0007-list-configuration': listConfiguration,
    '0008-team-scoring': teamScoring,
    '0009-player-merges': playerMerges(dialect),
    '0010-unplayed-games': unplayedGames,
  };
}

/** A Kysely MigrationProvider over the in-code migrations (Kysely docs, "Migrations"). */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
