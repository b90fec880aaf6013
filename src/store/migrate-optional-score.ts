/**
 * Migration: a game system's score rules become optional (docs/import-formats.md#game-systems),
 * so `systems.score_min` and `score_max` may be null. PostgreSQL drops the NOT NULL in place;
 * SQLite cannot, so the table is rebuilt (SQLite "ALTER TABLE", section 7: the twelve-step
 * procedure), with foreign keys off while the referenced table is swapped.
 */
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

/** The migration for the given dialect. */
export function optionalScoreRules(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`alter table systems alter column score_min drop not null`.execute(db);
        await sql`alter table systems alter column score_max drop not null`.execute(db);
        return;
      }
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await sql`begin`.execute(db);
        await sql`create table systems_new (id text primary key, name text not null, score_min real, score_max real, score_total real, margin_bands text)`.execute(
          db,
        );
        await sql`insert into systems_new select id, name, score_min, score_max, score_total, margin_bands from systems`.execute(
          db,
        );
        await sql`drop table systems`.execute(db);
        await sql`alter table systems_new rename to systems`.execute(db);
        await sql`commit`.execute(db);
      } catch (error) {
        await sql`rollback`.execute(db).catch(() => undefined);
        throw error;
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}
