/**
 * The statistics registry (docs/architecture.md#adding-a-statistics-route): every statistic of
 * src/engine/statistics.ts has its caches in the warm-up and is answered by exactly one
 * statistics route; rankings that share a parameter set share a thread, and so do
 * the joint-model statistics that read one fitted model.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taskAffinity, taskWarmKey } from '../../src/engine/engine-tasks.ts';
import type { CommonFilter } from '../../src/engine/filter.ts';
import { STATISTICS } from '../../src/engine/statistics.ts';
import { WARM_PARTS } from '../../src/engine/warm-engine.ts';
import { STATS_DOWNLOADS, STATS_ROUTES } from '../../src/http/routes/index.ts';

describe('the statistics registry', () => {
  it('answers each statistic on exactly one route or download, and each with a statistic', () => {
    const routes = [...STATS_ROUTES, ...STATS_DOWNLOADS];
    const tasks = routes.map((route) => route.task).sort();
    assert.deepEqual(tasks, STATISTICS.map((s) => s.task).sort());
    const paths = routes.map((route) => route.path);
    assert.equal(new Set(paths).size, paths.length, `a path twice: ${paths.join(', ')}`);
  });

  it("puts each statistic's caches in the part of the warm-up it names", () => {
    for (const { task, caches } of STATISTICS) {
      caches.forEach((steps, part) => {
        for (const step of steps) assert.ok(WARM_PARTS[part].includes(step), `${task} ${part}`);
      });
    }
    assert.equal(WARM_PARTS.length, 2);
  });

  it('sends rankings of one parameter set to one thread, and the other statistics anywhere', () => {
    const common = { system: 'tow', from: null } as unknown as CommonFilter;
    const elo = { method: 'elo', elo: { k: 20 } } as const;
    const key = taskAffinity('leaderboard', [common, { ...elo, page: 1 }]);
    assert.ok(key !== null);
    // Paging, search and the player page reuse the ratings; parameters do not.
    assert.equal(taskAffinity('leaderboard', [common, { ...elo, page: 3, search: 'x' }]), key);
    assert.notEqual(taskAffinity('leaderboard', [common, { ...elo, elo: { k: 32 } }]), key);
    assert.equal(taskWarmKey('leaderboard', [common, { ...elo }]), key);
    assert.equal(taskWarmKey('leaderboard', [common, { ...elo, player: 'p1' }]), `${key}\u0000p1`);
    assert.equal(taskAffinity('eventList', [common, {} as never]), null);
    assert.equal(taskWarmKey('eventList', [common, {} as never]), null);
  });

  it('sends the joint model of one set of games to the thread that fitted it', () => {
    const common = { system: 'tow', from: '2025-01-01' } as unknown as CommonFilter;
    const scope = taskWarmKey('factionStrength', [common]);
    assert.ok(scope !== null);
    assert.equal(taskAffinity('factionStrength', [common]), scope);
    // Army-matchup's skill-adjusted cells read the same model; its plain cells none.
    const matchup = { ...common, factions: ['a'], skillAdjusted: true } as never;
    assert.equal(taskWarmKey('armyMatchup', [matchup]), scope);
    assert.equal(taskAffinity('armyMatchup', [matchup]), scope);
    const plain = { ...common, skillAdjusted: false } as never;
    assert.equal(taskWarmKey('armyMatchup', [plain]), null);
    assert.equal(taskAffinity('armyMatchup', [plain]), null);
    const other = { ...common, from: '2024-01-01' } as unknown as CommonFilter;
    assert.notEqual(taskWarmKey('factionStrength', [other]), scope);
    // A forecast's system model is fitted once per system, then a forecast takes milliseconds.
    const request = { system: 'tow', player1: 'p', faction1: 'a', player2: 'q', faction2: 'b' };
    const system = taskWarmKey('forecast', [request]);
    assert.ok(system !== null);
    assert.equal(taskAffinity('forecast', [{ ...request, player1: 'r' }]), system);
  });
});
