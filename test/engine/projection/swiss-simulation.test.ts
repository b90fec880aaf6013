/**
 * The simulation's rounds already paired (docs/event-projection.md#what-is-simulated): the
 * announced tables of the round in progress are played as announced, the rounds after paired
 * Swiss-style, so a table's two players never both win that round, and who meets the leader
 * decides who can still finish first. Keys beyond the counting sort's slots are ranked by
 * comparison; the first round's counting sort, kept across simulations, orders as counting
 * afresh would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OutcomeDraw } from '../../../src/engine/projection/outcome-draw.ts';
import { SeededRandom } from '../../../src/engine/projection/seeded-random.ts';
import { StandingsOrder } from '../../../src/engine/projection/standings-order.ts';
import { SwissRun, simulateSwiss } from '../../../src/engine/projection/swiss-simulation.ts';
import type { GameOutcomes, SwissField } from '../../../src/engine/projection/swiss-simulation.ts';

const WINS = { name: 'wins', rank: ['wins' as const] };

/** Every game a coin flip: a loss or a win, half each, no draws (win, draw, loss outcomes). */
const EVEN: GameOutcomes = {
  bins: 3,
  total: null,
  table: Float64Array.of(0.5, 0.5, 1),
  at: () => 0,
};

/** `wins.length` players with these wins and no games met yet, room for `rounds` more. */
function field(wins: number[], rounds: number, announced: Int32Array[]): SwissField {
  const n = wins.length;
  return {
    n,
    wins: Int32Array.from(wins),
    draws: new Int32Array(n),
    score: new Float64Array(n),
    margin: new Float64Array(n),
    opponents: new Int32Array(n * rounds),
    opponentCount: new Int32Array(n),
    stride: rounds,
    tieOrder: null,
    announced,
  };
}

describe('the projection of an event with its round in progress paired', () => {
  it('never lets both players of an announced table win that round', () => {
    const f = field([0, 0, 0, 0, 0, 0], 1, [Int32Array.of(0, 1, 2, 3)]);
    const run = new SwissRun(f, WINS);
    const draw = new OutcomeDraw(f.n, EVEN);
    const random = new SeededRandom(49);
    let aWon = 0;
    for (let s = 0; s < 2000; s++) {
      run.playOut(1, draw, random);
      assert.equal(run.wins[0] + run.wins[1], 1);
      assert.equal(run.wins[2] + run.wins[3], 1);
      assert.equal(run.wins[4] + run.wins[5], 1);
      aWon += run.wins[0];
    }
    // The table is drawn, not fixed: each side wins about half the time.
    assert.ok(aWon > 900 && aWon < 1100, String(aWon));
  });

  it('plays the announced tables, then pairs the rounds after without rematches', () => {
    const f = field([0, 0, 0, 0], 2, [Int32Array.of(0, 3, 1, 2)]);
    const run = new SwissRun(f, WINS);
    const draw = new OutcomeDraw(f.n, EVEN);
    const random = new SeededRandom(7);
    for (let s = 0; s < 500; s++) {
      run.playOut(2, draw, random);
      const first = [0, 1, 2, 3].map((i) => run.opponents[i * 2]);
      const second = [0, 1, 2, 3].map((i) => run.opponents[i * 2 + 1]);
      assert.deepEqual(first, [3, 2, 1, 0]);
      for (let i = 0; i < 4; i++) assert.notEqual(second[i], first[i]);
    }
  });

  it("gives the leader's announced opponent the better chance of first than an equal who is not", () => {
    // The leader 0 on 2 wins, 1 and 2 on 1, 3 on none; the last round is announced 0–1, 2–3.
    // Player 1 is first (alone or among equals by lot) only by beating the leader: ½ × (½ × ½
    // + ½ × ⅓) = 5/24; player 2 needs the leader to lose as well: ½ × ½ × ⅓ = 1/12; player 3
    // can reach one win, never first.
    const simulations = 40_000;
    const chances = (announced: Int32Array[]) => {
      const tally = simulateSwiss(
        field([2, 1, 1, 0], 1, announced),
        1,
        WINS,
        EVEN,
        simulations,
        new SeededRandom(1),
        8,
      );
      return Array.from(tally.first, (c) => c / simulations);
    };
    const paired = chances([Int32Array.of(0, 1, 2, 3)]);
    assert.ok(Math.abs(paired[1] - 5 / 24) < 0.01, String(paired));
    assert.ok(Math.abs(paired[2] - 1 / 12) < 0.01, String(paired));
    assert.equal(paired[3], 0);
    // Paired afresh, the leader meets either of them: their chances are alike.
    const afresh = chances([]);
    assert.ok(Math.abs(afresh[1] - afresh[2]) < 0.02, String(afresh));
  });
});

describe('the standings order', () => {
  it('ranks keys too large for its counting slots by comparison, best first', () => {
    const order = new StandingsOrder(3, 1);
    order.keys.set([3e9, 3e9 + 2, 3e9 + 1]);
    order.sort(1, new SeededRandom(3));
    assert.deepEqual(Array.from(order.order), [1, 2, 0]);
  });

  it('reads its runs of equals off the keys present, best first, gaps between them skipped', () => {
    const order = new StandingsOrder(6, 1);
    const column = Float64Array.of(3, 0.5, 3, 7, 0.5, 0.5);
    assert.ok(order.sortByColumn(column, 1, new SeededRandom(5)));
    assert.deepEqual(Array.from(order.ends.subarray(0, order.runs)), [1, 3, 6]);
    assert.equal(order.order[0], 3);
    assert.deepEqual([order.order[1], order.order[2]].sort(), [0, 2]);
    assert.deepEqual(Array.from(order.order.subarray(3)).sort(), [1, 4, 5]);
  });

  it('shuffles a kept counting sort into the same order, from the same numbers, as counting again', () => {
    const column = Float64Array.from({ length: 40 }, (_, i) => (i * 7) % 5);
    const kept = new StandingsOrder(40, 1);
    const afresh = new StandingsOrder(40, 1);
    assert.ok(kept.countOnly(column, 1));
    const a = new SeededRandom(11);
    const b = new SeededRandom(11);
    for (let s = 0; s < 5; s++) {
      kept.shuffleKept(a);
      afresh.sortByColumn(column, 1, b);
      assert.deepEqual(Array.from(kept.order), Array.from(afresh.order));
    }
    assert.equal(a.next(), b.next());
  });
});
