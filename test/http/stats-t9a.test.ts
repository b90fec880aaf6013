/**
 * Real data: the T9A set (../shared/data/t9a, Apache-2.0, The Ninth Age Data Project) unpacked
 * into a temp folder, imported with the t9a importer, and the routes' numbers compared with
 * values computed here straight from the raw report files (same exclusions as the importer:
 * a report needs an id, scores on the 0..20 scale summing to 20, and two different players).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fullT9aData, sharedT9aStore } from '../support/t9a-data.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';
import { startStatsApp } from '../snapshot/stats-app.ts';
import type { StatsApp } from '../snapshot/stats-app.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DATA = await fullT9aData();

interface RawGame {
  tournament: Json;
  report: Json;
}

function readRaw(dataDir: string): { games: RawGame[]; excluded: number } {
  const games: RawGame[] = [];
  let excluded = 0;
  for (const dir of readdirSync(dataDir).sort()) {
    const tournament = JSON.parse(
      readFileSync(join(dataDir, dir, 'metaData.json'), 'utf8'),
    ) as Json;
    for (const name of readdirSync(join(dataDir, dir))) {
      if (!/^report_.*\.json$/.test(name)) continue;
      const report = JSON.parse(readFileSync(join(dataDir, dir, name), 'utf8')) as Json;
      const a = report.scoreOne;
      const b = report.scoreTwo;
      // Reports without an id import too, under an id derived from tournament and file name.
      const valid =
        Number.isInteger(a) &&
        Number.isInteger(b) &&
        a >= 0 &&
        a <= 20 &&
        b >= 0 &&
        b <= 20 &&
        a + b === 20 &&
        !(report.playerOneId && report.playerOneId === report.playerTwoId);
      if (valid) games.push({ tournament, report });
      else excluded++;
    }
  }
  return { games, excluded };
}

const fold = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toLowerCase();
const text = (s: unknown) => (typeof s === 'string' && s.trim() !== '' ? s.trim() : null);

describe(`T9A real data (${TEST_BACKEND})`, { timeout: 600_000 }, () => {
  let store: TestStore | null;
  let stats: StatsApp;
  let raw: { games: RawGame[]; excluded: number };

  before(async () => {
    if (DATA === null) return;
    raw = readRaw(DATA);
    // Imported once per test pass for the files that only read it (test/support/t9a-data.ts).
    store = await sharedT9aStore();
    stats = await startStatsApp(store!);
    assert.equal(
      stats.snapshots.current()!.games,
      raw.games.length,
      'importer and raw count agree',
    );
  });
  after(async () => {
    await stats?.close();
    await store?.close();
  });

  it('gives per army the sides, non-mirror games and average points for 2025-Q4 events of 8+ players', async (t) => {
    if (DATA === null) return t.skip('../shared/data/t9a is absent: real-data check skipped');
    const expected = new Map<string, { sides: number; games: number; points: number }>();
    for (const { tournament, report } of raw.games) {
      if (
        !(
          tournament.size >= 8 &&
          tournament.start >= '2025-10-01' &&
          tournament.start <= '2025-12-31'
        )
      )
        continue;
      const mirror = report.armyOne === report.armyTwo;
      for (const [army, score] of [
        [report.armyOne, report.scoreOne],
        [report.armyTwo, report.scoreTwo],
      ]) {
        const e = expected.get(army) ?? { sides: 0, games: 0, points: 0 };
        e.sides++;
        e.points += score;
        if (!mirror) e.games++;
        expected.set(army, e);
      }
    }
    assert.ok(expected.size > 10, 'the window holds most armies');
    const { status, json } = await stats.post('/api/faction-stats', {
      from: '2025-10-01',
      to: '2025-12-31',
      minParticipants: 8,
    });
    assert.equal(status, 200);
    const rows = new Map<string, Json>(
      (json.data as Json).factions.map((f: Json) => [f.faction.id, f]),
    );
    assert.deepEqual([...rows.keys()].sort(), [...expected.keys()].sort());
    for (const [army, e] of expected) {
      const row = rows.get(army)!;
      assert.equal(row.sides, e.sides, `${army} sides`);
      assert.equal(row.games, e.games, `${army} games`);
      assert.ok(Math.abs(row.avgScore - e.points / e.sides) < 1e-9, `${army} avg points`);
    }
  });

  it('counts games per map, deployment and primary, and attacker/defender/none on primaries', async (t) => {
    if (DATA === null) return t.skip('../shared/data/t9a is absent: real-data check skipped');
    const counts = {
      map: new Map<string, number>(),
      deployment: new Map<string, number>(),
      primary: new Map<string, number>(),
    };
    const primaries = new Map<string, { attacker: number; defender: number; none: number }>();
    for (const { report } of raw.games) {
      const setup = (report.setup ?? {}) as Json;
      for (const kind of ['map', 'deployment', 'primary'] as const) {
        const name = text(setup[kind]);
        if (name !== null) counts[kind].set(fold(name), (counts[kind].get(fold(name)) ?? 0) + 1);
      }
      const name = text(setup.primary);
      if (name === null || (report.firstTurn !== 0 && report.firstTurn !== 1)) continue;
      if (![0, 1, 2].includes(report.primary)) continue;
      const p = primaries.get(fold(name)) ?? { attacker: 0, defender: 0, none: 0 };
      if (report.primary === 2) p.none++;
      else if (report.primary === report.firstTurn) p.attacker++;
      else p.defender++;
      primaries.set(fold(name), p);
    }
    const catalogue = await stats.post('/api/scenario', {
      kinds: ['map', 'deployment', 'primary'],
    });
    const got = (json: Json, kind: string) =>
      new Map<string, Json>(
        json.data.scenarios
          .filter((s: Json) => s.kind === kind)
          .map((s: Json) => [fold(s.name), s]),
      );
    for (const kind of ['map', 'deployment', 'primary'] as const) {
      const rows = got(catalogue.json, kind);
      assert.deepEqual(
        new Map([...rows].map(([k, v]) => [k, v.games])),
        counts[kind],
        `games per ${kind}`,
      );
      assert.ok(counts[kind].size > 0);
    }
    const scenarioStats = await stats.post('/api/scenario-stats', { kinds: ['primary'] });
    const rows = got(scenarioStats.json, 'primary');
    for (const [name, p] of primaries)
      assert.deepEqual(rows.get(name)!.primary, p, `primary ${name}`);
  });

  it('gives magic-item pick counts, lists and shares over lists as played', async (t) => {
    if (DATA === null) return t.skip('../shared/data/t9a is absent: real-data check skipped');
    let lists = 0;
    const items = new Map<string, { picks: number; lists: number }>();
    for (const { report } of raw.games) {
      for (const list of [report.armyListOne, report.armyListTwo]) {
        if (list === null || typeof list !== 'object' || !Array.isArray(list.units)) continue;
        lists++;
        const seen = new Set<string>();
        for (const unit of list.units as Json[]) {
          for (const option of (unit.options ?? []) as Json[]) {
            if (option.type !== 'Magic Items') continue;
            const key = fold(option.name);
            const e = items.get(key) ?? { picks: 0, lists: 0 };
            e.picks++;
            if (!seen.has(key)) {
              e.lists++;
              seen.add(key);
            }
            items.set(key, e);
          }
        }
      }
    }
    const { status, json } = await stats.post('/api/item-use-stats', {
      categories: ['Magic Items'],
      pageSize: 200,
    });
    assert.equal(status, 200);
    const data = json.data as Json;
    assert.equal(data.lists, lists, 'lists in scope');
    assert.equal(data.total, items.size, 'distinct magic items');
    assert.ok(data.items.length > 50);
    for (const item of data.items as Json[]) {
      const e = items.get(fold(item.item.name))!;
      assert.equal(item.picks, e.picks, `${item.item.name} picks`);
      assert.equal(item.lists, e.lists, `${item.item.name} lists`);
      assert.ok(Math.abs(item.share - e.lists / lists) < 1e-12, `${item.item.name} share`);
    }
  });
});
