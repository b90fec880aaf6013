/**
 * The per-event pre-aggregates (src/engine/cube) must give what a plain scan of the scope's
 * events gives: for every cube and several filters, whole blocks plus single events equal the
 * cube's own scanner run over each kept event, on seeded random data.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newTargets, sumScope } from '../../src/engine/cube/event-cube.ts';
import type { EventCube, EventScanner } from '../../src/engine/cube/event-cube.ts';
import { visitScope } from '../../src/engine/cube/event-order.ts';
import type { EventOrder } from '../../src/engine/cube/event-order.ts';
import { factionCube } from '../../src/engine/cube/faction-cube.ts';
import { itemCube } from '../../src/engine/cube/item-cube.ts';
import { matchupCube } from '../../src/engine/cube/matchup-cube.ts';
import { countPlayers, playerPairs } from '../../src/engine/cube/player-pairs.ts';
import { runTableCube } from '../../src/engine/cube/run-table-cube.ts';
import { scenarioCube } from '../../src/engine/cube/scenario-cube.ts';
import { scenarioStatsCube } from '../../src/engine/cube/scenario-stats-cube.ts';
import { normaliseCommonFilter, resolveScope } from '../../src/engine/filter.ts';
import type { CommonFilterInput } from '../../src/engine/filter.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import { randomDocument } from '../snapshot/random-document.ts';
import { openTestStore, TEST_BACKEND } from '../support/test-store.ts';
import type { TestStore } from '../support/test-store.ts';

const FILTERS: CommonFilterInput[] = [
  { system: 'alpha' },
  { system: 'alpha', from: '2024-06-01', to: '2025-05-31', minParticipants: 10 },
  { system: 'beta', format: 'singles' },
  { system: 'beta', from: '2025-01-01' },
  // Keeps the events with a count (most): nearly-whole blocks are taken and the few without
  // one subtracted.
  { system: 'alpha', maxParticipants: 100_000 },
];

describe(`per-event pre-aggregates equal a plain scan (${TEST_BACKEND})`, () => {
  let store: TestStore;
  let snapshot: Snapshot;

  before(async () => {
    store = await openTestStore();
    await importCanonical(store, randomDocument({ seed: 7, gamesPerSystem: 3000 }));
    snapshot = await loadSnapshot(store);
  });
  after(async () => {
    await store.close();
  });

  const cubes: Array<[string, () => { order: EventOrder; cube: EventCube; scan: EventScanner }]> = [
    ['faction-stats', () => factionCube(snapshot)],
    ['army-matchup', () => matchupCube(snapshot)],
    ['item-use-stats', () => itemCube(snapshot)],
    ['scenario', () => scenarioCube(snapshot)],
    ['scenario-stats', () => scenarioStatsCube(snapshot)],
    ['run-the-table', () => runTableCube(snapshot)],
  ];
  for (const [name, get] of cubes) {
    it(`sums the ${name} cells of blocks and events as a scan of each kept event does`, () => {
      const { order, cube, scan } = get();
      // Enough events for whole blocks of 32 (the smallest block span) to be in play.
      assert.ok(order.count > 64, `${order.count} events`);
      let nonZero = 0;
      for (const input of FILTERS) {
        const scope = resolveScope(snapshot, normaliseCommonFilter(snapshot, input));
        const fast = sumScope(cube, order, scope, scan);
        const plain = newTargets(cube.planes);
        visitScope(
          order,
          scope,
          [],
          () => undefined,
          (k) => scan(k, k + 1, plain),
        );
        for (let p = 0; p < plain.length; p++) {
          for (let i = 0; i < plain[p].length; i++) {
            if (plain[p][i] !== 0) nonZero++;
            assert.ok(
              Math.abs(fast[p][i] - plain[p][i]) <= 1e-9 * Math.max(1, Math.abs(plain[p][i])),
              `${name} ${JSON.stringify(input)} plane ${p} slot ${i}: ${fast[p][i]} != ${plain[p][i]}`,
            );
          }
        }
      }
      assert.ok(nonZero > 0, 'the filters select some data');
    });
  }

  it('takes nearly-whole blocks and subtracts the dropped events when a filter keeps most events', () => {
    const { order } = matchupCube(snapshot);
    const scope = resolveScope(snapshot, normaliseCommonFilter(snapshot, FILTERS[4]));
    let blocks = 0;
    let excluded = 0;
    visitScope(
      order,
      scope,
      [32],
      () => blocks++,
      () => undefined,
      () => excluded++,
    );
    assert.ok(blocks > 0 && excluded > 0, `${blocks} blocks, ${excluded} subtracted events`);
  });

  it('counts distinct players per faction as a plain count over the kept events does', () => {
    const order = factionCube(snapshot).order;
    const { spans } = playerPairs(snapshot);
    assert.deepEqual(spans, [32, 1024], 'both levels fit the memory budget');
    let wholeBlocks = 0;
    for (const input of FILTERS) {
      const scope = resolveScope(snapshot, normaliseCommonFilter(snapshot, input));
      visitScope(
        order,
        scope,
        spans,
        () => wholeBlocks++,
        () => undefined,
      );
      const plain = snapshot.factions.map(() => new Set<number>());
      visitScope(
        order,
        scope,
        [],
        () => undefined,
        (k) => {
          for (let r = order.rowStart[k]; r < order.rowStart[k + 1]; r++) {
            if (snapshot.player[r] >= 0) plain[snapshot.faction[r]].add(snapshot.player[r]);
          }
        },
      );
      assert.deepEqual(
        [...countPlayers(snapshot, scope)],
        plain.map((players) => players.size),
        JSON.stringify(input),
      );
    }
    assert.ok(wholeBlocks > 0, 'some filter keeps whole blocks of events');
  });
});
