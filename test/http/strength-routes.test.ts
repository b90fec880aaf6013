/**
 * The routes of the joint model (docs/ratings.md#the-joint-model): faction-strength, forecast,
 * forecast-accuracy and its CSV, on the hand fixture (test/snapshot/hand-fixture.ts: A's
 * non-mirror games are p1's win and loss against p2's B and p3's draw with p4's B) and on the
 * demo slice, where the CSV's rows recompute the JSON's Brier score.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { wilson } from '../../src/engine/intervals.ts';
import { TEST_BACKEND } from '../support/test-store.ts';
import { buildTestApp, demoSlice, TEST_ORIGIN } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { HAND_DOCUMENT } from '../snapshot/hand-fixture.ts';
import { statsAppOver } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);

describe(`joint-model routes on the hand fixture (${TEST_BACKEND})`, () => {
  const stats = statsAppOver(HAND_DOCUMENT);

  it("answers a faction's raw win rate, its strength interval and its top player's share", async () => {
    const { status, json } = await stats.post('/api/faction-strength', {});
    assert.equal(status, 200, JSON.stringify(json));
    const byId = new Map<string, Row>(
      (json.data as Row).factions.map((f: Row) => [f.faction.id, f]),
    );
    const a = byId.get('A')!;
    assert.deepEqual([a.games, a.wins, a.draws, a.losses], [3, 1, 1, 1]);
    close(a.winRate, 0.5, 'A winRate');
    assert.deepEqual(a.winRateInterval, wilson(1.5, 3));
    assert.ok(a.strength.low <= a.strength.value && a.strength.value <= a.strength.high);
    close(a.topPlayerShare, 2 / 3, 'p1 plays two of A');
    const warnings = (json.meta as Row).warnings as string[];
    assert.ok(
      warnings.some((w) => w.includes('Alpha') && w.includes('67 %')),
      warnings.join('; '),
    );
  });

  it("reports a faction's score against its pilots' expectation per month only when asked", async () => {
    const plain = await stats.post('/api/faction-strength', {});
    for (const f of (plain.json.data as Row).factions as Row[]) assert.equal(f.monthly, undefined);
    const { status, json } = await stats.post('/api/faction-strength', { monthly: ['a'] });
    assert.equal(status, 200, JSON.stringify(json));
    const rows = (json.data as Row).factions as Row[];
    assert.equal(rows.find((f) => f.faction.id === 'B')!.monthly, undefined);
    const [jan, feb, ...more] = rows.find((f) => f.faction.id === 'A')!.monthly as Row[];
    assert.equal(more.length, 0);
    // January (Event One): g1 15-5 and g2 10-10, the g3 mirror left out; every pilot unrated
    // (1500 ± 350), so each side was expected to score ½. Residuals 0.25 and 0.
    assert.deepEqual([jan.month, jan.games], ['2025-01', 2]);
    close(jan.scored, (0.75 + 0.5) / 2, 'January scored');
    close(jan.expected, 0.5, 'January expected');
    close(jan.overExpected, 0.125, 'January over expected');
    // s² = (0.25² + 0² − 0.25 · 0.125) / 1 = 0.03125; half width t(0.975, 1) · s / √2.
    const half = 12.706204736174694 * Math.sqrt(0.03125 / 2);
    assert.ok(Math.abs(jan.interval.low - (0.125 - half)) < 1e-6, JSON.stringify(jan.interval));
    assert.ok(Math.abs(jan.interval.high - (0.125 + half)) < 1e-6, JSON.stringify(jan.interval));
    // February (Event Two): g5 6-14 for p1 against p2, after p1 won both games of Event One
    // and p2 split his: the rating-only forecast of the backtest's CSV.
    assert.deepEqual([feb.month, feb.games, feb.interval], ['2025-02', 1, null]);
    close(feb.scored, 0.3, 'February scored');
    const csv = await stats.app.inject({ method: 'GET', url: '/api/forecast-accuracy.csv' });
    const g5 = csv.body
      .split('\r\n')
      .map((l) => l.split(','))
      .find((r) => r[1] === 'E2' && r[7] === 'rating')!;
    assert.equal(g5[5], 'A');
    close(feb.expected, Number(g5[8]), 'February expected');
    assert.ok(feb.expected > 0.5, 'p1 rated above p2');
    close(feb.overExpected, 0.3 - feb.expected, 'February over expected');

    const unknown = await stats.post('/api/faction-strength', { monthly: ['A', 'ZZ'] });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.json));
    assert.equal((unknown.json.errors as Row[])[0].pointer, '/monthly/1');
  });

  it('gives army-matchup cells their score after pilot skill only when asked', async () => {
    const plain = await stats.post('/api/army-matchup', {});
    assert.equal(plain.status, 200, JSON.stringify(plain.json));
    for (const cell of (plain.json.data as Row).cells as Row[])
      assert.equal(cell.skillAdjusted, null);
    const asked = await stats.post('/api/army-matchup', { skillAdjusted: true });
    assert.equal(asked.status, 200, JSON.stringify(asked.json));
    assert.equal((asked.json.meta as Row).filter.skillAdjusted, true);
    const cells = new Map<string, Row>(
      ((asked.json.data as Row).cells as Row[]).map((c) => [`${c.faction}>${c.opponent}`, c]),
    );
    const ab = cells.get('A>B')!.skillAdjusted as Row;
    const ba = cells.get('B>A')!.skillAdjusted as Row;
    assert.ok(ab.low <= ab.value && ab.value <= ab.high, JSON.stringify(ab));
    // One model of both sides: A's expected score against B and B's against A make one game.
    close(ab.value + ba.value, 1, 'A>B + B>A');
    const mirror = [...cells.values()].find((c) => c.faction === c.opponent);
    if (mirror !== undefined) close((mirror.skillAdjusted as Row).value, 0.5, 'mirror');
  });

  it('forecasts a game whose parts sum to its logit, and 404s an unknown player or faction', async () => {
    const body = { player1: 'p1', faction1: 'A', player2: 'p2', faction2: 'B' };
    const { status, json } = await stats.post('/api/forecast', body);
    assert.equal(status, 200, JSON.stringify(json));
    const data = json.data as Row;
    const { skill, faction, matchup } = data.parts;
    close(Math.log(data.expected1 / (1 - data.expected1)), skill + faction + matchup, 'logit');
    const { win, draw, loss } = data.probabilities;
    close(win + draw + loss, 1, 'probabilities');
    assert.ok(data.interval.low <= data.expected1 && data.expected1 <= data.interval.high);
    const swapped = await stats.post('/api/forecast', {
      player1: 'p2',
      faction1: 'B',
      player2: 'p1',
      faction2: 'A',
    });
    close((swapped.json.data as Row).parts.faction, -faction, 'swapped faction part');

    const player = await stats.post('/api/forecast', { ...body, player2: 'nobody' });
    assert.equal(player.status, 404);
    assert.equal((player.json.errors as Row[])[0].pointer, '/player2');
    const army = await stats.post('/api/forecast', { ...body, faction1: 'ZZ' });
    assert.equal(army.status, 404);
    assert.equal((army.json.errors as Row[])[0].pointer, '/faction1');
  });

  it('refuses out-of-range and unknown fields with problem details', async () => {
    const bad = [
      ['/api/faction-strength', { minParticipants: -1 }],
      ['/api/faction-strength', { minRounds: 1001 }],
      ['/api/forecast-accuracy', { maxParticipants: 100001 }],
      ['/api/forecast-accuracy', { from: '2025-02-30' }],
      ['/api/forecast', { player1: 'p1', faction1: 'A', player2: 'p2' }],
      ['/api/forecast', { player1: '', faction1: 'A', player2: 'p2', faction2: 'B' }],
    ] as const;
    for (const [path, body] of bad) {
      const { status, json } = await stats.post(path, body);
      assert.equal(status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(json)}`);
      assert.equal(json.status, 400);
      assert.match(String(json.type), /^\/problems\//);
    }
    const csv = await stats.app.inject({
      method: 'GET',
      url: '/api/forecast-accuracy.csv?minParticipants=-3',
    });
    assert.equal(csv.statusCode, 400);
    assert.match(String(csv.headers['content-type']), /^application\/problem\+json/);
  });
});

describe(`forecast accuracy and its CSV on the demo slice (${TEST_BACKEND})`, () => {
  let test: TestApp;
  before(async () => {
    test = await buildTestApp({ seed: 'demo-slice', shared: true });
  });
  after(() => test?.close());

  it("scores four models, and the CSV's rows recompute each model's Brier score", async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/forecast-accuracy',
      headers: { origin: TEST_ORIGIN },
      payload: {},
    });
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    const models = (response.json() as Row).data.models as Row[];
    assert.deepEqual(
      models.map((m) => m.model),
      ['coin', 'faction', 'rating', 'joint'],
    );
    for (const m of models) assert.equal(m.calibration.length, 10);

    const csv = await test.app.inject({ method: 'GET', url: '/api/forecast-accuracy.csv' });
    assert.equal(csv.statusCode, 200, csv.body.slice(0, 300));
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    assert.equal(
      lines[0],
      'gameId,eventId,date,player1,player2,faction1,faction2,model,expected1,outcome1',
    );
    const rows = lines.slice(1).map((l) => l.split(','));
    for (const m of models) {
      const mine = rows.filter((r) => r[7] === m.model);
      assert.equal(mine.length, m.games, m.model);
      const brier = mine.reduce((s, r) => s + (Number(r[8]) - Number(r[9])) ** 2, 0) / mine.length;
      close(brier, m.brier, `${m.model} brier`);
    }
    // Each game has one id, four rows.
    assert.equal(new Set(rows.map((r) => r[0])).size * 4, rows.length);
  });

  it('names each game of the CSV by its own id in the data, with the event holding it', async () => {
    const eventOf = new Map<string, string>();
    for (const event of demoSlice().events ?? []) {
      for (const game of event.games ?? []) eventOf.set(game.id, event.id);
    }
    const csv = await test.app.inject({ method: 'GET', url: '/api/forecast-accuracy.csv' });
    const rows = csv.body
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','));
    assert.ok(rows.length > 0);
    for (const [gameId, eventId] of rows) assert.equal(eventOf.get(gameId), eventId, gameId);
  });

  it('pages the CSV by games: pages from offset read every row once, a short page is the last, a limit past 50,000 is a 400', async () => {
    const get = (query: string) =>
      test.app.inject({ method: 'GET', url: `/api/forecast-accuracy.csv${query}` });
    const rowsOf = (body: string) => body.trimEnd().split('\r\n').slice(1);
    const whole = rowsOf((await get('?limit=50000')).body);
    assert.ok(whole.length >= 8, `${whole.length} rows`);
    const games = whole.length / 4;
    const limit = Math.ceil(games / 3);
    const paged: string[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await get(`?limit=${limit}&offset=${offset}`);
      assert.equal(page.statusCode, 200, page.body.slice(0, 300));
      const rows = rowsOf(page.body);
      assert.ok(rows.length <= 4 * limit);
      paged.push(...rows);
      if (rows.length < 4 * limit) break;
    }
    assert.deepEqual(paged, whole);
    const beyond = await get(`?offset=${games}`);
    assert.deepEqual(rowsOf(beyond.body), []);
    const tooMany = await get('?limit=50001');
    assert.equal(tooMany.statusCode, 400);
    assert.equal((tooMany.json() as Row).errors[0].pointer, '/limit');
  });

  it('answers a HEAD of the CSV with its headers and computes nothing', async () => {
    const engines = test.engineThread;
    const answer = engines.answer.bind(engines);
    let computed = 0;
    engines.answer = ((...args: unknown[]) => {
      computed += 1;
      return (answer as (...a: unknown[]) => unknown)(...args);
    }) as typeof engines.answer;
    try {
      const head = await test.app.inject({
        method: 'HEAD',
        url: '/api/forecast-accuracy.csv?minParticipants=3&limit=7',
      });
      assert.equal(head.statusCode, 200);
      assert.match(String(head.headers['content-type']), /^text\/csv/);
      assert.match(String(head.headers['content-disposition']), /forecast-accuracy\.csv/);
      assert.equal(head.body, '');
      assert.equal(computed, 0);
      const bad = await test.app.inject({
        method: 'HEAD',
        url: '/api/forecast-accuracy.csv?limit=0',
      });
      assert.equal(bad.statusCode, 400);
      const get = await test.app.inject({
        method: 'GET',
        url: '/api/forecast-accuracy.csv?minParticipants=3&limit=7',
      });
      assert.equal(get.statusCode, 200);
      assert.equal(computed, 1);
    } finally {
      engines.answer = answer;
    }
  });
});
