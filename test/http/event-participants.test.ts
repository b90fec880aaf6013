/**
 * Counts the source does not give are not zeros (docs/statistics.md#events): an event declaring
 * 0 participants, or fewer than the players who played there, answers `participants: null` on
 * its page and on a player's history, and the participants filter treats it as unknown; a
 * count at least the players who played is answered as declared. On every store backend.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument } from '../../src/domain/model.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

/** An event of four players, two games, declaring `participants`. */
function event(id: string, start: string, participants: number | undefined) {
  const side = (player: string, result: 'win' | 'loss') => ({
    player,
    faction: result === 'win' ? 'A' : 'B',
    result,
  });
  return {
    id,
    system: 'tt',
    name: `Event ${id}`,
    start,
    status: 'completed' as const,
    format: 'singles' as const,
    ...(participants === undefined ? {} : { participants }),
    games: [
      { id: `${id}-g1`, sides: [side('p1', 'win'), side('p2', 'loss')] },
      { id: `${id}-g2`, sides: [side('p3', 'win'), side('p4', 'loss')] },
    ],
  };
}

const DOCUMENT = {
  format: 'muster/v1',
  systems: [{ id: 'tt', name: 'Test Tactics' }],
  factions: [
    { id: 'A', system: 'tt', name: 'Alpha' },
    { id: 'B', system: 'tt', name: 'Beta' },
  ],
  players: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }, { id: 'p4' }],
  events: [
    event('zero', '2025-01-10', 0),
    event('fewer', '2025-02-10', 3),
    event('given', '2025-03-10', 16),
    event('none', '2025-04-10', undefined),
  ],
} as unknown as CanonicalDocument;

describe(`participant counts the source did not give (${TEST_BACKEND})`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ seed: DOCUMENT });
  });
  after(() => t.close());

  const page = async (id: string) => {
    const { status, json } = await post(t, '/api/events', { system: 'tt', event: id });
    assert.equal(status, 200, JSON.stringify(json));
    return json.data.event.event as { participants: number | null };
  };

  it('answers null for a declared 0, for fewer than played and for none, and the count otherwise', async () => {
    assert.equal((await page('zero')).participants, null);
    assert.equal((await page('fewer')).participants, null);
    assert.equal((await page('none')).participants, null);
    assert.equal((await page('given')).participants, 16);
  });

  it('gives a player page the same counts, never "of 0"', async () => {
    const { status, json } = await post(t, '/api/rankings', { system: 'tt', player: 'p1' });
    assert.equal(status, 200, JSON.stringify(json));
    const history = json.data.player.history as Array<{
      event: { id: string };
      participants: number | null;
    }>;
    const byEvent = Object.fromEntries(history.map((h) => [h.event.id, h.participants]));
    assert.deepEqual(byEvent, { zero: null, fewer: null, given: 16, none: null });
  });

  it('keeps only events with a real count under a participants filter', async () => {
    const { json } = await post(t, '/api/events', { system: 'tt', minParticipants: 1 });
    assert.deepEqual(
      (json.data.events as Array<{ id: string }>).map((e) => e.id),
      ['given'],
    );
  });

  it('lists each event with the players who played there, whatever it declared', async () => {
    const { json } = await post(t, '/api/events', { system: 'tt' });
    const rows = json.data.events as Array<{
      id: string;
      players: number;
      participants: number | null;
    }>;
    assert.deepEqual(Object.fromEntries(rows.map((e) => [e.id, [e.players, e.participants]])), {
      zero: [4, null],
      fewer: [4, null],
      given: [4, 16],
      none: [4, null],
    });
  });
});
