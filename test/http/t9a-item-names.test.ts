/**
 * The T9A slice's items as the lists mean them (docs/import-formats.md#item-names and
 * #t9a-the-ninth-age-data-project): a name written with and without the serial comma is one
 * item, and "Light Troops", which the Data Project's builder offers among a character's mounts,
 * is not filed as a Mount.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function items(t: TestApp, search: string): Promise<Row[]> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/item-use-stats',
    payload: { search, kinds: ['option'], sort: 'name', pageSize: 200 },
    headers: { origin: 'http://localhost:8080' },
  });
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  return (res.json().data as Row).items as Row[];
}

describe(`T9A item names (${TEST_BACKEND})`, { skip: t9aSeedPaths() === null }, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: 't9a', shared: true });
  });
  after(async () => {
    await t?.close();
  });

  it('stores "General, Disciplined, and The Dead Arise" without the serial comma', async () => {
    const found = await items(t, 'The Dead Arise');
    assert.deepEqual(
      found.map((r) => r.item.name),
      ['General, Disciplined and The Dead Arise'],
    );
    assert.equal((await items(t, ', and ')).length, 0, 'a name kept its serial comma');
  });

  it('files Light Troops as Other, never as a Mount', async () => {
    const found = await items(t, 'Light Troops');
    const plain = found.filter((r) => r.item.name === 'Light Troops');
    assert.deepEqual(
      plain.map((r) => r.item.category),
      ['Other'],
    );
    assert.ok(plain[0]!.picks >= 100, `${plain[0]!.picks} picks`);
    assert.ok(found.every((r) => r.item.category !== 'Mount'));
  });
});
