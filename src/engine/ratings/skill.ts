/**
 * "Strong army or strong players?" (docs/statistics.md#skill): how a faction did
 * against what its players' pre-game ratings predicted. Each counted side with both players
 * known contributes its Elo expectation on the players' Glicko-2 ratings as they stood before
 * the game's rating period, and its actual score (win 1, draw ½, loss 0).
 */
import { eloExpected } from './elo.ts';
import { DEFAULT_GLICKO2, glicko2Run, ratableGames } from './rankings.ts';
import type { RankingFacts } from './rankings.ts';

export interface FactionSkill {
  /** Mean expected score of the sides counted. */
  expectedWinRate: number;
  /** Actual win rate minus expectedWinRate over the same sides. */
  overExpected: number;
  /** Sides that had both players rated (the sample behind the two numbers). */
  sides: number;
}

/** One counted side: its faction, its result score, and both players' pre-game ratings. */
export interface SkillSide {
  faction: number;
  /** 1 win, 0.5 draw, 0 loss. */
  score: number;
  /** NaN when the player is unknown (the side is then left out). */
  playerRating: number;
  opponentRating: number;
}

/** Accumulates sides one at a time, so the faction-stats loop can feed it without arrays. */
export class SkillAccumulator {
  private readonly expected = new Map<number, number>();
  private readonly actual = new Map<number, number>();
  private readonly count = new Map<number, number>();

  /** Adds a side; sides with an unknown (NaN) rating on either side are ignored. */
  add(faction: number, score: number, playerRating: number, opponentRating: number): void {
    if (Number.isNaN(playerRating) || Number.isNaN(opponentRating)) return;
    this.expected.set(
      faction,
      (this.expected.get(faction) ?? 0) + eloExpected(playerRating, opponentRating),
    );
    this.actual.set(faction, (this.actual.get(faction) ?? 0) + score);
    this.count.set(faction, (this.count.get(faction) ?? 0) + 1);
  }

  /** The faction's skill, or null when none of its sides had both players rated. */
  result(faction: number): FactionSkill | null {
    const n = this.count.get(faction) ?? 0;
    if (n === 0) return null;
    const expectedWinRate = this.expected.get(faction)! / n;
    return {
      expectedWinRate,
      overExpected: this.actual.get(faction)! / n - expectedWinRate,
      sides: n,
    };
  }
}

/** Skill per faction over the given sides (Elo expectation on pre-game Glicko-2 ratings). */
export function skillFromSides(sides: Iterable<SkillSide>): Map<number, FactionSkill> {
  const acc = new SkillAccumulator();
  const factions = new Set<number>();
  for (const s of sides) {
    acc.add(s.faction, s.score, s.playerRating, s.opponentRating);
    factions.add(s.faction);
  }
  const out = new Map<number, FactionSkill>();
  for (const f of factions) {
    const r = acc.result(f);
    if (r !== null) out.set(f, r);
  }
  return out;
}

/**
 * Each side row's player rating before its game's rating period under the default Glicko-2
 * (one period per event), run over `games` (default: all); NaN for unknown players and for
 * games not rated.
 */
export function computePreGameRatings(
  facts: RankingFacts,
  games?: ArrayLike<number>,
): Float64Array {
  const pre = new Float64Array(facts.games * 2).fill(Number.NaN);
  // Skill keeps event periods without idle growth: its expectations read the ratings players
  // had when they last played, as before leaderboards grew deviations through absences.
  const result = glicko2Run(facts, ratableGames(facts, games), DEFAULT_GLICKO2, true, {
    idleEvents: false,
  });
  const { periodOrder } = result;
  for (let k = 0; k < periodOrder.length; k += 1) {
    const g = periodOrder[k];
    pre[2 * g] = result.preRatingA![k];
    pre[2 * g + 1] = result.preRatingB![k];
  }
  return pre;
}
