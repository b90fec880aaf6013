/**
 * team-pairing (docs/team-pairing.md#the-draft): the engine task behind POST /api/team-pairing,
 * the draft of a matrix the request carries solved from the position its history reached. It
 * reads nothing of the snapshot: the matrix is the captain's, and nothing of it is kept.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { analyseDraft } from './draft-position.ts';
import type { DraftAnalysis, DraftStepChoices } from './draft-position.ts';

export interface TeamPairingRequest {
  format: 'defender-attacker';
  matrix: number[][];
  gameTotal: number;
  history?: DraftStepChoices[];
}

export interface TeamPairingData extends DraftAnalysis {
  format: 'defender-attacker';
  /** Players per team. */
  players: number;
  gameTotal: number;
  history: DraftStepChoices[];
}

/** The echo of the request in meta: everything but the matrix, which the data does not need. */
export interface TeamPairingFilter {
  format: 'defender-attacker';
  players: number;
  gameTotal: number;
}

/** The draft's value and current choice for a typed matrix (docs/team-pairing.md#the-draft). */
export function teamPairing(
  _snapshot: Snapshot,
  request: TeamPairingRequest,
): EngineResult<TeamPairingData, TeamPairingFilter> {
  const history = request.history ?? [];
  const analysis = analyseDraft(request.matrix, request.gameTotal, history);
  const players = request.matrix.length;
  return {
    data: { format: request.format, players, gameTotal: request.gameTotal, history, ...analysis },
    filter: { format: request.format, players, gameTotal: request.gameTotal },
    sample: { events: 0, games: 0 },
    warnings: [],
  };
}
