/**
 * The system of record behind one narrow interface: a Kysely handle on SQLite (better-sqlite3,
 * the embedded default) or PostgreSQL (pg), migrations, the data version and a liveness ping.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Compilable, CompiledQuery, Transaction } from 'kysely';
import pg from 'pg';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts';
import { migrationProvider } from './migrations.ts';
import { cachingDatabase } from './statement-cache.ts';
import type { Dialect } from './dialect.ts';
import type { Database } from './schema.ts';

export type { Dialect };

export interface Store {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /** Where the data lives, with any password removed: safe to log and to show in health. */
  readonly location: string;
  migrate(): Promise<void>;
  dataVersion(): Promise<number>;
  /**
   * Runs one query and returns its rows as arrays in select order. The snapshot loader reads
   * millions of rows, and both drivers build an array per row in about half the time of an
   * object per row.
   */
  selectRows<R extends readonly unknown[]>(query: Compilable): Promise<R[]>;
  /** Round-trips a trivial query; throws when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** PostgreSQL only: work in this schema (created if missing); tests use one per store. */
  schema?: string;
}

/** `sqlite:PATH`, a bare path, or `sqlite::memory:` mean SQLite; `postgres://` means PostgreSQL. */
export function parseDatabaseUrl(url: string): { dialect: Dialect; target: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', target: url };
  const path = url.replace(/^sqlite:(\/\/)?/i, '');
  return { dialect: 'sqlite', target: path === ':memory:' ? path : resolve(path) };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Opens (without migrating) the store a MUSTER_DATABASE_URL names. */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  const { dialect, target } = parseDatabaseUrl(url);
  let db: Kysely<Database>;
  let schema: string | undefined;
  let selectRows: (query: CompiledQuery) => Promise<unknown[]>;
  if (dialect === 'sqlite') {
    if (target !== ':memory:') mkdirSync(dirname(target), { recursive: true });
    const database = new SQLite(target);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: cachingDatabase(database) }),
    });
    // The loader's few statements, each with and without its key-range start.
    const statements = new Map<string, SQLite.Statement>();
    selectRows = async ({ sql: text, parameters }) => {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = database.prepare(text).raw(true);
        statements.set(text, statement);
      }
      return statement.all(...parameters);
    };
  } else {
    schema = options.schema ?? new URL(target).searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
      throw new Error(`invalid PostgreSQL schema name "${schema}"`);
    }
    const connectionString = target.replace(/([?&])schema=[^&]*&?/, '$1').replace(/[?&]$/, '');
    if (schema !== undefined) {
      // Create the schema on a one-off connection so that the pool's search_path finds it.
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        await client.query(`create schema if not exists ${schema}`);
      } finally {
        await client.end();
      }
    }
    const pool = new pg.Pool({
      connectionString,
      max: 8,
      connectionTimeoutMillis: 5000,
      ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    selectRows = async ({ sql: text, parameters }) =>
      (await pool.query({ text, values: [...parameters], rowMode: 'array' })).rows;
  }

  return {
    dialect,
    db,
    location: dialect === 'sqlite' ? `sqlite:${target}` : redact(target),
    async migrate() {
      // Kysely looks its own tables up by schema: name ours, or another schema's copy would count.
      const migrator = new Migrator({
        db,
        provider: migrationProvider(dialect),
        ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
      });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error !== undefined || failed !== undefined) {
        const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
        throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`);
      }
    },
    async dataVersion() {
      const row = await db
        .selectFrom('meta')
        .select('value')
        .where('key', '=', 'data_version')
        .executeTakeFirst();
      return row === undefined ? 0 : Number(row.value);
    },
    async selectRows<R extends readonly unknown[]>(query: Compilable) {
      return (await selectRows(query.compile())) as R[];
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/** Opens the store and brings its schema to the latest migration. */
export async function openMigratedStore(
  url: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const store = await openStore(url, options);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/**
 * Increments the data version inside an import's transaction (docs/import-formats.md#idempotence).
 */
export async function bumpDataVersion(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'data_version')
    .executeTakeFirstOrThrow();
  const next = Number(row.value) + 1;
  await trx
    .updateTable('meta')
    .set({ value: String(next) })
    .where('key', '=', 'data_version')
    .execute();
  return next;
}

/** Reads a meta value (e.g. "demo" when the store holds generated demo data). */
export async function readMeta(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** Upserts a meta value. */
export async function writeMeta(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
