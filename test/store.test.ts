import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openTestStore, TEST_BACKEND } from './support/test-store.ts';

describe(`store (${TEST_BACKEND})`, () => {
  it('migrates an empty store to data version 0 and answers a ping', async () => {
    const store = await openTestStore();
    try {
      await store.ping();
      assert.equal(await store.dataVersion(), 0);
      await store.migrate(); // idempotent
      assert.equal(await store.dataVersion(), 0);
    } finally {
      await store.close();
    }
  });
});

describe(`store introspection (${TEST_BACKEND})`, () => {
  it("lists its own tables and their columns, none of another store's", async () => {
    const store = await openTestStore();
    const other = await openTestStore();
    try {
      await other.db.schema.createTable('only_in_other').addColumn('x', 'integer').execute();
      const tables = await store.db.introspection.getTables();
      const names = tables.map((t) => t.name);
      assert.ok(names.includes('games'), names.join(', '));
      assert.ok(!names.includes('only_in_other'), 'a table of another schema is not listed');
      assert.ok(!names.includes('kysely_migration'), "Kysely's own tables only when asked");
      if (TEST_BACKEND === 'postgres') {
        const schema = new URL(store.url).searchParams.get('schema');
        assert.deepEqual([...new Set(tables.map((t) => t.schema))], [schema]);
      }
      const games = tables.find((t) => t.name === 'games');
      const eventId = games?.columns.find((c) => c.name === 'event_id');
      assert.equal(eventId?.dataType.toLowerCase(), 'text');
      assert.equal(eventId?.isNullable, false);
      const all = await store.db.introspection.getTables({ withInternalKyselyTables: true });
      assert.ok(all.some((t) => t.name === 'kysely_migration'));
    } finally {
      await store.close();
      await other.close();
    }
  });
});

describe(`store indexes (${TEST_BACKEND})`, () => {
  it('keeps no index of sides by player: nothing reads by it and every import paid for it', async () => {
    const store = await openTestStore();
    try {
      const query =
        TEST_BACKEND === 'postgres'
          ? sql<{
              name: string;
            }>`select indexname as name from pg_indexes where tablename = 'sides' and schemaname = current_schema()`
          : sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'sides'`;
      const names = (await query.execute(store.db)).rows.map((r) => r.name);
      assert.ok(names.length > 0, 'the primary key index is listed'); // the query sees the table
      assert.ok(!names.includes('sides_player'), names.join(', '));
    } finally {
      await store.close();
    }
  });
});

describe(`store rows as arrays (${TEST_BACKEND})`, () => {
  it('returns each row as an array in select order, on a reused statement too', async () => {
    const store = await openTestStore();
    try {
      await store.db
        .insertInto('meta')
        .values([
          { key: 'b-key', value: '2' },
          { key: 'a-key', value: '1' },
        ])
        .execute();
      const query = store.db
        .selectFrom('meta')
        .select(['value', 'key'])
        .where('key', 'in', ['a-key', 'b-key', 'c-key'])
        .orderBy('key');
      assert.deepEqual(await store.selectRows<[string, string]>(query), [
        ['1', 'a-key'],
        ['2', 'b-key'],
      ]);
      // The same statement again, now with a parameter that matches nothing.
      const none = store.db.selectFrom('meta').select(['value', 'key']).where('key', '=', 'zz');
      assert.deepEqual(await store.selectRows(none), []);
      assert.deepEqual(await store.selectRows(none), []);
    } finally {
      await store.close();
    }
  });
});
