/**
 * forecast (docs/ratings.md#forecast): player 1's expected score against player 2, each with a
 * faction, from the joint model fitted to all of the system's games; with P(win / draw / loss)
 * (draw-model.ts), a 95 % interval, and the forecast's logit split into its skill, faction and
 * matchup parts.
 */
import { DomainError } from '../../domain/domain-error.ts';
import { playerIndexOf } from '../player-index.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveFactions, resolveSystem } from '../filter.ts';
import { Z95 } from '../intervals.ts';
import type { Interval } from '../intervals.ts';
import { GLICKO2_SCALE, glicko2Expected } from '../ratings/glicko2.ts';
import { resultProbabilities } from './draw-model.ts';
import type { ResultProbabilities } from './draw-model.ts';
import { logit } from './joint-model.ts';
import { expit, predictJoint } from './joint-prediction.ts';
import type { ForecastParts } from './joint-prediction.ts';
import { systemModel } from './system-model.ts';

export interface ForecastRequest {
  system?: string;
  player1: string;
  faction1: string;
  player2: string;
  faction2: string;
  /** Accepted and echoed; the model has no scenario term (a warning says so). */
  scenario?: string;
}

export interface ForecastPlayer {
  id: string;
  /** Glicko-2 rating and deviation after every game of the system (1500 / 350 unrated). */
  rating: number;
  rd: number;
}

export interface ForecastData {
  /** Player 1's expected score (score share where the system has score rules). */
  expected1: number;
  interval: Interval;
  /** Player 1's probabilities. */
  probabilities: ResultProbabilities;
  /** On the logit scale; skill + faction + matchup = logit(expected1). */
  parts: ForecastParts;
  player1: ForecastPlayer;
  player2: ForecastPlayer;
  /** The faction-strength window the forecast is for: the system's latest. */
  window: string | null;
  outcome: 'score-share' | 'result';
}

export const SCENARIO_WARNING =
  'the scenario is not part of the model: the forecast is the same for every scenario';

/** A faction of the system by id; one the system does not hold is a 404 (unknown-record). */
function factionOf(snapshot: Snapshot, system: number, id: string, pointer: string): number {
  try {
    return resolveFactions(snapshot, system, [id], pointer)![0];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const detail = `unknown faction "${id}" in system "${snapshot.systems[system].id}"`;
    throw new DomainError('unknown-record', detail, [{ pointer, detail }]);
  }
}

/** The expected score, probabilities and parts of one future game (docs/ratings.md#forecast). */
export function forecast(
  snapshot: Snapshot,
  request: ForecastRequest,
): EngineResult<ForecastData, ForecastRequest> {
  const system = resolveSystem(snapshot, request.system);
  const f1 = factionOf(snapshot, system, request.faction1, '/faction1');
  const f2 = factionOf(snapshot, system, request.faction2, '/faction2');
  const p1 = playerIndexOf(snapshot, request.player1, '/player1');
  const p2 = playerIndexOf(snapshot, request.player2, '/player2');
  const { games, model, draws, sample } = systemModel(snapshot, system);
  const local = snapshot.systems[system].factions;
  const player = (p: number): ForecastPlayer => ({
    id: snapshot.players[p],
    rating: games.finalRating[p],
    rd: games.finalRd[p],
  });
  const a = player(p1);
  const b = player(p2);
  const x = logit(glicko2Expected(a.rating, b.rating, b.rd));
  const window = model.currentWindow;
  const prediction = predictJoint(model, local.indexOf(f1), local.indexOf(f2), window, x);
  // The ratings are estimates too: logit E = g(φ2)(μ1 − μ2), so their deviations add
  // β²·(logit E / (μ1 − μ2))²·(φ1² + φ2²) to the variance (zero when the ratings are equal).
  const beta = model.fit.theta[model.layout.skillColumn];
  const muGap = (a.rating - b.rating) / GLICKO2_SCALE;
  const gB = muGap === 0 ? gOf(b.rd) : x / muGap;
  const ratingVar = (beta * gB) ** 2 * ((a.rd ** 2 + b.rd ** 2) / GLICKO2_SCALE ** 2);
  const sd = Math.sqrt(prediction.variance + ratingVar);
  const eta = prediction.eta;
  const warnings = request.scenario === undefined ? [] : [SCENARIO_WARNING];
  return {
    data: {
      expected1: expit(eta),
      interval: { low: expit(eta - Z95 * sd), high: expit(eta + Z95 * sd) },
      probabilities: resultProbabilities(draws, eta),
      parts: prediction.parts,
      player1: a,
      player2: b,
      window: games.windows[window] ?? null,
      outcome: games.scoreShare ? 'score-share' : 'result',
    },
    filter: request,
    sample,
    warnings,
  };
}

/** Glicko-2's g(φ) on the Glicko scale's deviation (Glickman 2012, step 3). */
export function gOf(rd: number): number {
  const phi = rd / GLICKO2_SCALE;
  return 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
}
