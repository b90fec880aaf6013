/**
 * The joint model fitted to every modelled game of a system, with its draw model: what a
 * forecast of a future game reads (docs/ratings.md#forecast). Fitted once per snapshot (data
 * version) and system, on first use.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { fitDrawModel } from './draw-model.ts';
import type { DrawModel } from './draw-model.ts';
import { fitJoint, logit } from './joint-model.ts';
import type { JointFit } from './joint-model.ts';
import { predictJoint } from './joint-prediction.ts';
import { strengthData } from './strength-games.ts';
import type { StrengthGames } from './strength-games.ts';

export interface SystemModel {
  readonly games: StrengthGames;
  readonly model: JointFit;
  readonly draws: DrawModel;
  /** The games the model was fitted to and the events they come from (a forecast's sample). */
  readonly sample: { readonly events: number; readonly games: number };
  /** How long the two fits took. */
  readonly milliseconds: number;
}

const models = new WeakMap<Snapshot, Map<number, SystemModel>>();

/** The joint and draw models of a system's games, fitted once per snapshot. */
export function systemModel(snapshot: Snapshot, system: number): SystemModel {
  let bySystem = models.get(snapshot);
  if (bySystem === undefined) models.set(snapshot, (bySystem = new Map()));
  const hit = bySystem.get(system);
  if (hit !== undefined) return hit;
  const started = performance.now();
  const games = strengthData(snapshot).systems[system];
  const model = fitJoint(games);
  const eta = Float64Array.from({ length: games.count }, (_, r) => {
    const x = logit(games.expected[r]);
    return predictJoint(model, games.factionA[r], games.factionB[r], games.window[r], x, false).eta;
  });
  const draws = fitDrawModel(eta, games.result);
  const sample = Object.freeze({ events: new Set(games.event).size, games: games.count });
  const value = { games, model, draws, sample, milliseconds: performance.now() - started };
  bySystem.set(system, value);
  return value;
}
