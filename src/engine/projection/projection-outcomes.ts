/**
 * What the projection draws each simulated game from (docs/event-projection.md#the-games): the
 * joint model's expected score of the pair, from both players' Glicko-2 ratings before the
 * event and their factions in the event's window. Where the system scores on a scale with a
 * total, the game's score is drawn from the scores its games show, tilted until their mean is
 * that expected score (the distribution nearest to the observed one with that mean: Csiszár
 * 1975); the result follows from the score. Without a total, a win, draw or loss is drawn from
 * the draw model's probabilities (draw-model.ts).
 */
import { glicko2Expected } from '../ratings/glicko2.ts';
import { resultProbabilities } from '../strength/draw-model.ts';
import { logit } from '../strength/joint-model.ts';
import { expit, predictJoint } from '../strength/joint-prediction.ts';
import type { ModelAsOf } from './model-as-of.ts';
import type { GameOutcomes } from './swiss-simulation.ts';

/** Each player of the simulated event as the model sees them before it. */
export interface ProjectedPlayers {
  readonly rating: Float64Array;
  readonly rd: Float64Array;
  /** Index into the system's factions, -1 unknown. */
  readonly faction: Int32Array;
  readonly window: number;
}

/**
 * The scores 0 .. total with probabilities `shares` tilted by exp(λ·s) until their mean is
 * `mean`, as a cumulative distribution (Newton on λ: the mean's derivative is the variance).
 */
export function tiltedScores(shares: Float64Array, mean: number): Float64Array {
  const bins = shares.length;
  const mid = (bins - 1) / 2;
  const w = new Float64Array(bins);
  let lambda = 0;
  for (let step = 0; step < 60; step++) {
    let z = 0;
    let m = 0;
    let m2 = 0;
    for (let s = 0; s < bins; s++) {
      w[s] = shares[s] * Math.exp(lambda * (s - mid));
      z += w[s];
      m += s * w[s];
      m2 += s * s * w[s];
    }
    m /= z;
    const variance = m2 / z - m * m;
    if (Math.abs(m - mean) < 1e-7 || variance < 1e-12) break;
    lambda = Math.max(-60, Math.min(60, lambda + (mean - m) / variance));
  }
  const cdf = new Float64Array(bins);
  let z = 0;
  for (let s = 0; s < bins; s++) z += w[s];
  let acc = 0;
  for (let s = 0; s < bins; s++) cdf[s] = acc += w[s] / z;
  cdf[bins - 1] = 1;
  return cdf;
}

/** The games of `players` under `asOf`, each pair's distribution made on first use and kept. */
export function projectionOutcomes(asOf: ModelAsOf, players: ProjectedPlayers): GameOutcomes {
  const n = players.rating.length;
  const { model, draws, scores } = asOf;
  const total = scores === null ? null : scores.length - 1;
  const bins = scores === null ? 3 : scores.length;
  const made = new Uint8Array(n * n);
  const table = new Float64Array(n * n * bins);
  const make = (i: number, j: number): Float64Array => {
    const x = logit(glicko2Expected(players.rating[i], players.rating[j], players.rd[j]));
    const { faction, window } = players;
    const eta = predictJoint(model, faction[i], faction[j], window, x, false).eta;
    if (scores !== null) return tiltedScores(scores, expit(eta) * total!);
    const p = resultProbabilities(draws, eta);
    return Float64Array.of(p.loss, p.loss + p.draw, 1);
  };
  return {
    bins,
    total,
    table,
    at(i: number, j: number): number {
      const k = i * n + j;
      if (made[k] === 0) {
        made[k] = 1;
        table.set(make(i, j), k * bins);
      }
      return k * bins;
    },
  };
}
