/**
 * compareTo and shrunkWinRate on the hand fixture (test/snapshot/hand-fixture.ts): E1 (January) against E2
 * (February), every figure worked out by hand, the difference interval from Newcombe's
 * published formula written out here apart from the engine.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_BACKEND } from '../support/test-store.ts';
import { HAND_DOCUMENT } from '../snapshot/hand-fixture.ts';
import { statsAppOver } from '../snapshot/stats-app.ts';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const Z = 1.959963984540054;
function wilsonLimits(x: number, n: number): [number, number] {
  const p = x / n;
  const mid = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z / (1 + (Z * Z) / n)) * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  return [mid - half, mid + half];
}
/** Newcombe (1998) method 10 for x1/n1 − x2/n2. */
function newcombe10(x1: number, n1: number, x2: number, n2: number): [number, number] {
  const [l1, u1] = wilsonLimits(x1, n1);
  const [l2, u2] = wilsonLimits(x2, n2);
  const d = x1 / n1 - x2 / n2;
  return [d - Math.hypot(x1 / n1 - l1, u2 - x2 / n2), d + Math.hypot(u1 - x1 / n1, x2 / n2 - l2)];
}
const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

const JANUARY = { to: '2025-01-31' };
const FEBRUARY = { from: '2025-02-01' };

describe(`compareTo by hand (${TEST_BACKEND})`, () => {
  const stats = statsAppOver(HAND_DOCUMENT);

  it('gives each faction its February figures, the difference and its Newcombe interval', async () => {
    const { status, json } = await stats.post('/api/faction-stats', {
      ...JANUARY,
      compareTo: FEBRUARY,
    });
    assert.equal(status, 200);
    const byId = new Map<string, Row>(
      (json.data as Row).factions.map((f: Row) => [f.faction.id, f]),
    );
    // A: January win + draw (1.5 of 2), February one loss (0 of 1).
    const a = byId.get('A')!.compare;
    assert.deepEqual([a.games, a.wins, a.draws, a.losses, a.winRate], [1, 0, 0, 1, 0]);
    close(a.difference, 0.75, 'A difference');
    const [lowA, highA] = newcombe10(1.5, 2, 0, 1);
    close(a.differenceInterval.low, lowA, 'A low');
    close(a.differenceInterval.high, highA, 'A high');
    assert.equal(a.excludesZero, lowA > 0 || highA < 0);
    // B: January loss, draw, win (1.5 of 3), February one win.
    const b = byId.get('B')!.compare;
    close(b.difference, 0.5 - 1, 'B difference');
    const [lowB, highB] = newcombe10(1.5, 3, 1, 1);
    close(b.differenceInterval.low, lowB, 'B low');
    close(b.differenceInterval.high, highB, 'B high');
    // C played only in January: no February games, no difference.
    const c = byId.get('C')!.compare;
    assert.deepEqual(
      [c.games, c.winRate, c.difference, c.differenceInterval, c.excludesZero],
      [0, null, null, null, null],
    );
    const meta = json.meta as Row;
    assert.deepEqual(meta.compareSample, { events: 1, games: 1 });
    assert.equal(meta.filter.compareTo.from, '2025-02-01');
    assert.equal(meta.filter.compareTo.system, undefined);
  });

  it('compares matchup cells and item rows the same way', async () => {
    const matchup = await stats.post('/api/army-matchup', { ...JANUARY, compareTo: FEBRUARY });
    assert.equal(matchup.status, 200);
    const cells = (matchup.json.data as Row).cells as Row[];
    const ab = cells.find((c) => c.faction === 'A' && c.opponent === 'B')!;
    assert.equal(ab.compare.games, 1);
    close(ab.compare.difference, 0.75, 'A v B difference');
    const aa = cells.find((c) => c.faction === 'A' && c.opponent === 'A')!;
    assert.equal(aa.compare.games, 0);
    assert.equal(aa.compare.difference, null);

    const items = await stats.post('/api/item-use-stats', { compareTo: FEBRUARY });
    assert.equal(items.status, 200);
    for (const row of (items.json.data as Row).items as Row[]) {
      assert.equal(typeof row.compare.games, 'number');
      if (row.winRate !== null && row.compare.winRate !== null) {
        close(row.compare.difference, row.winRate - row.compare.winRate, row.item.name);
      }
    }
  });

  it('leaves compare out without compareTo and points errors into compareTo', async () => {
    const plain = await stats.post('/api/faction-stats', {});
    assert.equal(((plain.json.data as Row).factions[0] as Row).compare, undefined);
    assert.equal((plain.json.meta as Row).filter.compareTo, null);
    const bad = await stats.post('/api/faction-stats', {
      compareTo: { from: '2025-03-01', to: '2025-02-01' },
    });
    assert.equal(bad.status, 400);
    assert.equal((bad.json.errors as Row[])[0].pointer, '/compareTo/from');
    const system = await stats.post('/api/faction-stats', { compareTo: { system: 'tt' } });
    assert.equal(system.status, 400);
  });
  it('shrinks scenario faction rows toward the faction over the same kind, by meta.shrinkage', async () => {
    const { status, json } = await stats.post('/api/scenario-stats', {});
    assert.equal(status, 200);
    const strength = (json.meta as Row).shrinkage.priorStrength as number | null;
    const sums = new Map<string, [number, number]>();
    const rows = (json.data as Row).scenarios as Row[];
    for (const row of rows) {
      for (const f of row.factions as Row[]) {
        const key = `${row.kind}/${f.faction.id}`;
        const [p, n] = sums.get(key) ?? [0, 0];
        sums.set(key, [p + f.winRate * f.games, n + f.games]);
      }
    }
    let checked = 0;
    for (const row of rows) {
      for (const f of row.factions as Row[]) {
        if (f.games === 0) continue;
        const [p, n] = sums.get(`${row.kind}/${f.faction.id}`)!;
        const expected =
          strength === null
            ? f.winRate
            : (f.winRate * f.games + (strength * p) / n) / (f.games + strength);
        close(f.shrunkWinRate, expected, `${row.name} ${f.faction.id}`);
        checked++;
      }
    }
    assert.ok(checked > 0);
  });

  it('answers a mirror matchup cell with shrunkWinRate 0.5 and reports the prior in meta', async () => {
    const { json } = await stats.post('/api/army-matchup', {});
    const cells = (json.data as Row).cells as Row[];
    assert.equal(cells.find((c) => c.faction === 'A' && c.opponent === 'A')!.shrunkWinRate, 0.5);
    const shrinkage = (json.meta as Row).shrinkage;
    assert.equal(typeof shrinkage.cells, 'number');
    for (const c of cells) assert.ok(c.shrunkWinRate >= 0 && c.shrunkWinRate <= 1);
  });
  it("gives an item's delta its Newcombe interval and a skill-adjusted delta from pre-game ratings", async () => {
    const feb = await stats.post('/api/faction-stats', FEBRUARY);
    // g5 (February) is A (p1) against B (p2): B's expectation there is its February skill.
    const expectedB = ((feb.json.data as Row).factions as Row[]).find((f) => f.faction.id === 'B')!
      .skill.expectedWinRate as number;
    const { json } = await stats.post('/api/item-use-stats', { sort: 'name' });
    const sword = ((json.data as Row).items as Row[]).find((i) => i.item.name === 'Sword')!;
    // With: g1 win (January, everyone unrated at 1500: expected 0.5), g5 loss (expected
    // 1 − expectedB); without: g2's drawn empty list (expected 0.5, actual 0.5).
    const [low, high] = newcombe10(1, 2, 0.5, 1);
    close(sword.deltaInterval.low, low, 'Sword delta low');
    close(sword.deltaInterval.high, high, 'Sword delta high');
    close(sword.skillAdjustedDelta, (1 - 0.5 + 0 - (1 - expectedB)) / 2 - 0, 'Sword skill');
    // Its interval: both halves score 0.5 on average (with: 1 and 0; without: ½), so each
    // variance bound is 0.5 · 0.5, over 2 and 1 rated sides.
    const half = Z * Math.sqrt(0.25 / 2 + 0.25 / 1);
    close(sword.skillAdjustedInterval.low, sword.skillAdjustedDelta - half, 'Sword skill low');
    close(sword.skillAdjustedInterval.high, sword.skillAdjustedDelta + half, 'Sword skill high');
    const z = ((json.data as Row).items as Row[]).find((i) => i.item.name === 'Unit Z')!;
    assert.deepEqual(
      [z.deltaInterval, z.skillAdjustedDelta, z.skillAdjustedInterval],
      [null, null, null],
    );
  });
  it('answers interval "event-clustered" on the four rate routes: one event gives [0, 1]', async () => {
    const body = { interval: 'event-clustered' };
    const factions = await stats.post('/api/faction-stats', body);
    assert.equal(factions.status, 200);
    const c = ((factions.json.data as Row).factions as Row[]).find((f) => f.faction.id === 'C')!;
    // C played once, in E1: Wilson gives [0, 0.79]; one event says nothing of the spread.
    assert.deepEqual(c.winRateInterval, { low: 0, high: 1 });
    for (const path of ['/api/army-matchup', '/api/item-use-stats', '/api/scenario-stats']) {
      const { status, json } = await stats.post(path, body);
      assert.equal(status, 200, path);
      assert.equal((json.meta as Row).filter.interval, 'event-clustered');
    }
    const scenarios = await stats.post('/api/scenario-stats', body);
    for (const row of (scenarios.json.data as Row).scenarios as Row[]) {
      for (const f of row.factions as Row[]) {
        if (f.games > 0)
          assert.ok(f.winRateInterval.low <= f.winRate && f.winRate <= f.winRateInterval.high);
      }
    }
    const bad = await stats.post('/api/faction-stats', { interval: 'bootstrap' });
    assert.equal(bad.status, 400);
  });
  it('counts who ran the table per games played, beside the coin-flip shares', async () => {
    const { json } = await stats.post('/api/faction-stats', {});
    const byId = new Map<string, Row>(
      ((json.data as Row).factions as Row[]).map((f) => [f.faction.id, f]),
    );
    const line = (games: number, entries: number, undefeated: number, oneLoss: number) => ({
      games,
      entries,
      undefeated,
      undefeatedShare: undefeated / entries,
      coinFlipUndefeated: 0.5 ** games,
      atMostOneLoss: oneLoss,
      atMostOneLossShare: oneLoss / entries,
      coinFlipAtMostOneLoss: (games + 1) * 0.5 ** games,
    });
    // A: E1 p1 (2-0), E1 p3 (draw, loss), E2 p1 (one loss).
    assert.deepEqual(byId.get('A')!.runTheTable, [line(1, 1, 0, 1), line(2, 2, 1, 2)]);
    // B: E1 p2 (loss, win), E1 p4 (draw, loss; p4 played B first), E2 p2 (win).
    assert.deepEqual(byId.get('B')!.runTheTable, [line(1, 1, 1, 1), line(2, 2, 0, 2)]);
    assert.deepEqual(byId.get('C')!.runTheTable, []);
    const february = await stats.post('/api/faction-stats', FEBRUARY);
    const a = ((february.json.data as Row).factions as Row[]).find((f) => f.faction.id === 'A')!;
    assert.deepEqual(a.runTheTable, [line(1, 1, 0, 1)]);
  });
});
