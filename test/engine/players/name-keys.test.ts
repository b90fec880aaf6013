/**
 * How two player names are alike (src/engine/players/name-keys.ts, docs/statistics.md): the
 * evidence a duplicate suggestion quotes for its names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameLikeness, nameWords } from '../../../src/engine/players/name-keys.ts';

const likeness = (a: string, b: string) => nameLikeness(a, b, nameWords(a), nameWords(b));

describe('how two player names are alike', () => {
  it('finds a typing slip of one letter', () => {
    assert.equal(likeness('Jan Kowalski', 'Jan Kowalsky'), 'one-edit');
  });

  it('never takes names that differ in a number for a slip', () => {
    assert.equal(likeness('Player 12', 'Player 13'), null);
    assert.equal(likeness('Player 12', 'Player 123'), null);
  });

  it('finds the same name with other case and accents', () => {
    assert.equal(likeness('José Núñez', 'jose nunez'), 'name-case-accents');
  });
});
