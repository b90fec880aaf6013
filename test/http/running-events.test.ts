/**
 * A running event names no winner and no places yet (docs/statistics.md#running-events): its
 * standings are its order so far, which no winner, player history, event win or best-N points
 * reads as a placing; once its last round is played its places and its winner appear.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { post } from '../support/post-json.ts';
import { lastRound, unplayed } from '../support/round-in-progress.ts';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe(`a running event (${TEST_BACKEND})`, () => {
  const running = lastRound(unplayed);
  const finished = lastRound((g) => g);
  const id = running.event.id;
  // The source's own placings of the finished event: its winners once the round is played.
  const winners = (finished.event.entries ?? [])
    .filter((e) => e.placement === 1)
    .map((e) => e.player)
    .sort();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      seed: running.doc,
      env: { MUSTER_REQUEST_TIMEOUT_MS: '120000' },
    });
  });
  after(async () => {
    await t?.close();
  });

  const listed = async (body: Record<string, unknown> = {}): Promise<Row> => {
    const { status, json } = await post(t, '/api/events', { pageSize: 200, ...body });
    assert.equal(status, 200, JSON.stringify(json));
    return (json.data.events as Row[]).find((e) => e.id === id)!;
  };
  const standings = async (): Promise<Row[]> =>
    (await post(t, '/api/events', { event: id })).json.data.event.standings;
  /** Best-N event points of the players at the event alone, by player id. */
  const points = async (): Promise<Map<string, number>> => {
    const { status, json } = await post(t, '/api/rankings', {
      method: 'points',
      eventIds: [id],
      includeProvisional: true,
      minGames: 0,
      pageSize: 200,
    });
    assert.equal(status, 200, JSON.stringify(json));
    return new Map((json.data.players as Row[]).map((r) => [r.player.id, r.rating]));
  };
  const eventWins = async (): Promise<number> => {
    const { json } = await post(t, '/api/faction-stats', { eventIds: [id] });
    return (json.data.factions as Row[]).reduce((n, f) => n + f.eventWins, 0);
  };

  it('has no winner in the events list, and says why it has no places', async () => {
    assert.ok(winners.length > 0, 'the finished event has a winner to compare with');
    const row = await listed();
    assert.equal(row.running, true);
    assert.deepEqual(row.winners, []);
    assert.equal(row.placements, 'none');
    assert.match(row.placementsWithheld, /^the event is running \(\d+ games paired/);
    assert.equal(await eventWins(), 0);
  });

  it('shows its standings as its rule ranks the games played, with no placement and no top 10 %', async () => {
    const rows = await standings();
    assert.ok(rows.length > 0);
    for (const s of rows) {
      assert.equal(s.placement, null, s.player.id);
      assert.equal(s.top, false, s.player.id);
    }
    // By the demo system's rule over the games played, wins (a draw half) first: not by the
    // places the source publishes for the finished event.
    const points = rows.map((s) => s.wins + s.draws / 2);
    assert.deepEqual(
      points,
      points.toSorted((a, b) => b - a),
      'ranked by wins so far',
    );
    const now = rows.map((s) => s.currentPlace as number);
    assert.equal(now[0], 1);
    assert.deepEqual(
      now,
      now.toSorted((a, b) => a - b),
      'rows come in their order so far',
    );
  });

  it("puts no placing in a player's history and scores no best-N points", async () => {
    const [leader] = await standings();
    const { json } = await post(t, '/api/rankings', { player: leader.player.id });
    const history = (json.data.player.history as Row[]).find((h) => h.event.id === id)!;
    assert.equal(history.placement, null);
    assert.equal(history.placements, 'none');
    for (const best of [json.data.player.bestPlacement, json.data.player.latestPlacement])
      assert.notEqual(best?.event.id, id);
    assert.equal((await listed({ player: leader.player.id })).playerPlacement, null);
    const scored = [...(await points()).values()].filter((r) => r > 0);
    assert.deepEqual(scored, [], 'nobody scores points at a running event');
  });

  it('names its winner and places once its last round is played', async () => {
    const report = await importCanonical(t.store, finished.doc, { source: 'results' });
    assert.deepEqual(report.rejects, []);
    assert.equal(await t.snapshots.refresh(), true);
    const row = await listed();
    assert.equal(row.running, false);
    assert.equal(row.placements, 'published');
    assert.deepEqual(row.winners.map((w: Row) => w.player.id).sort(), winners);
    const rows = await standings();
    for (const s of rows) assert.equal(s.currentPlace, null, s.player.id);
    assert.equal(rows[0].placement, 1);
    assert.ok((await eventWins()) > 0);
    const scores = await points();
    for (const w of winners) assert.ok((scores.get(w) ?? 0) > 0, `${w} scores`);
    const { json } = await post(t, '/api/rankings', { player: winners[0] });
    const history = (json.data.player.history as Row[]).find((h) => h.event.id === id)!;
    assert.equal(history.placement, 1);
  });
});
