import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
