/**
 * The projection forecasts real winners (docs/event-projection.md#how-well-it-forecasts): on
 * the whole T9A set (../shared; skipped plainly when absent), with rounds derived from the game
 * ids for this evaluation only (bench/projection-brier.ts), after the second-to-last round of
 * each held-out singles event whose derivation is clean, the Brier score of the model's chance
 * of first, summed over the events, is at least 13 % below that of an even split among the
 * players on the most wins. Each event is held out: the model is fitted to the games of
 * earlier events only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dayString } from '../../../src/domain/calendar-day.ts';
import { eventIndex } from '../../../src/engine/events/event-index.ts';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.ts';
import type { Snapshot } from '../../../src/snapshot/snapshot.ts';
import { deriveRounds, HELD_OUT_FROM, projectionBrier } from '../../../bench/projection-brier.ts';
import type { DerivedRounds } from '../../../bench/projection-brier.ts';
import { T9A_SKIP_REASON, sharedT9aStore } from '../../support/t9a-data.ts';
import type { TestStore } from '../../support/test-store.ts';

describe('the projection on held-out T9A events', () => {
  let store: TestStore | null = null;
  let snapshot: Snapshot;
  let derived: DerivedRounds;
  before(async () => {
    store = await sharedT9aStore();
    if (store === null) return;
    snapshot = await loadSnapshot(store);
    derived = deriveRounds(snapshot);
  });
  after(async () => store?.close());

  it('derives rounds from game ids that seat each player at most once a round', (t) => {
    if (store === null) return t.skip(T9A_SKIP_REASON);
    const s = derived.snapshot;
    const { rowStart, rowEnd } = eventIndex(s);
    assert.ok(derived.clean.length >= 100, `only ${derived.clean.length} clean events`);
    for (const e of derived.clean) {
      const rounds = s.events.rounds[e];
      assert.ok(rounds >= 3 && rounds <= 7, `${s.events.ids[e]}: ${rounds} rounds`);
      const seated = new Set<string>();
      for (let r = rowStart[e]; r < rowEnd[e]; r++) {
        const key = `${s.gameRound[r >> 1]}:${s.player[r]}`;
        assert.ok(!seated.has(key), `${s.events.ids[e]}: a player twice in a round`);
        seated.add(key);
      }
    }
    // The source itself still numbers no rounds: the derivation is the evaluation's alone.
    assert.ok(snapshot.gameRound.every((r) => r < 0));
  });

  it('forecasts the winners at least 13 % better than an even split among the most wins', (t) => {
    if (store === null) return t.skip(T9A_SKIP_REASON);
    const events = derived.clean.filter(
      (e) => dayString(snapshot.events.startDay[e]) >= HELD_OUT_FROM,
    );
    assert.ok(events.length >= 100, `only ${events.length} held-out events to score`);
    const sums = projectionBrier(derived.snapshot, events, 2000);
    t.diagnostic(
      `${sums.events} events: Brier model ${sums.model.toFixed(2)}, coin flip ` +
        `${sums.coinFlip.toFixed(2)}, even split ${sums.evenSplit.toFixed(2)}`,
    );
    assert.ok(
      sums.model <= 0.87 * sums.evenSplit,
      `model ${sums.model.toFixed(2)} vs even split ${sums.evenSplit.toFixed(2)}`,
    );
  });
});
