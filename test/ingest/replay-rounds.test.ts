/**
 * The steps of `muster replay` (docs/operations.md#replaying-an-event): the first round paired
 * with nothing played, then each round's results with the next round's pairings, then the event
 * as the file has it; a game without a round number refuses the file.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Game } from '../../src/domain/model.ts';
import { isUnplayed } from '../../src/domain/unplayed-game.ts';
import {
  pickReplayEvent,
  readReplayDocument,
  ReplayError,
  replaySteps,
} from '../../src/ingest/replay-rounds.ts';
import { replayDocument } from '../support/replay-event-file.ts';

const { doc, event } = replayDocument();
const rounds = Math.max(...event.games!.map((g) => g.round!));

describe('muster replay: the steps of an event', () => {
  it('pairs round 1 first, then plays each round while pairing the next, then finishes', () => {
    const steps = replaySteps(doc, event);
    assert.equal(steps.length, rounds + 1);
    steps.slice(0, -1).forEach((step, i) => {
      const e = step.document.events![0];
      assert.equal(e.status, event.status);
      assert.equal(step.paired, i + 1);
      assert.equal(step.played, i);
      const games = e.games!;
      const played = games.filter((g) => !isUnplayed(g));
      const paired = games.filter(isUnplayed);
      const original = (round: number) => event.games!.filter((g) => g.round === round);
      assert.deepEqual(
        played,
        event.games!.filter((g) => g.round! <= i),
        'the rounds before are as the file has them',
      );
      assert.deepEqual(
        paired.map((g) => [g.id, g.round, g.sides[0].player, g.sides[1].player]),
        original(i + 1).map((g: Game) => [g.id, g.round, g.sides[0].player, g.sides[1].player]),
      );
      assert.ok(
        e.entries!.every((en) => en.placement === undefined),
        'nobody placed yet',
      );
    });
    assert.deepEqual(steps.at(-1)!.document.events, [event]);
    assert.equal(steps.at(-1)!.paired, null);
    assert.deepEqual(steps[0].document.players, doc.players, 'the reference data comes first');
    assert.equal(steps[1].document.players, undefined);
  });

  it('refuses an event whose games have no round numbers, naming one', () => {
    const { doc: bare, event: unnumbered } = replayDocument((e) => ({
      ...e,
      games: e.games!.map((g, i) => (i === 2 ? { ...g, round: null } : g)),
    }));
    assert.throws(
      () => replaySteps(bare, unnumbered),
      (error: Error) =>
        error instanceof ReplayError &&
        /1 of its \d+ games have no round number/.test(error.message),
    );
  });

  it('reads NDJSON as muster export writes it, and asks which event when there are several', () => {
    const { events, ...reference } = doc;
    const text = `${JSON.stringify(reference)}\n\n${JSON.stringify({ format: 'muster/v1', events })}\n`;
    const read = readReplayDocument(text, 'event.ndjson');
    assert.equal(pickReplayEvent(read).id, event.id);
    assert.deepEqual(read.players, doc.players);
    const two = { ...read, events: [...events!, { ...event, id: 'other' }] };
    assert.throws(() => pickReplayEvent(two), /2 events with games; name one with --event ID/);
    assert.equal(pickReplayEvent(two, 'other').id, 'other');
    assert.throws(() => readReplayDocument('{"format":"x"}', 'f.json'), /not a muster\/v1/);
    assert.throws(() => readReplayDocument('{\nnot json', 'f.ndjson'), /line 1 is not JSON/);
  });
});
