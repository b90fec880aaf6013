/**
 * Bad input on the statistics routes: every case is a 400 problem with errors[] pointers (none is
 * a 500), and a service without a loaded snapshot answers 503.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STATS_ROUTES } from '../../src/http/routes/index.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { HAND_DOCUMENT } from '../snapshot/hand-fixture.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// The forecast and the team routes take no common filter: their own bad input is in
// strength-routes.test.ts and team-pairing.test.ts.
const NO_FILTER = [
  '/api/forecast',
  '/api/team-matrix',
  '/api/team-pairing',
  '/api/player-duplicates',
  '/api/event-projection',
];
const ROUTES = STATS_ROUTES.map((route) => route.path).filter((path) => !NO_FILTER.includes(path));

describe(`statistics routes reject bad input (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let stats: StatsApp;
  before(async () => {
    store = await openTestStore();
    await importCanonical(store, HAND_DOCUMENT);
    stats = await startStatsApp(store);
  });
  after(async () => {
    await stats.close();
    await store.close();
  });

  const bad = async (path: string, body: unknown, pointer: string, detail?: RegExp) => {
    const res = await stats.app.inject({
      method: 'POST',
      url: path,
      headers: { origin: 'http://localhost:8080', 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    assert.equal(res.statusCode, 400, `${path} ${JSON.stringify(body)}: ${res.body}`);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const problem = res.json() as Row;
    assert.ok(
      problem.errors.some(
        (e: Row) => e.pointer === pointer && (detail === undefined || detail.test(e.detail)),
      ),
      `${path}: expected an error at ${pointer}, got ${JSON.stringify(problem.errors)}`,
    );
  };

  for (const path of ROUTES) {
    it(`answers 400 with pointers on ${path} for unknown fields, wrong types, impossible dates and from after to`, async () => {
      await bad(path, { sytem: 'tt' }, '/sytem', /unknown field/);
      await bad(path, { from: 20250101 }, '/from');
      await bad(path, { from: '2025-02-30' }, '/from', /not a real date/);
      await bad(path, { to: '2025-13-01' }, '/to', /not a real date/);
      await bad(path, { from: '2025-03-01', to: '2025-01-01' }, '/from', /after/);
      await bad(path, { system: 'nope' }, '/system', /unknown system "nope"/);
      await bad(path, { countries: Array.from({ length: 101 }, () => 'DE') }, '/countries');
      await bad(path, { minParticipants: -1 }, '/minParticipants');
      await bad(path, { format: 'duo' }, '/format');
      await bad(path, { eventIds: ['x'.repeat(101)] }, '/eventIds/0');
    });
  }

  it('names unknown faction ids and scenario names, and refuses absurd minGames', async () => {
    await bad(
      '/api/faction-stats',
      { factions: ['A', 'ZZ'] },
      '/factions/1',
      /unknown faction "ZZ"/,
    );
    await bad('/api/army-matchup', { opponents: ['QQ'] }, '/opponents/0', /"QQ"/);
    await bad('/api/item-use-stats', { factions: ['QQ'] }, '/factions/0', /"QQ"/);
    await bad('/api/scenario-stats', { factions: ['QQ'] }, '/factions/0', /"QQ"/);
    await bad(
      '/api/scenario-stats',
      { names: ['M1', 'Nowhere'] },
      '/names/1',
      /unknown scenario name "Nowhere"/,
    );
    await bad('/api/faction-stats', { minGames: -3 }, '/minGames');
    await bad('/api/faction-stats', { minGames: 1e12 }, '/minGames');
    await bad('/api/faction-stats', { minGames: 2.5 }, '/minGames');
    await bad('/api/item-use-stats', { pageSize: 201 }, '/pageSize');
    await bad('/api/scenario', { kinds: ['maps'] }, '/kinds/0');
    await bad('/api/faction-stats', { groupBy: 'week' }, '/groupBy');
  });

  it('answers 503 not-ready while no snapshot is loaded', async () => {
    const cold = await startStatsApp(store, false);
    try {
      const { status, json } = await cold.post('/api/faction-stats', {});
      assert.equal(status, 503);
      assert.equal(json.type, '/problems/not-ready');
    } finally {
      await cold.close();
    }
  });
});
