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
