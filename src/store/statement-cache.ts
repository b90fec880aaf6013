/**
 * A better-sqlite3 database whose `prepare` keeps the most recently used statements, for Kysely's
 * SQLite driver, which prepares every query it runs afresh. An import runs the same multi-row
 * insert and the same read by ids thousands of times; preparing them again each time (SQLite
 * parses and plans 16,000 placeholders) was 9 % of an NDJSON import's time in the profile
 * (docs/operations.md#import-throughput).
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept; an import uses about twenty distinct ones. */
const CAPACITY = 64;

export function cachingDatabase(database: SQLite.Database, capacity = CAPACITY): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      // A statement still being iterated cannot be run again: prepare another one for this call.
      if (cached !== undefined && !cached.busy) {
        // Most recently used last, so the first key is the one to evict.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached as unknown as SqliteStatement;
      }
      const statement = database.prepare(sql);
      if (cached === undefined) {
        cache.set(sql, statement);
        if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}
