/**
 * Rankings when nobody is established (docs/ratings.md#conservative-order-and-provisional-players):
 * the committed T9A slice has only provisional Glicko-2 players, so the default ranking lists
 * them, each marked, with the reason in one line, rather than nothing; the faction filter the
 * faction page's best players use follows the same rule; asked for provisional players, or with
 * established ones, there is no such line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateDemo } from '../../src/ingest/demo/generate-demo.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp, t9aSeedPaths } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe(`rankings with no established player (${TEST_BACKEND})`, () => {
  const skip = t9aSeedPaths() === null ? 'no T9A data (test/fixtures/t9a)' : false;
  let t9a: TestApp;
  let demo: TestApp;
  before(async () => {
    if (skip === false) t9a = await buildTestApp({ seed: 't9a', shared: true });
    demo = await buildTestApp({
      seed: generateDemo({ today: new Date().toISOString().slice(0, 10) }),
      shared: true,
    });
  });
  after(async () => {
    await t9a?.close();
    await demo?.close();
  });

  it(
    'lists the provisional players, marked, with the reason, when none is established',
    { skip },
    async () => {
      const { status, json } = await post(t9a, '/api/rankings', {});
      assert.equal(status, 200, JSON.stringify(json));
      const players = json.data.players as Row[];
      assert.ok(players.length > 0, 'someone is shown');
      assert.ok(players.every((p) => p.provisional === true));
      const lowest = Math.round(Math.min(...players.map((p) => p.rd as number)));
      assert.ok(lowest > 110);
      assert.equal(
        json.data.provisionalFallback,
        `Every player here is provisional (rating deviation above 110; the lowest is ${lowest}), so they are all shown, each marked provisional.`,
      );
      const asked = await post(t9a, '/api/rankings', { includeProvisional: true });
      assert.equal(asked.json.data.provisionalFallback, null);
      assert.equal(asked.json.data.total, json.data.total);
    },
  );

  it("follows the same rule for one faction's players", { skip }, async () => {
    const { json: all } = await post(t9a, '/api/rankings', { includeProvisional: true });
    const faction = (all.data.players as Row[])[0].mainFaction.id as string;
    const { json } = await post(t9a, '/api/rankings', { factions: [faction], pageSize: 10 });
    assert.ok((json.data.players as Row[]).length > 0);
    assert.match(json.data.provisionalFallback, /^Every player here is provisional/);
  });

  it('leaves provisional players out, with no such line, where some are established', async () => {
    const { json } = await post(demo, '/api/rankings', {});
    assert.ok((json.data.players as Row[]).length > 0);
    assert.ok((json.data.players as Row[]).every((p) => p.provisional === false));
    assert.equal(json.data.provisionalFallback, null);
    // A search that finds nobody says nothing about provisional players.
    const none = await post(demo, '/api/rankings', { search: 'no-such-player-anywhere' });
    assert.equal(none.json.data.total, 0);
    assert.equal(none.json.data.provisionalFallback, null);
  });
});
