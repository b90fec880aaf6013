/**
 * P(win / draw / loss) of the joint model (docs/ratings.md#win-draw-and-loss): on few games the
 * predictor is fitted to the same results it is then scored on, so plain maximum likelihood
 * drove κ to its bound and P(win) to 1; the prior on ln κ keeps the probabilities honest.
 */
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { importSources } from '../../../src/ingest/import-sources.ts';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.ts';
import { fitDrawModel, resultProbabilities } from '../../../src/engine/strength/draw-model.ts';
import { systemModel } from '../../../src/engine/strength/system-model.ts';
import { openTestStore, TEST_BACKEND } from '../../support/test-store.ts';
import type { TestStore } from '../../support/test-store.ts';

/** The predictor of an expected score share of 0.844 (logit 0.844). */
const ETA_0844 = Math.log(0.844 / 0.156);

describe(`win, draw and loss probabilities (${TEST_BACKEND})`, () => {
  const stores: TestStore[] = [];
  after(async () => {
    for (const store of stores) await store.close();
  });

  it('keeps κ off its bound when a few results happen to separate perfectly', () => {
    // Six wins at η = 0.3, six losses at η = −0.3, one draw at 0: the likelihood alone rises
    // for ever with κ, yet thirteen games say little about a 20-0 favourite.
    const eta = [...Array<number>(6).fill(0.3), ...Array<number>(6).fill(-0.3), 0];
    const result = [...Array<number>(6).fill(1), ...Array<number>(6).fill(0), 0.5];
    const model = fitDrawModel(eta, result);
    assert.ok(model.kappa < 4, `κ = ${model.kappa}`);
    const p = resultProbabilities(model, ETA_0844);
    assert.ok(p.win < 0.97, `P(win) at an expected 0.844 = ${p.win}`);
    assert.ok(Math.abs(p.win + p.draw + p.loss - 1) < 1e-12);
  });

  it('gives an expected score share of 0.844 on the T9A slice a P(win) below 0.97', async () => {
    // The slice's 59 games: 33 won, 2 drawn, 24 lost; a 20-0 score share of 0.844 is a 17-3
    // on average, and such games are still lost or drawn now and then.
    const store = await openTestStore();
    stores.push(store);
    const slice = join(resolve(import.meta.dirname, '../../..'), 'test/fixtures/t9a');
    await importSources(store, [slice], { format: 't9a' });
    const snapshot = await loadSnapshot(store);
    const { draws, games } = systemModel(snapshot, 0);
    assert.equal(games.scoreShare, true);
    const p = resultProbabilities(draws, ETA_0844);
    assert.ok(p.win < 0.97, `P(win) = ${p.win} (κ = ${draws.kappa}, c = ${draws.cut})`);
    assert.ok(p.win > 0.5, `P(win) = ${p.win}`);
  });
});
