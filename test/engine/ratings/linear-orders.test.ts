import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventGroups } from '../../../src/engine/ratings/event-groups.ts';
import { eventStartRanks } from '../../../src/engine/ratings/event-start-ranks.ts';
import { processingOrder } from '../../../src/engine/ratings/processing-order.ts';
import { ratedOrder } from '../../../src/engine/ratings/rankings.ts';
import type { RankingFacts } from '../../../src/engine/ratings/rankings.ts';
import { stableSortByKey } from '../../../src/engine/ratings/stable-sort-by-key.ts';
import { ev } from './facts-fixture.ts';

/** A small deterministic generator (mulberry32), so that failures replay. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** The comparison sort processing order was before it went linear: the reference. */
function comparatorOrder(facts: RankingFacts, games: ArrayLike<number>): Int32Array {
  const order = Int32Array.from(games);
  const { events, gameEvent, gameRound } = facts;
  order.sort((x, y) => {
    const sx = events[gameEvent[x]].start;
    const sy = events[gameEvent[y]].start;
    if (sx !== sy) return sx < sy ? -1 : 1;
    const rx = gameRound[x] < 0 ? Number.MAX_SAFE_INTEGER : gameRound[x];
    const ry = gameRound[y] < 0 ? Number.MAX_SAFE_INTEGER : gameRound[y];
    return rx - ry || x - y;
  });
  return order;
}

const STARTS = ['2023-12-31', '2024-01-01', '2024-01-06', '2024-02-29', '2025-01-01'];

/** Random facts: several events per start, unknown and zero rounds, unknown players. */
function randomFacts(random: (n: number) => number, bigRounds = false): RankingFacts {
  const events = Array.from({ length: 1 + random(8) }, (_, e) => ev(`e${e}`, STARTS[random(5)]));
  const games = random(200);
  const round = (): number => {
    if (random(5) === 0) return -1 - random(3);
    return bigRounds && random(4) === 0 ? 1_000_000 + random(3) : random(6);
  };
  return {
    players: 6,
    events,
    games,
    gameEvent: Array.from({ length: games }, () => random(events.length)),
    gameRound: Array.from({ length: games }, round),
    player: Array.from({ length: 2 * games }, () => random(7) - 1),
    faction: Array.from({ length: 2 * games }, () => random(4) - 1),
    result: Array.from({ length: 2 * games }, () => random(3)),
    score: Array.from({ length: 2 * games }, () => Number.NaN),
    placements: [],
    factionIds: ['a', 'b', 'c'],
  };
}

describe('linear-time orders', () => {
  it('gives the processing order of the comparison sort, ties and unknown rounds included', () => {
    const random = generator(7);
    for (let run = 0; run < 300; run += 1) {
      const facts = randomFacts(random, run % 3 === 0);
      const all = Array.from({ length: facts.games }, (_, g) => g);
      // In index order, reversed, and a shuffled subset with repeats.
      const subsets = [all, [...all].reverse(), all.filter(() => random(3) > 0)];
      subsets[2].push(...subsets[2].slice(0, 3));
      subsets[2].sort(() => random(3) - 1);
      for (const games of subsets) {
        assert.deepEqual(processingOrder(facts, games), comparatorOrder(facts, games));
      }
    }
  });

  it('keeps the rated games of the comparison order: known, different players and factions', () => {
    const random = generator(11);
    for (let run = 0; run < 100; run += 1) {
      const facts = randomFacts(random);
      const factions = run % 2 === 0 ? null : new Set([random(3), -1]);
      const inScope = (f: number): boolean => factions === null || factions.has(f);
      const expected = comparatorOrder(
        facts,
        Array.from({ length: facts.games }, (_, g) => g).filter((g) => {
          const [a, b] = [facts.player[2 * g], facts.player[2 * g + 1]];
          const sides = inScope(facts.faction[2 * g]) || inScope(facts.faction[2 * g + 1]);
          return a >= 0 && b >= 0 && a !== b && sides;
        }),
      );
      assert.deepEqual(ratedOrder(facts, factions), expected);
    }
  });

  it('sorts by key stably whether it counts or compares', () => {
    const random = generator(3);
    const ranges = [
      () => random(5),
      () => random(10) - 5,
      () => random(3) * 1_000_000, // too wide to count
      () => random(4) / 2, // not integers
    ];
    for (const key of ranges) {
      for (let run = 0; run < 50; run += 1) {
        const n = random(300);
        const values = Int32Array.from({ length: n }, () => random(1000));
        const keys = Float64Array.from({ length: n }, key);
        const positions = Array.from({ length: n }, (_, i) => i);
        positions.sort((x, y) => keys[x] - keys[y] || x - y);
        const expected = Int32Array.from(positions, (i) => values[i]);
        assert.deepEqual(stableSortByKey(values, keys), expected);
      }
    }
  });

  it('ranks event starts as the strings compare', () => {
    const facts = randomFacts(generator(5));
    const { rank, starts } = eventStartRanks(facts);
    facts.events.forEach((x, i) => {
      assert.equal(starts[rank[i]], x.start);
      facts.events.forEach((y, j) => {
        assert.equal(
          Math.sign(rank[i] - rank[j]),
          x.start < y.start ? -1 : x.start > y.start ? 1 : 0,
        );
      });
    });
  });

  it('groups games by event in the order given, events in the order of their first game', () => {
    const facts = randomFacts(generator(9));
    const order = processingOrder(
      facts,
      Array.from({ length: facts.games }, (_, g) => g),
    );
    const groups = eventGroups(facts, order);
    const firstSeen = [...new Set(Array.from(order, (g) => facts.gameEvent[g]))];
    assert.deepEqual([...groups.events], firstSeen);
    for (const e of firstSeen) {
      const games = groups.games.subarray(groups.start[e], groups.start[e + 1]);
      assert.deepEqual(
        [...games],
        [...order].filter((g) => facts.gameEvent[g] === e),
      );
    }
  });
});
