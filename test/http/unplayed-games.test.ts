/**
 * Rounds in progress (docs/data-model.md#unplayed-games): a game paired but not played counts in
 * no statistic, appears in its event's round, makes the event running, and a later import of
 * the same game with its result completes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CanonicalDocument, Event, Game } from '../../src/domain/model.ts';
import { importCanonical } from '../../src/ingest/import-canonical.ts';
import { post } from '../support/post-json.ts';
import { buildTestApp, demoSlice } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

const unplayed = (g: Game): Game => ({
  ...g,
  sides: [
    { player: g.sides[0].player, faction: g.sides[0].faction },
    { player: g.sides[1].player, faction: g.sides[1].faction },
  ],
});

/** The demo slice with its last completed event's last round changed by `last`. */
function withLastRound(change: (games: Game[]) => Game[]): {
  doc: CanonicalDocument;
  event: Event;
  round: number;
} {
  const slice = demoSlice();
  const events = slice.events ?? [];
  const i = events.findLastIndex((e) => e.status === 'completed' && (e.games?.length ?? 0) > 0);
  const event = events[i];
  const round = Math.max(...(event.games ?? []).map((g) => g.round ?? 0));
  const games = event.games ?? [];
  const changed = {
    ...event,
    games: [
      ...games.filter((g) => g.round !== round),
      ...change(games.filter((g) => g.round === round)),
    ],
  };
  return { doc: { ...slice, events: events.with(i, changed) }, event: changed, round };
}

/** The figures read off places, which a running event has none of yet. */
const PLACE_FIGURES = [
  'eventWins',
  'derivedEventWins',
  'topShare',
  'overRepresentation',
  'winners',
  'placements',
  'placementRule',
  'placementsWithheld',
];

const STATS: Array<[string, Record<string, unknown>]> = [
  ['/api/faction-stats', {}],
  ['/api/rankings', { method: 'elo', includeProvisional: true, pageSize: 200 }],
  ['/api/events', { pageSize: 200 }],
  ['/api/scenario-stats', {}],
];

describe(`unplayed games (${TEST_BACKEND})`, () => {
  const paired = withLastRound((games) => games.map(unplayed));
  const dropped = withLastRound(() => []);
  let t: TestApp;
  let without: TestApp;
  before(async () => {
    // A loaded machine must not turn the comparison into a timeout.
    const env = { MUSTER_REQUEST_TIMEOUT_MS: '120000' };
    t = await buildTestApp({ seed: paired.doc, env });
    without = await buildTestApp({ seed: dropped.doc, env });
  });
  after(async () => {
    await t.close();
    await without.close();
  });

  it('counts an unplayed game in no statistic: every answer is that of the data without it', async () => {
    for (const [url, body] of STATS) {
      const a = await post(t, url, body);
      const b = await post(without, url, body);
      assert.equal(a.status, 200, url);
      // Apart from whether the event runs, who went through it unbeaten, and its places: while a
      // round is still to play nobody has gone through it and it has no places yet
      // (docs/statistics.md#running-events), where the data without the round holds a finished
      // event. Its places' absence is tested in test/http/running-events.test.ts.
      const differ = new Set(['running', 'undefeated', 'undefeatedShare', ...PLACE_FIGURES]);
      const strip = (data: unknown) =>
        JSON.parse(JSON.stringify(data), (k, v: unknown) => (differ.has(k) ? undefined : v));
      assert.deepEqual(strip(a.json.data), strip(b.json.data), url);
      assert.deepEqual(a.json.meta.sample, b.json.meta.sample, url);
    }
  });

  it("lists the unplayed games in their event's round, without results, and says it is running", async () => {
    const { status, json } = await post(t, '/api/events', { event: paired.event.id });
    assert.equal(status, 200);
    const page = json.data.event;
    assert.equal(page.event.running, true);
    const round = page.rounds.find((r: { round: number }) => r.round === paired.round);
    const expected = (paired.event.games ?? []).filter((g) => g.round === paired.round);
    assert.equal(round.games.length, expected.length);
    for (const game of round.games) {
      assert.equal(game.played, false);
      for (const side of game.sides) {
        assert.equal(side.result, null);
        assert.equal(side.score, null);
      }
    }
    const players = round.games.flatMap((g: { sides: { player: { id: string } }[] }) =>
      g.sides.map((s) => s.player.id),
    );
    assert.deepEqual(players.sort(), expected.flatMap((g) => g.sides.map((s) => s.player)).sort());
    const list = (await post(t, '/api/events', { pageSize: 200 })).json.data.events;
    const running = list
      .filter((e: { running: boolean }) => e.running)
      .map((e: { id: string }) => e.id);
    assert.deepEqual(running, [paired.event.id]);
  });

  it('completes the games when they are imported again with their results', async () => {
    const full = withLastRound((games) => games);
    const report = await importCanonical(t.store, full.doc, { source: 'results' });
    assert.deepEqual(report.rejects, []);
    const expected = (full.event.games ?? []).filter((g) => g.round === full.round).length;
    assert.equal(report.counts.games.updated, expected);
    assert.equal(report.counts.games.imported, 0);
    await t.snapshots.refresh();
    const complete = await buildTestApp({
      seed: full.doc,
      env: { MUSTER_REQUEST_TIMEOUT_MS: '120000' },
    });
    try {
      for (const [url, body] of STATS) {
        const a = await post(t, url, body);
        const b = await post(complete, url, body);
        assert.deepEqual(a.json.data, b.json.data, url);
      }
    } finally {
      await complete.close();
    }
    const page = (await post(t, '/api/events', { event: full.event.id })).json.data.event;
    assert.equal(page.event.running, false);
    for (const r of page.rounds) for (const g of r.games) assert.equal(g.played, true);
  });
});
