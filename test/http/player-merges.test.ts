/**
 * Duplicate players and merges that can be undone (docs/data-model.md#player-merges), on a
 * hand-made store on every backend: a pair whose names differ only in case and accents is
 * suggested, a pair who played each other never is; a merge gives the ratings of data where the
 * two ids were one from the start; an unmerge gives back the answers of before byte for byte;
 * a merge that would make a player play themselves is refused with the reason.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { mergeDocument as document } from '../support/merge-document.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { openSharedTestStore, TEST_BACKEND } from '../support/test-store.ts';

/** Runs the command line on the app's store. */
async function cli(t: TestApp, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { MUSTER_DATABASE_URL: t.store.url },
  });
  return { code, out, err: err.join('\n') };
}

/** The raw bytes of an answer, with the instant it was made and the data version blanked. */
async function rawAnswer(t: TestApp, url: string, body: object): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { origin: TEST_ORIGIN },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.body
    .replace(/"generatedAt":"[^"]*"/, '"generatedAt":""')
    .replace(/"dataVersion":\d+/, '"dataVersion":0');
}

/** Every answer of REQUESTS, one after the other (a client may run only a few long ones at once). */
async function answers(t: TestApp): Promise<string[]> {
  const out: string[] = [];
  for (const [url, body] of REQUESTS) out.push(await rawAnswer(t, url, body));
  return out;
}

const REQUESTS: Array<[string, object]> = [
  ['/api/rankings', { system: 'tt' }],
  ['/api/rankings', { system: 'tt', method: 'elo' }],
  ['/api/rankings', { system: 'tt', method: 'points' }],
  ['/api/rankings', { system: 'tt', player: 'p-jose' }],
  ['/api/rankings', { system: 'tt', player: 'p-jose2' }],
  ['/api/rankings', { system: 'tt', versus: ['p-jose', 'p-x'] }],
  ['/api/events', { system: 'tt', event: 'e2' }],
  ['/api/faction-stats', { system: 'tt' }],
  ['/api/player-duplicates', { system: 'tt', minScore: 0 }],
];

describe(`duplicate players and merges (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let cleanup: () => void;
  before(async () => {
    const shared = await openSharedTestStore();
    cleanup = shared.cleanup;
    t = await buildTestApp({ store: shared.store, seed: document('p-jose2') });
  });
  after(async () => {
    await t.close();
    await t.store.close();
    cleanup();
  });

  it('suggests two ids whose names differ in case and accents, with the evidence', async () => {
    const { status, json } = await post(t, '/api/player-duplicates', { system: 'tt' });
    assert.equal(status, 200, JSON.stringify(json));
    const pair = json.data.pairs.find(
      (p: { players: string[] }) => p.players.join() === 'p-jose,p-jose2',
    );
    assert.ok(pair, JSON.stringify(json.data.pairs));
    assert.deepEqual(pair.for, ['name-case-accents', 'same-country', 'shared-factions']);
    assert.deepEqual(pair.against, []);
    assert.ok(pair.score >= 0.9, String(pair.score));
  });

  it('never suggests two ids that played each other, even with one name', async () => {
    const { json } = await post(t, '/api/player-duplicates', { system: 'tt', minScore: 0 });
    const ids = json.data.pairs.map((p: { players: string[] }) => p.players.join());
    assert.ok(!ids.includes('p-anna,p-anna2'), ids.join(' '));
  });

  it('refuses a merge that makes a player play themselves, saying why', async () => {
    const r = await cli(t, ['players', 'merge', 'p-anna', 'p-anna2', '--note', 'same name']);
    assert.equal(r.code, 1);
    assert.match(r.err, /refused: .*played each other \(game e1-g2/);
    assert.deepEqual((await cli(t, ['players', 'merges'])).out, []);
  });

  it('rates a merged pair as data where the two ids were one from the start', async () => {
    const one = await buildTestApp({ seed: document('p-jose') });
    try {
      const merged = await cli(t, ['players', 'merge', 'p-jose', 'p-jose2', '--note', 'accents']);
      assert.equal(merged.code, 0, merged.err);
      assert.match(merged.out.at(-1)!, /^\d+$/);
      await t.snapshots.refresh();
      for (const method of ['glicko2', 'elo', 'points']) {
        const body = { system: 'tt', method };
        const [a, b] = [
          await post(t, '/api/rankings', body),
          await post(one, '/api/rankings', body),
        ];
        assert.deepEqual(a.json.data, b.json.data, method);
      }
      const page = (await post(t, '/api/rankings', { system: 'tt', player: 'p-jose' })).json;
      const same = (await post(one, '/api/rankings', { system: 'tt', player: 'p-jose' })).json;
      const { merged: ids, mergedInto, ...rest } = page.data.player;
      assert.deepEqual(ids, [{ id: 'p-jose2', name: 'jose garcia' }]);
      assert.equal(mergedInto, null);
      const { merged: _m, mergedInto: _i, ...expected } = same.data.player;
      assert.deepEqual(rest, expected);
      // The other id still answers, for the kept one, and says so.
      const other = (await post(t, '/api/rankings', { system: 'tt', player: 'p-jose2' })).json;
      assert.equal(other.data.player.mergedInto.id, 'p-jose');
      assert.equal(other.data.player.row.games, 4);
    } finally {
      await one.close();
      await cli(t, ['players', 'unmerge', '1']);
      await t.snapshots.refresh();
    }
  });

  it('gives back the answers of before, byte for byte, once a merge is undone', async () => {
    const before = await answers(t);
    const merged = await cli(t, ['players', 'merge', 'p-jose', 'p-jose2', '--note', 'accents']);
    assert.equal(merged.code, 0, merged.err);
    await t.snapshots.refresh();
    const during = await rawAnswer(t, '/api/rankings', { system: 'tt' });
    assert.notEqual(during, before[0], 'the merge changes the rankings');
    const undone = await cli(t, ['players', 'unmerge', merged.out.at(-1)!]);
    assert.equal(undone.code, 0, undone.err);
    await t.snapshots.refresh();
    const afterwards = await answers(t);
    for (const [i, [url]] of REQUESTS.entries()) assert.equal(afterwards[i], before[i], url);
    const list = (await cli(t, ['players', 'merges'])).out.map((l) => JSON.parse(l));
    assert.equal(list.length, 2);
    assert.ok(list.every((m) => m.undoneAt !== null && m.moved.games === 2));
  });
});
