import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventPoints } from '../../../src/engine/ratings/event-points.ts';
import { eventGroups } from '../../../src/engine/ratings/event-groups.ts';
import { eventStartRanks } from '../../../src/engine/ratings/event-start-ranks.ts';
import { playerTallies } from '../../../src/engine/ratings/player-tallies.ts';
import { DEFAULT_POINTS_OPTIONS } from '../../../src/engine/ratings/points.ts';
import { computeStandings, ratedOrder } from '../../../src/engine/ratings/rankings.ts';
import type { RankingFacts, RankingPlacement } from '../../../src/engine/ratings/rankings.ts';
import { ev, factsOf, game, params } from './facts-fixture.ts';

const all = (): boolean => true;

function talliesOf(facts: RankingFacts) {
  const order = ratedOrder(facts, null);
  return playerTallies(facts, order, eventGroups(facts, order), all);
}

describe('player tallies', () => {
  it('counts an event once per player when same-day events interleave by round', () => {
    // Processing order runs e1 r1, e2 r1, e1 r2, e2 r2: player 0 plays both events.
    const facts = factsOf(
      4,
      [ev('e1', '2024-05-04'), ev('e2', '2024-05-04')],
      [
        game('a', 0, 1, 0, 1, 'a'),
        game('b', 1, 1, 0, 2, 'b'),
        game('c', 0, 2, 0, 3, 'draw'),
        game('d', 1, 2, 0, 1, 'a'),
      ],
    );
    const order = ratedOrder(facts, null);
    assert.deepEqual(
      Array.from(order, (g) => facts.gameEvent[g]),
      [0, 1, 0, 1],
    );
    const tallies = talliesOf(facts);
    assert.deepEqual(
      [0, 1, 2, 3].map((p) => tallies.events[p]),
      [2, 2, 1, 1],
    );
    const zero = computeStandings(facts, params({ method: 'elo' })).find((s) => s.player === 0)!;
    assert.deepEqual(
      [zero.games, zero.wins, zero.draws, zero.losses, zero.events],
      [4, 2, 1, 1, 2],
    );
  });

  it('breaks main-faction ties by the lowest id, then by the faction played first', () => {
    // Player 0: factions 2 and 1 twice each ("b" and "a"): "a" wins the tie. Player 1: factions
    // 3 and 0 twice each, both named "x": 3 was played first.
    const facts = factsOf(
      4,
      [ev('e1', '2024-01-06')],
      [
        game('1', 0, 1, 0, 1, 'a', [null, null], [2, 3]),
        game('2', 0, 2, 0, 1, 'a', [null, null], [1, 0]),
        game('3', 0, 3, 0, 1, 'a', [null, null], [2, 0]),
        game('4', 0, 4, 0, 1, 'a', [null, null], [1, 3]),
        game('5', 0, 5, 2, 3, 'a', [null, null], [-1, 2]),
        game('6', 0, 6, 2, 3, 'a', [null, null], [1, 2]),
      ],
      [],
      ['x', 'a', 'b', 'x'],
    );
    const tallies = talliesOf(facts);
    const main = (p: number): number => tallies.mainFaction(p, facts.factionIds);
    assert.equal(main(0), 1);
    assert.equal(main(1), 3);
    // Unknown faction (-1) sorts as the empty id: it wins a tie against "a".
    assert.equal(main(2), -1);
    assert.equal(main(3), 2);
  });

  it('keeps the rank of the latest event start', () => {
    const facts = factsOf(
      3,
      [ev('e1', '2024-03-01'), ev('e2', '2024-01-01'), ev('e3', '2024-02-01')],
      [game('1', 0, 1, 0, 1, 'a'), game('2', 1, 1, 0, 2, 'a'), game('3', 2, 1, 1, 2, 'a')],
    );
    const tallies = talliesOf(facts);
    const { starts } = eventStartRanks(facts);
    assert.deepEqual(
      [0, 1, 2].map((p) => starts[tallies.lastStart[p]]),
      ['2024-03-01', '2024-03-01', '2024-02-01'],
    );
  });
});

describe('event points from placement columns', () => {
  it('scores the same from the columns as from the placement objects', () => {
    const placements: RankingPlacement[] = [
      { event: 1, player: 1, placement: 1, faction: 0 },
      { event: 1, player: 0, placement: 5, faction: 0 },
      { event: 1, player: 2, placement: 3, faction: 1 },
      { event: 1, player: 0, placement: 4, faction: 0 }, // a later row replaces the earlier one
    ];
    const facts = factsOf(
      4,
      [ev('e0', '2024-01-10', { rounds: 3 }), ev('e1', '2024-02-01', { participants: 10 })],
      [
        game('g1', 0, 1, 0, 1, 'a', [15, 5]),
        game('g2', 0, 1, 2, 3, 'a', [12, 8]),
        game('g3', 0, 2, 0, 2, 'draw', [10, 10]),
        game('g4', 1, 1, 0, 1, 'a', [20, 0]),
      ],
      placements,
      ['x', 'y'],
    );
    // The snapshot's standings keep rows without a player or a placement: they are skipped.
    const rows = [...placements, { event: 1, player: -1, placement: 2, faction: 0 }];
    rows.push({ event: 0, player: 3, placement: 0, faction: 0 });
    const withColumns: RankingFacts = {
      ...facts,
      placementColumns: {
        count: rows.length,
        event: rows.map((p) => p.event),
        player: rows.map((p) => p.player),
        placement: rows.map((p) => p.placement),
        faction: rows.map((p) => p.faction),
      },
    };
    const order = ratedOrder(facts, null);
    for (const factions of [null, new Set([0])]) {
      const fromObjects = eventPoints(facts, order, DEFAULT_POINTS_OPTIONS, factions);
      const fromColumns = eventPoints(withColumns, order, DEFAULT_POINTS_OPTIONS, factions);
      assert.deepEqual(fromColumns, fromObjects);
    }
    // Event 0 (from games): player 0 first of 4, 24 points. Event 1: one round played, so
    // one-day, maximum 20 + 10; player 0 placed 4th by the later row: 30 × 7 / 10 = 21.
    assert.deepEqual(eventPoints(facts, order, DEFAULT_POINTS_OPTIONS, null).scored.get(0), [
      { event: 0, score: 24 },
      { event: 1, score: 21 },
    ]);
  });
});
