/**
 * Each player's record in a system (src/engine/players/player-facts.ts,
 * docs/statistics.md#duplicate-players): opponents, events, start days and factions as sorted
 * lists without repeats, which the duplicate pass merges to see whether two players met.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsValue, playerFacts, sharesValue } from '../../../src/engine/players/player-facts.ts';
import type { PlayerRecord } from '../../../src/engine/players/player-facts.ts';
import type { Snapshot } from '../../../src/snapshot/snapshot.ts';

/**
 * Four players in system 0: games 0 and 1 are 0 v 1 at event 1 (faction 7 v 5, then 7 v 6),
 * game 2 is 2 v 0 at event 0 (faction 4 v 7); player 3 played no game but entered event 2, which
 * starts on the day event 0 starts. Game 3 (2 v 3) is in system 1.
 */
function fixture(): Snapshot {
  return {
    players: ['a', 'b', 'c', 'd'],
    systems: [
      { rowStart: 0, rowEnd: 6 },
      { rowStart: 6, rowEnd: 8 },
    ],
    player: Int32Array.from([0, 1, 0, 1, 2, 0, 2, 3]),
    faction: Int32Array.from([7, 5, 7, 6, 4, 7, 1, 1]),
    gameEvent: Int32Array.from([1, 1, 0, 3]),
    events: {
      system: Int32Array.from([0, 0, 0, 1]),
      startDay: Int32Array.from([100, 90, 100, 50]),
    },
    standings: { count: 2, event: Int32Array.from([2, 3]), player: Int32Array.from([3, 3]) },
  } as unknown as Snapshot;
}

describe("a player's record for the duplicate pass", () => {
  it('lists each opponent, event, day and faction once, sorted, for the one system', () => {
    const facts = playerFacts(fixture(), 0);
    const list = (p: number, of: keyof PlayerRecord) => [...facts.record(p)[of]];
    assert.deepEqual(list(0, 'opponents'), [1, 2]);
    assert.deepEqual(list(0, 'events'), [0, 1]);
    assert.deepEqual(list(0, 'days'), [90, 100]);
    assert.deepEqual(list(0, 'factions'), [7]);
    assert.deepEqual(list(1, 'factions'), [5, 6]);
    assert.deepEqual(list(3, 'events'), [2]);
    assert.deepEqual(list(3, 'opponents'), []);
    assert.deepEqual([...facts.present], [1, 1, 1, 1]);
    assert.deepEqual([facts.sampleEvents, facts.sampleGames], [2, 3]);
  });

  it('finds who met whom and who shared an event or a start day', () => {
    const facts = playerFacts(fixture(), 0);
    const [a, b, c, d] = [0, 1, 2, 3].map((p) => facts.record(p));
    assert.equal(holdsValue(a.opponents, 2), true);
    assert.equal(holdsValue(b.opponents, 2), false);
    assert.equal(sharesValue(b.events, c.events), false);
    assert.equal(sharesValue(a.events, c.events), true);
    assert.equal(sharesValue(c.days, d.days), true);
    assert.equal(sharesValue(b.days, d.days), false);
  });
});
