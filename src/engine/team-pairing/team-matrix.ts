/**
 * team-matrix (docs/team-pairing.md#the-matrix): every pairing of two teams' players, each with
 * a faction, forecast by one of the models the forecast routes name: the joint model (skill,
 * faction and matchup), rating only (Glicko-2), or faction only (the joint model's faction and
 * matchup parts). A player the data does not know is a player with no games yet: the rating
 * prior (1500, deviation 350), marked as such, and a wider interval.
 */
import { DomainError, invalidField } from '../../domain/domain-error.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveFactions, resolveSystem } from '../filter.ts';
import { Z95 } from '../intervals.ts';
import { DEFAULT_GLICKO2 } from '../ratings/rankings.ts';
import { GLICKO2_SCALE, glicko2Expected } from '../ratings/glicko2.ts';
import { resultProbabilities } from '../strength/draw-model.ts';
import { gOf } from '../strength/forecast.ts';
import { logit } from '../strength/joint-model.ts';
import { expit, predictJoint } from '../strength/joint-prediction.ts';
import { systemModel } from '../strength/system-model.ts';
import type { SystemModel } from '../strength/system-model.ts';

export const TEAM_MATRIX_MODELS = ['joint', 'rating', 'faction'] as const;
export type TeamMatrixModel = (typeof TEAM_MATRIX_MODELS)[number];

export interface TeamMember {
  player: string;
  faction: string;
}

export interface TeamMatrixRequest {
  system?: string;
  teamA: TeamMember[];
  teamB: TeamMember[];
  model?: TeamMatrixModel;
}

export interface TeamMatrixPlayer {
  id: string;
  /** The name the data gives; null when it gives none or does not know the player. */
  name: string | null;
  faction: { id: string; name: string };
  /** False: the data holds no such player, forecast as one with no games yet. */
  known: boolean;
  /** Glicko-2 rating and deviation after all of the system's games (1500 / 350 unrated). */
  rating: number;
  rd: number;
}

export interface TeamMatrixCell {
  /** The row player's expected result (score share where the system scores games). */
  expected: number;
  low: number;
  high: number;
  win: number;
  draw: number;
  loss: number;
  /** On the system's score scale (expected × the game's total, e.g. 0-20); null without one. */
  score: { expected: number; low: number; high: number } | null;
}

export interface TeamMatrixData {
  model: TeamMatrixModel;
  rows: TeamMatrixPlayer[];
  columns: TeamMatrixPlayer[];
  cells: TeamMatrixCell[][];
  outcome: 'score-share' | 'result';
  /** The points two players share in a game of the system (T9A 20); null when it has none. */
  gameTotal: number | null;
  window: string | null;
}

/** The matrix of expected results of two teams' pairings (docs/team-pairing.md#the-matrix). */
export function teamMatrix(
  snapshot: Snapshot,
  request: TeamMatrixRequest,
): EngineResult<TeamMatrixData, TeamMatrixRequest & { model: TeamMatrixModel }> {
  const system = resolveSystem(snapshot, request.system);
  const rows = request.teamA.map((m, i) => memberOf(snapshot, system, m, `/teamA/${i}`));
  const columns = request.teamB.map((m, i) => memberOf(snapshot, system, m, `/teamB/${i}`));
  const fitted = systemModel(snapshot, system);
  const model = request.model ?? 'joint';
  const total = snapshot.systems[system].scoreTotal;
  const scale = fitted.games.scoreShare && total !== null && total > 0 ? total : null;
  const cells = rows.map((a) => columns.map((b) => cellOf(fitted, model, a, b, scale)));
  const window = fitted.games.windows[fitted.model.currentWindow] ?? null;
  return {
    data: {
      model,
      rows: rows.map((r) => r.player),
      columns: columns.map((c) => c.player),
      cells,
      outcome: fitted.games.scoreShare ? 'score-share' : 'result',
      gameTotal: scale,
      window,
    },
    filter: { ...request, system: snapshot.systems[system].id, model },
    sample: fitted.sample,
    warnings: unknownWarning([...rows, ...columns]),
  };
}

interface Member {
  player: TeamMatrixPlayer;
  /** The faction's index among the system's factions (the model's). */
  local: number;
}

function memberOf(snapshot: Snapshot, system: number, m: TeamMember, at: string): Member {
  let faction: number;
  try {
    faction = resolveFactions(snapshot, system, [m.faction], `${at}/faction`)![0];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw invalidField(
      `${at}/faction`,
      `unknown faction "${m.faction}" in system "${snapshot.systems[system].id}"`,
    );
  }
  const p = playerIndex(snapshot).get(m.player);
  const games = systemModel(snapshot, system).games;
  const known = p !== undefined;
  return {
    player: {
      id: m.player,
      name: known ? snapshot.playerNames[p] : null,
      faction: { id: snapshot.factions[faction].id, name: snapshot.factions[faction].name },
      known,
      rating: known ? games.finalRating[p] : DEFAULT_GLICKO2.initialRating,
      rd: known ? games.finalRd[p] : DEFAULT_GLICKO2.initialRd,
    },
    local: snapshot.systems[system].factions.indexOf(faction),
  };
}

const indexes = new WeakMap<Snapshot, Map<string, number>>();

// A player the data does not know is a newcomer here, not a 404 as on the forecast route.
function playerIndex(snapshot: Snapshot): Map<string, number> {
  let index = indexes.get(snapshot);
  if (index === undefined) {
    index = new Map(snapshot.players.map((p, i) => [p, i]));
    indexes.set(snapshot, index);
  }
  return index;
}

function cellOf(
  fitted: SystemModel,
  model: TeamMatrixModel,
  a: Member,
  b: Member,
  scale: number | null,
): TeamMatrixCell {
  const { rating: ra, rd: rdA } = a.player;
  const { rating: rb, rd: rdB } = b.player;
  const x = logit(glicko2Expected(ra, rb, rdB));
  const window = fitted.model.currentWindow;
  // Rating deviations add (β·g)²·(φA² + φB²) to the logit's variance, β the skill coefficient
  // (1 for rating only); g = logit E / (μA − μB), or g(φB) when the ratings are equal.
  const muGap = (ra - rb) / GLICKO2_SCALE;
  const g = muGap === 0 ? gOf(rdB) : x / muGap;
  const ratingVar = g ** 2 * ((rdA ** 2 + rdB ** 2) / GLICKO2_SCALE ** 2);
  let eta: number;
  let variance: number;
  if (model === 'rating') {
    eta = x;
    variance = ratingVar;
  } else {
    const prediction = predictJoint(fitted.model, a.local, b.local, window, x);
    const beta = fitted.model.fit.theta[fitted.model.layout.skillColumn];
    if (model === 'joint') {
      eta = prediction.eta;
      variance = prediction.variance + beta ** 2 * ratingVar;
    } else {
      eta = prediction.parts.faction + prediction.parts.matchup;
      // The skill part's own coefficient variance is left in: a conservative interval.
      variance = prediction.variance;
    }
  }
  const sd = Math.sqrt(variance);
  const expected = expit(eta);
  const low = expit(eta - Z95 * sd);
  const high = expit(eta + Z95 * sd);
  const { win, draw, loss } = resultProbabilities(fitted.draws, eta);
  return {
    expected,
    low,
    high,
    win,
    draw,
    loss,
    score:
      scale === null ? null : { expected: expected * scale, low: low * scale, high: high * scale },
  };
}

function unknownWarning(members: readonly Member[]): string[] {
  const unknown = [...new Set(members.filter((m) => !m.player.known).map((m) => m.player.id))];
  if (unknown.length === 0) return [];
  return [
    `not in the data, forecast as players with no games yet (rating 1500, deviation 350): ${unknown.join(', ')}`,
  ];
}
