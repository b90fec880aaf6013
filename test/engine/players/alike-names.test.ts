/**
 * Which of a system's players have alike names (src/engine/players/alike-names.ts,
 * docs/statistics.md#duplicate-players): pairs meet through shared blocking keys, and a key that
 * more than MAX_BLOCK players share is no evidence and pairs nobody.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alikePairs, MAX_BLOCK } from '../../../src/engine/players/alike-names.ts';
import { NAME_EVIDENCE } from '../../../src/engine/players/name-keys.ts';
import type { Snapshot } from '../../../src/snapshot/snapshot.ts';

/** Just the columns the name pass reads: every player present in system 0. */
function named(names: string[]) {
  const snapshot = {
    players: names.map((_, i) => `id-${i}`),
    playerNames: names,
  } as unknown as Snapshot;
  return alikePairs(snapshot, 0, new Uint8Array(names.length).fill(1));
}

/** The pairs as "p-q evidence" lines. */
function lines(found: ReturnType<typeof named>): string[] {
  return [...found.likeness].map(
    (l, i) => `${found.pairs[2 * i]}-${found.pairs[2 * i + 1]} ${NAME_EVIDENCE[l]}`,
  );
}

describe('which players have alike names', () => {
  it('pairs a slip, a diminutive and initials, each once, and leaves unlike names alone', () => {
    const found = named([
      'Jan Kowalski',
      'Jan Kowalsky',
      'Robert Lis',
      'Bob Lis',
      'J. Nowak',
      'Jan Nowak',
      'Ewa Zielinska',
    ]);
    assert.deepEqual(lines(found), ['0-1 one-edit', '2-3 diminutive', '4-5 initials']);
  });

  it('pairs everyone of a name that MAX_BLOCK players share', () => {
    const found = named(Array.from({ length: MAX_BLOCK }, () => 'Anna Smith'));
    assert.equal(found.likeness.length, (MAX_BLOCK * (MAX_BLOCK - 1)) / 2);
  });

  it('pairs nobody by a name that more than MAX_BLOCK players share', () => {
    const found = named(Array.from({ length: MAX_BLOCK + 1 }, () => 'Anna Smith'));
    assert.equal(found.likeness.length, 0);
  });
});
