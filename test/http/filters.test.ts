/**
 * GET /api/filters: each filter value it lists keeps exactly the events and games it says, so
 * a filter bar built from it never offers a value that selects nothing (docs/http-api.md#filter-values).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FiltersResponse } from '../../src/http/routes/filters.ts';
import { SIZE_THRESHOLDS } from '../../src/engine/filter-options.ts';
import type { Static } from 'typebox';
import { buildTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { OpenApiContract } from '../support/openapi-contract.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Answer = Static<typeof FiltersResponse>;

describe(`GET /api/filters (${TEST_BACKEND})`, () => {
  let test: TestApp;
  let answer: Answer;

  const sample = async (filter: Record<string, unknown>) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/faction-stats',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: filter,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().meta.sample as { events: number; games: number };
  };

  before(async () => {
    test = await buildTestApp({ seed: 'demo-slice', shared: true });
    const response = await test.app.inject({ method: 'GET', url: '/api/filters' });
    assert.equal(response.statusCode, 200, response.body);
    answer = response.json();
  });
  after(() => test.close());

  it('lists the system with its events, games, date range and factions', async () => {
    const [system] = answer.data.systems;
    assert.equal(answer.data.systems.length, 1);
    assert.deepEqual(await sample({ system: system.id }), {
      events: system.events,
      games: system.games,
    });
    assert.ok(system.from !== null && system.to !== null && system.from <= system.to);
    assert.deepEqual(await sample({ from: system.from, to: system.to }), await sample({}));
    const after = new Date(Date.parse(system.to!) + 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(await sample({ from: after }), { events: 0, games: 0 });
    assert.ok(system.factions.length > 1);
    const sides = system.factions.reduce((sum, f) => sum + f.sides, 0);
    assert.equal(sides, system.games * 2);
  });

  it('says how many events and games every format, tier, country, rules version and online value keeps', async () => {
    const [system] = answer.data.systems;
    const cases: Array<
      [
        string,
        Array<{ value: unknown; events: number; games: number }>,
        (v: never) => Record<string, unknown>,
      ]
    > = [
      ['formats', system.formats, (v: string) => ({ format: v })],
      ['tiers', system.tiers, (v: string) => ({ tiers: [v] })],
      ['countries', system.countries, (v: string) => ({ countries: [v] })],
      ['rulesVersions', system.rulesVersions, (v: string) => ({ rulesVersions: [v] })],
      ['online', system.online, (v: boolean) => ({ online: v })],
    ];
    for (const [field, values, filter] of cases) {
      assert.ok(values.length > 0, `${field}: no value listed`);
      for (const { value, events, games } of values) {
        assert.ok(games > 0, `${field} ${String(value)} lists a value without games`);
        assert.deepEqual(
          await sample(filter(value as never)),
          { events, games },
          `${field} ${String(value)}`,
        );
      }
    }
    const countries = system.countries.map((c) => c.value);
    assert.deepEqual(
      countries,
      countries.map((c) => c.toUpperCase()),
    );
  });

  it('dates each rules version by its first and last events, so an update is a date cut', async () => {
    const [system] = answer.data.systems;
    const day = (date: string, by: number) =>
      new Date(Date.parse(date) + by * 86_400_000).toISOString().slice(0, 10);
    assert.ok(system.rulesVersions.length > 0);
    for (const v of system.rulesVersions) {
      assert.match(v.from, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(system.from! <= v.from && v.from <= v.to && v.to <= system.to!, v.value);
      const only = { rulesVersions: [v.value] };
      assert.deepEqual(await sample({ ...only, from: v.from, to: v.to }), {
        events: v.events,
        games: v.games,
      });
      // Nothing of the version starts before its first event or after its last.
      assert.deepEqual(await sample({ ...only, to: day(v.from, -1) }), { events: 0, games: 0 });
      assert.deepEqual(await sample({ ...only, from: day(v.to, 1) }), { events: 0, games: 0 });
    }
  });

  it('offers event sizes that keep what they say, and the extremes of the sizes', async () => {
    const [system] = answer.data.systems;
    const { participants } = system;
    assert.ok(participants.min !== null && participants.max !== null);
    assert.deepEqual(await sample({ minParticipants: participants.min }), await sample({}));
    assert.deepEqual(await sample({ minParticipants: participants.max! + 1 }), {
      events: 0,
      games: 0,
    });
    for (const band of participants.atLeast) {
      assert.ok((SIZE_THRESHOLDS as readonly number[]).includes(band.minParticipants));
      assert.deepEqual(await sample({ minParticipants: band.minParticipants }), {
        events: band.events,
        games: band.games,
      });
    }
  });

  it('says when the data is generated demo data, per system', async () => {
    // The demo slice's system is imported with demo: true (docs/import-formats.md#game-systems).
    assert.equal(answer.meta.demo, true);
    assert.deepEqual(
      answer.data.systems.map((s) => s.demo),
      [true],
    );
    assert.equal(answer.meta.dataVersion, test.snapshots.current()!.dataVersion);
  });

  it('is documented in the OpenAPI document, and its answer matches the schema', async () => {
    const contract = await OpenApiContract.load(test.app);
    const response = await test.app.inject({ method: 'GET', url: '/api/filters' });
    assert.equal(response.statusCode, 200);
    contract.assertResponse('/api/filters', 'get', response);
    assert.ok(contract.operation('/api/filters', 'get').description);
  });
});
