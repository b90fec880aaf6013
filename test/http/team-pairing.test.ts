/**
 * POST /api/team-matrix and POST /api/team-pairing on the demo data: the examples of the OpenAPI
 * document answer, unknown players are newcomers while unknown factions and impossible drafts
 * are 400 problems naming the field, and a captain's matrix never enters the response cache.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, demoSlice, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { OpenApiContract } from '../support/openapi-contract.ts';

function post(t: TestApp, url: string, body: unknown) {
  const payload = body as Record<string, unknown>;
  return t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN }, payload });
}

interface Media {
  examples?: Record<string, { value: unknown }>;
  example?: unknown;
}

async function examplesOf(t: TestApp, path: string): Promise<unknown[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
  const media = doc.paths[path].post.requestBody.content['application/json'] as Media;
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((e) => e.value);
}

/** Two players of the slice's games with their factions, and one that is in no data. */
function slicePlayers(): Array<{ player: string; faction: string }> {
  const out = new Map<string, string>();
  for (const event of demoSlice().events ?? []) {
    for (const game of event.games ?? []) {
      for (const side of game.sides ?? []) {
        if (side.player && side.faction) out.set(side.player, side.faction);
      }
    }
  }
  return [...out].slice(0, 3).map(([player, faction]) => ({ player, faction }));
}

describe(`team matrix and pairing routes (${TEST_BACKEND})`, () => {
  let t: TestApp;
  let contract: OpenApiContract;
  before(async () => {
    t = await buildTestApp({ seed: 'demo-slice', shared: true });
    contract = await OpenApiContract.load(t.app);
  });
  after(() => t?.close());

  it('answers the team-matrix example with a 3 x 3 matrix on the demo scale', async () => {
    const [example] = await examplesOf(t, '/api/team-matrix');
    const response = await post(t, '/api/team-matrix', example);
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    contract.assertResponse('/api/team-matrix', 'post', response);
    const data = response.json().data;
    assert.equal(data.model, 'joint');
    assert.equal(data.rows.length, 3);
    assert.equal(data.cells.length, 3);
    for (const row of data.cells) {
      assert.equal(row.length, 3);
      for (const c of row) {
        assert.ok(c.low <= c.expected && c.expected <= c.high);
        assert.ok(Math.abs(c.win + c.draw + c.loss - 1) < 1e-9);
        if (data.gameTotal !== null) {
          assert.ok(Math.abs(c.score.expected - c.expected * data.gameTotal) < 1e-9);
        }
      }
    }
    assert.ok(response.json().meta.sample.games > 0);
  });

  it('forecasts a player the data does not know as a newcomer with a wider interval, never a 404', async () => {
    const [a, b, c] = slicePlayers();
    const body = { teamA: [a, { player: 'nobody-yet', faction: a.faction }], teamB: [b, c] };
    const response = await post(t, '/api/team-matrix', body);
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    const { data, meta } = response.json();
    assert.deepEqual(
      data.rows.map((r: { known: boolean }) => r.known),
      [true, false],
    );
    assert.equal(data.rows[1].rd, 350);
    const width = (cell: { low: number; high: number }) => cell.high - cell.low;
    assert.ok(width(data.cells[1][0]) > width(data.cells[0][0]));
    assert.match(meta.warnings.join(' '), /nobody-yet/);
  });

  it('gives the rating and faction models their own cells', async () => {
    const [a, b, c] = slicePlayers();
    const body = (model: string) => ({ teamA: [a, b], teamB: [c], model });
    const rating = (await post(t, '/api/team-matrix', body('rating'))).json().data;
    const faction = (await post(t, '/api/team-matrix', body('faction'))).json().data;
    assert.equal(rating.model, 'rating');
    assert.equal(faction.model, 'faction');
    assert.notEqual(rating.cells[0][0].expected, faction.cells[0][0].expected);
  });

  it('rejects an unknown faction with a 400 pointing at it', async () => {
    const [a, b] = slicePlayers();
    const response = await post(t, '/api/team-matrix', {
      teamA: [a],
      teamB: [{ player: b.player, faction: 'no-such-army' }],
    });
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.equal(problem.type, '/problems/validation');
    assert.equal(problem.errors[0].pointer, '/teamB/0/faction');
  });

  it('answers both team-pairing examples: the draft from nothing, then the keeping choice', async () => {
    const [fromNothing, withHistory] = await examplesOf(t, '/api/team-pairing');
    const first = await post(t, '/api/team-pairing', fromNothing);
    assert.equal(first.statusCode, 200, first.body.slice(0, 300));
    contract.assertResponse('/api/team-pairing', 'post', first);
    const data = first.json().data;
    assert.equal(data.step.phase, 'defenders');
    assert.equal(data.players, 5);
    assert.ok(data.value > 0 && data.value < 100);
    const sum = data.step.teamA.reduce(
      (s: number, o: { probability: number }) => s + o.probability,
      0,
    );
    assert.ok(Math.abs(sum - 1) < 1e-9);
    const second = await post(t, '/api/team-pairing', withHistory);
    assert.equal(second.statusCode, 200, second.body.slice(0, 300));
    contract.assertResponse('/api/team-pairing', 'post', second);
    const next = second.json().data;
    assert.equal(next.step.phase, 'keep');
    assert.deepEqual(next.history, (withHistory as { history: unknown }).history);
    assert.deepEqual(
      next.step.teamA.map((o: { choice: number[] }) => o.choice),
      [[0], [3]],
    );
  });

  it('rejects an impossible history with a 400 naming the step', async () => {
    const [body] = (await examplesOf(t, '/api/team-pairing')) as Array<Record<string, unknown>>;
    const history = [
      {
        defenderA: 0,
        defenderB: 1,
        attackersA: [2, 4],
        attackersB: [0, 3],
        keptByA: 2,
        keptByB: 2,
      },
    ];
    const response = await post(t, '/api/team-pairing', { ...body, history });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().errors[0].pointer, '/history/0/keptByA');
  });

  it('rejects a matrix that is not square or a cell above gameTotal', async () => {
    const square = await post(t, '/api/team-pairing', {
      format: 'defender-attacker',
      matrix: [
        [1, 2, 3],
        [1, 2],
        [1, 2, 3],
      ],
      gameTotal: 20,
    });
    assert.equal(square.statusCode, 400);
    const above = await post(t, '/api/team-pairing', {
      format: 'defender-attacker',
      matrix: [
        [1, 2, 3],
        [1, 21, 3],
        [1, 2, 3],
      ],
      gameTotal: 20,
    });
    assert.equal(above.statusCode, 400);
    assert.equal(above.json().errors[0].pointer, '/matrix/1/1');
  });

  it('keeps no captain matrix in the response cache', async () => {
    const cache = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/health' })).json().checks[
        'responseCache:bytes'
      ][0] as { hits: number; misses: number; entries: number };
    const before = await cache();
    const [body] = await examplesOf(t, '/api/team-pairing');
    await post(t, '/api/team-pairing', body);
    await post(t, '/api/team-pairing', body);
    const after = await cache();
    assert.deepEqual(
      [after.hits, after.misses, after.entries],
      [before.hits, before.misses, before.entries],
    );
  });
});
