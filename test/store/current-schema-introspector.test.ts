/**
 * The PostgreSQL introspector the migrator asks (docs/operations.md#postgresql): tables of the
 * connection's own schema only, with serial and identity columns marked auto-incrementing as
 * Kysely's own introspector marks them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PostgresIntrospector, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import { CurrentSchemaIntrospector } from '../../src/store/current-schema-introspector.ts';

describe(`the current-schema introspector (${TEST_BACKEND})`, () => {
  it('lists only its own schema, marking serial and identity columns as Kysely does', async (ctx) => {
    if (TEST_BACKEND !== 'postgres') return ctx.skip('runs in the PostgreSQL pass of npm test');
    const mine = await openTestStore();
    const other = await openTestStore();
    try {
      const db = mine.db as unknown as Kysely<unknown>;
      await sql`create table counted (n integer generated always as identity, label text default 'x')`.execute(
        db,
      );
      await sql`create table elsewhere (id serial primary key)`.execute(
        other.db as unknown as Kysely<unknown>,
      );
      const ours = await new CurrentSchemaIntrospector(db).getTables();
      const names = ours.map((t) => t.name);
      assert.ok(names.includes('games') && names.includes('counted'), names.join(', '));
      assert.ok(!names.includes('elsewhere'), "another schema's table was listed");
      assert.ok(!names.includes('kysely_migration'), "the migrator's own tables are left out");
      const withKysely = await new CurrentSchemaIntrospector(db).getTables({
        withInternalKyselyTables: true,
      });
      assert.ok(withKysely.some((t) => t.name === 'kysely_migration'));

      // Kysely's introspector reads every schema; over ours it must agree column for column.
      const kysely = (await new PostgresIntrospector(db).getTables()).filter((t) =>
        names.includes(t.name),
      );
      const columns = (tables: typeof ours) =>
        tables
          .flatMap((t) =>
            t.columns.map(
              (c) =>
                `${t.name}.${c.name} ${c.dataTypeSchema}.${c.dataType} null:${c.isNullable} ` +
                `default:${c.hasDefaultValue} auto:${c.isAutoIncrementing} ${c.comment ?? ''}`,
            ),
          )
          .sort();
      assert.deepEqual(columns(ours), columns(kysely.filter((t) => t.schema === ours[0]!.schema)));
      const auto = ours.flatMap((t) =>
        t.columns.filter((c) => c.isAutoIncrementing).map((c) => `${t.name}.${c.name}`),
      );
      assert.ok(auto.includes('imports.id') && auto.includes('counted.n'), auto.join(', '));
      assert.ok(!auto.includes('counted.label'));
    } finally {
      await mine.close();
      await other.close();
    }
  });
});
