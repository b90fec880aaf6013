/**
 * The joint model of skill, faction and matchup (docs/ratings.md#the-joint-model), on small
 * documents whose answers are worked out by hand: the fitted sign and size of a faction effect,
 * score shares, antisymmetric matchups, skill taken out of a faction's win rate, no leakage of a
 * game's result into its own forecast, and the coin flip's Brier score.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importCanonical } from '../../../src/ingest/import-canonical.ts';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.ts';
import type { Snapshot } from '../../../src/snapshot/snapshot.ts';
import { normaliseCommonFilter } from '../../../src/engine/filter.ts';
import { factionStrength } from '../../../src/engine/strength/faction-strength.ts';
import { forecast } from '../../../src/engine/strength/forecast.ts';
import {
  forecastAccuracy,
  forecastAccuracyRows,
} from '../../../src/engine/strength/forecast-accuracy.ts';
import { skillAdjustedMatchups } from '../../../src/engine/strength/strength-estimates.ts';
import { strengthData } from '../../../src/engine/strength/strength-games.ts';
import type { CanonicalDocument } from '../../../src/domain/model.ts';
import { DEFAULT_POINTS_OPTIONS } from '../../../src/engine/ratings/points.ts';
import { predictionQuality } from '../../../src/engine/ratings/prediction-quality.ts';
import {
  DEFAULT_ELO,
  DEFAULT_GLICKO2,
  ratableGames,
} from '../../../src/engine/ratings/rankings.ts';
import { rankingFacts, systemGames } from '../../../src/engine/ratings/snapshot-facts.ts';
import { openTestStore, TEST_BACKEND } from '../../support/test-store.ts';
import type { TestStore } from '../../support/test-store.ts';
import { strengthDocument, twoFactionEvents, weekStart } from './strength-document.ts';
import type { EventRows, GameRow } from './strength-document.ts';

const stores: TestStore[] = [];

async function snapshotOf(document: CanonicalDocument): Promise<Snapshot> {
  const store = await openTestStore();
  stores.push(store);
  await importCanonical(store, document);
  return loadSnapshot(store);
}

function factionIndex(snapshot: Snapshot, system: string, id: string): number {
  return snapshot.factionIndex.get(`${system}\u0000${id}`)!;
}

/**
 * Strong players s0..s7 beat weak players w0..w7 in 85 % of games whatever the armies; the
 * strong play faction A three games in four, the weak play B three in four.
 */
function skillConfoundedEvents(): EventRows[] {
  return Array.from({ length: 30 }, (_, e) => ({
    start: weekStart(e),
    games: Array.from({ length: 8 }, (_, k): GameRow => {
      const strongArmy = (e + k) % 4 === 0 ? 'B' : 'A';
      const weakArmy = (e + 2 * k + 1) % 4 === 0 ? 'A' : 'B';
      const strongWins = (e * 8 + k) % 20 < 17 ? 1 : 0;
      return [`s${k}`, strongArmy, `w${(k + e) % 8}`, weakArmy, strongWins];
    }),
  }));
}

describe(`joint model of skill, faction and matchup (${TEST_BACKEND})`, () => {
  let twoFactions: Snapshot;

  before(async () => {
    twoFactions = await snapshotOf(strengthDocument(twoFactionEvents(), ['A', 'B']));
  });
  after(async () => {
    for (const store of stores) await store.close();
  });

  it('fits a faction that wins seven games in ten at about 0.7 against the other', () => {
    const filter = normaliseCommonFilter(twoFactions, { system: 'wl' });
    const cell = skillAdjustedMatchups(twoFactions, filter);
    const a = factionIndex(twoFactions, 'wl', 'A');
    const b = factionIndex(twoFactions, 'wl', 'B');
    const ab = cell(a, b)!;
    // 400 games at 0.7, priors of 0.5 on each faction and 0.1 on the pair: the fitted logit
    // is shrunk by 0.51 / (0.51 + 1 / 84), i.e. 0.696.
    assert.ok(ab.value > 0.68 && ab.value < 0.71, `A against B ${ab.value}`);
    assert.ok(ab.low < ab.value && ab.high > ab.value && ab.low > 0.6);
    const rows = factionStrength(twoFactions, filter).data.factions;
    const [rowA, rowB] = ['A', 'B'].map((id) => rows.find((r) => r.faction.id === id)!);
    assert.equal(rowA.winRate, 0.7);
    assert.ok(rowA.strength!.value > 0.55 && rowB.strength!.value < 0.45);
    assert.ok(Math.abs(rowA.strength!.value + rowB.strength!.value - 1) < 1e-9);
  });

  it('keeps matchups antisymmetric: A against B is one minus B against A', async () => {
    const events = twoFactionEvents().map((e) => ({
      ...e,
      games: e.games.map((g, k): GameRow => (k === 9 ? [g[0], 'C', g[2], g[3], g[4]] : g)),
    })) satisfies EventRows[];
    events[0].games.push(['x1', 'C', 'x2', 'A', 1], ['x3', 'B', 'x4', 'C', 0.5]);
    const snapshot = await snapshotOf(strengthDocument(events, ['A', 'B', 'C']));
    const cell = skillAdjustedMatchups(snapshot, normaliseCommonFilter(snapshot, {}));
    const [a, b, c] = ['A', 'B', 'C'].map((id) => factionIndex(snapshot, 'wl', id));
    for (const [x, y] of [
      [a, b],
      [a, c],
      [b, c],
    ]) {
      const xy = cell(x, y)!;
      const yx = cell(y, x)!;
      assert.ok(Math.abs(xy.value + yx.value - 1) < 1e-12);
      assert.ok(Math.abs(xy.low + yx.high - 1) < 1e-12);
    }
    assert.deepEqual(cell(a, a), { value: 0.5, low: 0.5, high: 0.5 });
    const one = forecast(snapshot, { player1: 'x1', faction1: 'C', player2: 'x2', faction2: 'A' });
    const other = forecast(snapshot, {
      player1: 'x2',
      faction1: 'A',
      player2: 'x1',
      faction2: 'C',
    });
    assert.ok(Math.abs(one.data.parts.matchup + other.data.parts.matchup) < 1e-12);
    assert.ok(Math.abs(one.data.parts.faction + other.data.parts.faction) < 1e-12);
  });

  it('forecasts a game whose parts add up to its logit, with probabilities summing to 1', () => {
    const result = forecast(twoFactions, {
      player1: 'e39a0',
      faction1: 'A',
      player2: 'e39b0',
      faction2: 'B',
      scenario: 'Breakthrough',
    });
    const { expected1, interval, probabilities, parts } = result.data;
    const logitE = Math.log(expected1 / (1 - expected1));
    assert.ok(Math.abs(parts.skill + parts.faction + parts.matchup - logitE) < 1e-9);
    assert.ok(parts.faction + parts.matchup > 0, 'A is the stronger army');
    assert.ok(interval.low < expected1 && expected1 < interval.high);
    const sum = probabilities.win + probabilities.draw + probabilities.loss;
    assert.ok(Math.abs(sum - 1) < 1e-12);
    assert.ok(probabilities.win > probabilities.loss);
    assert.equal(result.data.outcome, 'result');
    assert.ok(result.warnings.some((w) => w.startsWith('the scenario is not part of the model')));
    assert.throws(
      () =>
        forecast(twoFactions, {
          player1: 'nobody',
          faction1: 'A',
          player2: 'e39b0',
          faction2: 'B',
        }),
      (error: Error & { kind?: string }) => error.kind === 'unknown-record',
    );
  });

  it('models a 13-7 game as a score share of 0.65', async () => {
    const snapshot = await snapshotOf(
      strengthDocument(
        [{ start: '2025-03-01', games: [['p1', 'A', 'p2', 'B', 13]] }],
        ['A', 'B'],
        true,
      ),
    );
    const games = strengthData(snapshot).systems[0];
    assert.equal(games.count, 1);
    assert.equal(games.outcome[0], 0.65);
    assert.equal(games.result[0], 1);
  });

  it('takes pilot skill out: strong players on one army do not make it strong', async () => {
    const snapshot = await snapshotOf(strengthDocument(skillConfoundedEvents(), ['A', 'B']));
    const result = factionStrength(snapshot, normaliseCommonFilter(snapshot, {}));
    const rowA = result.data.factions.find((r) => r.faction.id === 'A')!;
    assert.ok(rowA.winRate! > 0.6, `raw win rate ${rowA.winRate}`);
    assert.ok(
      Math.abs(rowA.strength!.value - 0.5) < (rowA.winRate! - 0.5) / 2,
      `strength ${rowA.strength!.value} against raw ${rowA.winRate}`,
    );
    assert.ok(rowA.pilotRating! > rowA.fieldRating!);
    assert.ok(result.data.model.skillWeight > 0.5);
  });

  it('scores the rating model as meta.predictionQuality scores Glicko-2', async () => {
    const snapshot = await snapshotOf(strengthDocument(skillConfoundedEvents(), ['A', 'B']));
    const rating = forecastAccuracy(snapshot, normaliseCommonFilter(snapshot, {})).data.models.find(
      (m) => m.model === 'rating',
    )!;
    const facts = rankingFacts(snapshot);
    const quality = predictionQuality(facts, ratableGames(facts, systemGames(snapshot, 0)), {
      method: 'glicko2',
      glicko2: DEFAULT_GLICKO2,
      elo: DEFAULT_ELO,
      points: DEFAULT_POINTS_OPTIONS,
    })!;
    assert.equal(rating.games, quality.games);
    assert.ok(Math.abs(rating.brier! - quality.brier) < 1e-12);
    assert.ok(Math.abs(rating.logLoss! - quality.logLoss) < 1e-12);
    assert.equal(rating.accuracy, quality.accuracy);
  });

  it('warns when one player plays more than a quarter of a faction`s games, the name isolated', async () => {
    const games: GameRow[] = [
      ['solo', 'C', 'q1', 'A', 1],
      ['solo', 'C', 'q2', 'B', 0],
      ['q3', 'C', 'q4', 'A', 1],
      ['q5', 'A', 'q6', 'B', 1],
    ];
    const snapshot = await snapshotOf(
      strengthDocument([{ start: '2025-05-01', games }], ['A', 'B', 'C']),
    );
    const result = factionStrength(snapshot, normaliseCommonFilter(snapshot, {}));
    const rowC = result.data.factions.find((r) => r.faction.id === 'C')!;
    assert.ok(Math.abs(rowC.topPlayerShare! - 2 / 3) < 1e-12);
    // The name is isolated (FSI … PDI) inside the sentence: docs/http-api.md#the-envelope.
    assert.ok(result.warnings.some((w) => w.includes("\u2068Faction C\u2069's games")));
  });

  it('scores a coin flip at Brier 0.25 and log loss ln 2 on decided games', () => {
    const result = forecastAccuracy(twoFactions, normaliseCommonFilter(twoFactions, {}));
    const coin = result.data.models.find((m) => m.model === 'coin')!;
    assert.equal(coin.games, 400);
    assert.equal(coin.brier, 0.25);
    assert.ok(Math.abs(coin.logLoss! - Math.LN2) < 1e-12);
    assert.equal(coin.accuracy, 0.5);
    assert.deepEqual(
      result.data.models.map((m) => m.model),
      ['coin', 'faction', 'rating', 'joint'],
    );
    const joint = result.data.models.find((m) => m.model === 'joint')!;
    assert.ok(joint.brier! < 0.25, `joint Brier ${joint.brier}`);
  });

  it('never lets a game`s own result reach its forecast', async () => {
    const events = twoFactionEvents();
    const changed = structuredClone(events);
    const target = changed[20].games[3];
    target[4] = 1 - target[4];
    const snapshot = await snapshotOf(strengthDocument(changed, ['A', 'B']));
    const before = [...forecastAccuracyRows(twoFactions, normaliseCommonFilter(twoFactions, {}))];
    const afterChange = [...forecastAccuracyRows(snapshot, normaliseCommonFilter(snapshot, {}))];
    assert.equal(before.length, afterChange.length);
    const index = before.findIndex((r) => r.eventId === 'E021' && r.player1 === target[0]);
    assert.ok(index >= 0);
    for (let m = 0; m < 4; m += 1) {
      assert.equal(afterChange[index + m].expected1, before[index + m].expected1);
    }
    assert.notEqual(afterChange[index].outcome1, before[index].outcome1);
    const later = before.findIndex((r) => r.eventId === 'E022' && r.model === 'joint');
    assert.notEqual(afterChange[later].expected1, before[later].expected1);
  });
});
