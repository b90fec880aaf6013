/**
 * A defender-attacker draft walked from its history to the position it reached, and the
 * position's choice solved: both teams' optimal mixes and what each option is worth against the
 * other team's best reply (docs/team-pairing.md#walking-a-draft).
 */
import { invalidField } from '../../domain/domain-error.ts';
import { DraftSolver, MAX_TEAM, MIN_TEAM, membersOf } from './draft-solver.ts';
import type { ChoiceGame, PlayerMask } from './draft-solver.ts';
import { solveMatrixGame } from './matrix-game.ts';

/**
 * One step's choices, as far as they were made. Indices are rows (team A's players) and columns
 * (team B's) of the matrix. attackersA are A's players offered against B's defender; keptByA is
 * the one of attackersB that A's defender keeps, keptByB the one of attackersA B's keeps.
 */
export interface DraftStepChoices {
  defenderA: number;
  defenderB: number;
  attackersA?: number[];
  attackersB?: number[];
  keptByA?: number;
  keptByB?: number;
}

/** A game the draft has fixed: A's player a meets B's player b, worth `score` to A. */
export interface DraftPairing {
  a: number;
  b: number;
  score: number;
  how: 'defender-a' | 'defender-b' | 'refused' | 'last';
}

export type DraftPhase = 'defenders' | 'attackers' | 'keep';
/** A player (a defender, or the attacker kept) as [index], or the two attackers offered. */
export type DraftChoice = number[];

/** One option of a team: its optimal probability and its worth to that team against best play. */
export interface DraftOption {
  choice: DraftChoice;
  probability: number;
  value: number;
}

export interface DraftStep {
  index: number;
  phase: DraftPhase;
  leftA: number[];
  leftB: number[];
  defenderA?: number;
  defenderB?: number;
  attackersA?: number[];
  attackersB?: number[];
  teamA: DraftOption[];
  teamB: DraftOption[];
}

export interface DraftAnalysis {
  /** Team A's expected total over all the games when both play their best from here. */
  value: number;
  /** Team A's expected total over the games already paired. */
  paired: number;
  pairings: DraftPairing[];
  step: DraftStep | null;
}

interface Position {
  maskA: PlayerMask;
  maskB: PlayerMask;
  pairings: DraftPairing[];
  open: DraftStepChoices | null;
  index: number;
}

/** The draft from its history: the value, the games fixed, the choice to make now. */
export function analyseDraft(
  matrix: readonly (readonly number[])[],
  gameTotal: number,
  history: readonly DraftStepChoices[],
  solver: DraftSolver = new DraftSolver(flatten(matrix, gameTotal), matrix.length),
): DraftAnalysis {
  const n = matrix.length;
  const position = walk(solver, history);
  const paired = position.pairings.reduce((sum, p) => sum + p.score, 0);
  if (position.maskA === 0)
    return { value: paired, paired, pairings: position.pairings, step: null };
  const open = position.open;
  const step: Omit<DraftStep, 'teamA' | 'teamB'> = {
    index: position.index,
    phase: open === null ? 'defenders' : open.attackersA === undefined ? 'attackers' : 'keep',
    leftA: membersOf(position.maskA),
    leftB: membersOf(position.maskB),
    ...open,
  };
  const game: ChoiceGame<number | [number, number], number | [number, number]> =
    open === null
      ? solver.defenderGame(position.maskA, position.maskB)
      : open.attackersA === undefined || open.attackersB === undefined
        ? solver.attackerGame(position.maskA, position.maskB, open.defenderA, open.defenderB)
        : solver.keepGame(
            position.maskA,
            position.maskB,
            [open.defenderA, open.defenderB],
            open.attackersA as [number, number],
            open.attackersB as [number, number],
          );
  const rows = game.rowOptions.length;
  const cols = game.columnOptions.length;
  const solution = solveMatrixGame(game.payoffs, rows, cols);
  const teamA = game.rowOptions.map((choice, i) => {
    let worst = Infinity;
    for (let j = 0; j < cols; j++) worst = Math.min(worst, game.payoffs[i * cols + j]);
    return { choice: asList(choice), probability: solution.row[i], value: paired + worst };
  });
  const teamB = game.columnOptions.map((choice, j) => {
    let worst = -Infinity;
    for (let i = 0; i < rows; i++) worst = Math.max(worst, game.payoffs[i * cols + j]);
    const value = n * gameTotal - paired - worst;
    return { choice: asList(choice), probability: solution.column[j], value };
  });
  return {
    value: paired + solution.value,
    paired,
    pairings: position.pairings,
    step: { ...step, teamA, teamB },
  };
}

/** The matrix as the solver's flat array, refused (naming the cell) when not n x n in range. */
export function flatten(matrix: readonly (readonly number[])[], gameTotal: number): Float64Array {
  const n = matrix.length;
  if (n < MIN_TEAM || n > MAX_TEAM) {
    throw invalidField('/matrix', `teams of ${MIN_TEAM} to ${MAX_TEAM} players, not ${n}`);
  }
  const flat = new Float64Array(n * n);
  matrix.forEach((row, i) => {
    if (row.length !== n) {
      throw invalidField(
        `/matrix/${i}`,
        `row ${i} has ${row.length} cells; the matrix is ${n} x ${n}`,
      );
    }
    row.forEach((cell, j) => {
      if (!(cell >= 0 && cell <= gameTotal)) {
        throw invalidField(`/matrix/${i}/${j}`, `${cell} is outside 0 to gameTotal (${gameTotal})`);
      }
      flat[i * n + j] = cell;
    });
  });
  return flat;
}

// One shape for every option, so a client reads a defender, a pair and a kept attacker alike.
function asList(choice: number | readonly number[]): number[] {
  return typeof choice === 'number' ? [choice] : [...choice];
}

function walk(solver: DraftSolver, history: readonly DraftStepChoices[]): Position {
  const full = (1 << solver.n) - 1;
  const position: Position = { maskA: full, maskB: full, pairings: [], open: null, index: 0 };
  history.forEach((choices, s) => {
    const at = `/history/${s}`;
    if (position.open !== null) {
      throw invalidField(at, `step ${s - 1} is not finished, so no step can follow it`);
    }
    if (position.maskA === 0) throw invalidField(at, `the draft was over after step ${s - 1}`);
    playStep(solver, position, choices, at);
    position.index = s + (position.open === null ? 1 : 0);
  });
  return position;
}

function playStep(
  solver: DraftSolver,
  position: Position,
  choices: DraftStepChoices,
  at: string,
): void {
  const { defenderA, defenderB, attackersA, attackersB, keptByA, keptByB } = choices;
  requireLeft(position.maskA, defenderA, `${at}/defenderA`, 'A');
  requireLeft(position.maskB, defenderB, `${at}/defenderB`, 'B');
  if ((attackersA === undefined) !== (attackersB === undefined)) {
    throw invalidField(
      at,
      'both teams offer their attackers at once: give attackersA and attackersB',
    );
  }
  if (attackersA === undefined || attackersB === undefined) {
    if (keptByA !== undefined || keptByB !== undefined) {
      throw invalidField(at, 'an attacker is kept only after attackers were offered');
    }
    position.open = choices;
    return;
  }
  requireAttackers(position.maskA & ~(1 << defenderA), attackersA, `${at}/attackersA`, 'A');
  requireAttackers(position.maskB & ~(1 << defenderB), attackersB, `${at}/attackersB`, 'B');
  if ((keptByA === undefined) !== (keptByB === undefined)) {
    throw invalidField(at, 'both defenders keep an attacker at once: give keptByA and keptByB');
  }
  if (keptByA === undefined || keptByB === undefined) {
    position.open = choices;
    return;
  }
  if (!attackersB.includes(keptByA)) {
    throw invalidField(
      `${at}/keptByA`,
      `team A's defender keeps one of attackersB, not ${keptByA}`,
    );
  }
  if (!attackersA.includes(keptByB)) {
    throw invalidField(
      `${at}/keptByB`,
      `team B's defender keeps one of attackersA, not ${keptByB}`,
    );
  }
  settle(solver, position, choices as Required<DraftStepChoices>);
}

function settle(solver: DraftSolver, position: Position, c: Required<DraftStepChoices>): void {
  const k = membersOf(position.maskA).length;
  const pair = (a: number, b: number, how: DraftPairing['how']): void => {
    position.pairings.push({ a, b, score: solver.at(a, b), how });
    position.maskA &= ~(1 << a);
    position.maskB &= ~(1 << b);
  };
  pair(c.defenderA, c.keptByA, 'defender-a');
  pair(c.keptByB, c.defenderB, 'defender-b');
  if (k > 4) return;
  const refusedA = c.attackersA[0] === c.keptByB ? c.attackersA[1] : c.attackersA[0];
  const refusedB = c.attackersB[0] === c.keptByA ? c.attackersB[1] : c.attackersB[0];
  pair(refusedA, refusedB, 'refused');
  if (k === 4) pair(membersOf(position.maskA)[0], membersOf(position.maskB)[0], 'last');
}

function requireLeft(mask: PlayerMask, player: number, pointer: string, team: string): void {
  if (
    !Number.isInteger(player) ||
    player < 0 ||
    player >= MAX_TEAM ||
    ((mask >> player) & 1) === 0
  ) {
    throw invalidField(pointer, `player ${player} is not left to team ${team} at this step`);
  }
}

function requireAttackers(
  mask: PlayerMask,
  pair: readonly number[],
  pointer: string,
  team: string,
): void {
  if (pair.length !== 2 || pair[0] === pair[1]) {
    throw invalidField(pointer, 'two different attackers are offered');
  }
  pair.forEach((player, x) => requireLeft(mask, player, `${pointer}/${x}`, team));
}
