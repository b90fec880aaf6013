/**
 * The system of record behind one narrow interface: a Kysely handle on SQLite (better-sqlite3,
 * the embedded default) or PostgreSQL (pg), migrations, the data version and a liveness ping;
 * every query is a named function of src/store, which the other layers call with the store.
 * A PostgreSQL connection that the server ends is replaced, never fatal, and the reads a serving
 * process makes while it answers are bounded in time (docs/operations.md#store-outages).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Compilable, CompiledQuery, Transaction } from 'kysely';
import pg from 'pg';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts';
import { migrationProvider } from './migrations.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';
import { cachingDatabase } from './statement-cache.ts';
import type { Dialect } from './dialect.ts';
import type { Database } from './schema.ts';

export type { Dialect };

export interface Store {
  readonly dialect: Dialect;
  /**
   * The query handle, for src/store's own functions (and tests): the layers above call those
   * named functions with the store and build no query themselves (docs/architecture.md#layers).
   */
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
  /** Round-trips a trivial query; throws when the store is unreachable or slower than the bound. */
  ping(): Promise<void>;
  /**
   * Runs a short read that must answer within PROBE_TIMEOUT_MS or fail (health, the data-version
   * poll, metrics): on PostgreSQL on connections of its own whose statements the server cancels
   * at the bound, so a locked table or an exhausted pool cannot hold it.
   */
  probe<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** PostgreSQL only: work in this schema (created if missing); tests use one per store. */
  schema?: string;
  /**
   * PostgreSQL only: told each error of a pooled connection (the server ended it: a restart, a
   * failover, an idle-session reaper, a proxy reset). The pool drops that connection and opens
   * a new one on the next query; a query that was running gets the error itself.
   */
  onConnectionError?: (error: Error) => void;
}

/** The longest a probe (health, the data-version poll, metrics) waits for the store. */
export const PROBE_TIMEOUT_MS = 2000;

/**
 * Rejects with a plain reason when `promise` has not settled within `ms` (the work itself is
 * bounded on the server where it can be: statement_timeout on PostgreSQL).
 */
export async function withinTime<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A pg pool whose connections' errors are told, never thrown: node-postgres emits `'error'` on an
 * idle pooled client (and on a checked-out one between queries) when the server ends its
 * connection, and an `'error'` event without a listener ends the process
 * (node-postgres docs, "Pool: events: error").
 */
function resilientPool(config: pg.PoolConfig, onError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({ keepAlive: true, keepAliveInitialDelayMillis: 10_000, ...config });
  pool.on('error', onError);
  // The pool's own listener is removed while a client is checked out: this one stays.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
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
  // Where probes run: the one handle on SQLite (in-process, and WAL readers never wait on a
  // writer), a small pool of its own with server-side bounds on PostgreSQL.
  let probeDb: Kysely<Database>;
  let closeProbes = async () => {};
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
    probeDb = db;
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
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query(`create schema if not exists ${schema}`);
      } finally {
        await client.end();
      }
    }
    const onError = options.onConnectionError ?? (() => undefined);
    const searchPath = schema !== undefined ? { options: `-c search_path=${schema}` } : {};
    const pool = resilientPool(
      { connectionString, max: 8, connectionTimeoutMillis: 5000, ...searchPath },
      onError,
    );
    const probePool = resilientPool(
      {
        connectionString,
        max: 2,
        connectionTimeoutMillis: PROBE_TIMEOUT_MS,
        idleTimeoutMillis: 10_000,
        statement_timeout: PROBE_TIMEOUT_MS,
        lock_timeout: PROBE_TIMEOUT_MS / 2,
        ...searchPath,
      },
      onError,
    );
    db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    probeDb = new Kysely<Database>({
      dialect: new CurrentSchemaPostgresDialect({ pool: probePool }),
    });
    // Kysely ends a pool only once it has used it: end an unused one here, so that a probe
    // after close fails as every other query does.
    closeProbes = async () => {
      await probeDb.destroy();
      if (!probePool.ending) await probePool.end();
    };
    selectRows = async ({ sql: text, parameters }) =>
      (await pool.query({ text, values: [...parameters], rowMode: 'array' })).rows;
  }

  const probe = <T>(read: (handle: Kysely<Database>) => Promise<T>): Promise<T> =>
    withinTime(read(probeDb), PROBE_TIMEOUT_MS, 'the store');

  return {
    dialect,
    db,
    probe,
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
    dataVersion: () => probe(readDataVersion),
    async selectRows<R extends readonly unknown[]>(query: Compilable) {
      return (await selectRows(query.compile())) as R[];
    },
    async ping() {
      await probe((handle) => sql`select 1`.execute(handle));
    },
    async close() {
      await db.destroy();
      await closeProbes();
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

/** The data version in `meta` (0 before the first import). */
export async function readDataVersion(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'data_version')
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.value);
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
export async function readMeta(target: StoreOrHandle, key: string): Promise<string | null> {
  const db = handleOf(target);
  const row = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** Upserts a meta value. */
export async function writeMeta(target: StoreOrHandle, key: string, value: string): Promise<void> {
  const db = handleOf(target);
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
