/**
 * The keys a placing rule ranks by and the tie-breakers among them, declared once for the
 * snapshot's derived places, the event page and the event projection
 * (docs/statistics.md#tie-breakers).
 */
import type { PlacementKey, PlacementRule } from './model.ts';

/** What a player's record at one event holds that a placing key reads. */
export interface StandingRecord {
  wins: number;
  draws: number;
  /** Sum of the known game scores (0 when none is known). */
  score: number;
  /** Sum over the games of the opponent's wins at the event, a draw half a win. */
  opponentWins: number;
  /** Games with a known opponent. */
  opponents: number;
  /** Sum of own score minus the opponent's over the games where both are known. */
  margin: number;
}

export interface PlacementKeyInfo {
  /** The key in words, as the event page heads its column. */
  title: string;
  /** True when the key reads game scores, so a source without scores cannot rank by it. */
  needsScores: boolean;
}

/** Every placing key in words, and what it needs from the source. */
export const PLACEMENT_KEY_INFO: Readonly<Record<PlacementKey, PlacementKeyInfo>> = {
  score: { title: 'total score', needsScores: true },
  wins: { title: 'wins (a draw half)', needsScores: false },
  opponentWins: { title: "opponents' wins (sum)", needsScores: false },
  opponentWinsMean: { title: "opponents' wins (mean)", needsScores: false },
  margin: { title: 'margin (score for minus against)', needsScores: true },
};

/** A record's value on a key, higher ranking first (docs/statistics.md#tie-breakers). */
export function placementKeyValue(key: PlacementKey, r: StandingRecord): number {
  switch (key) {
    case 'score':
      return r.score;
    case 'wins':
      return r.wins + r.draws / 2;
    case 'opponentWins':
      return r.opponentWins;
    case 'opponentWinsMean':
      return r.opponents === 0 ? 0 : r.opponentWins / r.opponents;
    case 'margin':
      return r.margin;
  }
}

// A mean of halves is not exact in binary, so keys closer than this are equal.
const EQUAL = 1e-9;

/** Orders two records by the rule's keys in turn, higher first; 0 when equal on every key. */
export function compareByRule(rule: PlacementRule, a: StandingRecord, b: StandingRecord): number {
  for (const k of rule.rank) {
    const d = placementKeyValue(k, b) - placementKeyValue(k, a);
    if (Math.abs(d) > EQUAL) return d;
  }
  return 0;
}

/**
 * The tie-breakers a rule declares (its keys after the first) that the source can give: the
 * ones that read scores only where the event's games have them.
 */
export function tieBreakers(rule: PlacementRule | null, hasScores: boolean): PlacementKey[] {
  if (rule === null) return [];
  return rule.rank.slice(1).filter((k) => hasScores || !PLACEMENT_KEY_INFO[k].needsScores);
}
