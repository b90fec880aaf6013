/**
 * Players who may be one person under two ids (docs/statistics.md#duplicate-players): pairs of
 * a system's players whose names are alike (name-keys.ts), scored with what else speaks for and
 * against, leaving out every pair that play shows to be two people: they played each other, or
 * both took part in one event or in events that start on the same day.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { resolveSystem } from '../filter.ts';
import { alikePairs } from './alike-names.ts';
import { NAME_EVIDENCE } from './name-keys.ts';
import type { NameEvidence } from './name-keys.ts';
import { holdsValue, playerFacts, sharesValue } from './player-facts.ts';
import type { PlayerFacts } from './player-facts.ts';

/** What else speaks for a pair besides alike names. */
export type OtherEvidence = 'same-country' | 'shared-factions';
/** What speaks against a pair that play does not rule out. */
export type AgainstEvidence = 'different-countries' | 'no-shared-faction';

export interface DuplicatePair {
  players: [string, string];
  names: [string | null, string | null];
  score: number;
  for: Array<NameEvidence | OtherEvidence>;
  against: AgainstEvidence[];
}

export interface PlayerDuplicatesRequest {
  system: string;
  minScore: number;
}

export interface PlayerDuplicatesData {
  pairs: DuplicatePair[];
}

/** The most pairs one answer lists, best first (a warning says when more were found). */
export const MAX_DUPLICATE_PAIRS = 2_000;
/** The default of minScore: alike names alone, not contradicted. */
export const DEFAULT_MIN_SCORE = 0.5;

const NAME_WEIGHT: Record<NameEvidence, number> = {
  'same-name': 0.7,
  'name-case-accents': 0.65,
  'transposed-names': 0.6,
  diminutive: 0.5,
  'one-edit': 0.45,
  initials: 0.4,
};

/** Scores one pair of alike names; null when play rules it out. */
function scorePair(
  snapshot: Snapshot,
  facts: PlayerFacts,
  likeness: NameEvidence,
  p: number,
  q: number,
): DuplicatePair | null {
  const [a, b] = [facts.record(p), facts.record(q)];
  if (
    holdsValue(a.opponents, q) ||
    sharesValue(a.events, b.events) ||
    sharesValue(a.days, b.days)
  ) {
    return null;
  }
  const evidenceFor: DuplicatePair['for'] = [likeness];
  const against: AgainstEvidence[] = [];
  let score = NAME_WEIGHT[likeness];
  const [countryA, countryB] = [snapshot.playerCountries[p], snapshot.playerCountries[q]];
  if (countryA !== null && countryB !== null) {
    if (countryA.toUpperCase() === countryB.toUpperCase()) {
      evidenceFor.push('same-country');
      score += 0.15;
    } else {
      against.push('different-countries');
      score -= 0.3;
    }
  }
  if (a.factions.length > 0 && b.factions.length > 0) {
    if (sharesValue(a.factions, b.factions)) {
      evidenceFor.push('shared-factions');
      score += 0.15;
    } else {
      against.push('no-shared-faction');
      score -= 0.1;
    }
  }
  return {
    players: [snapshot.players[p], snapshot.players[q]],
    names: [snapshot.playerNames[p], snapshot.playerNames[q]],
    score: Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000,
    for: evidenceFor,
    against,
  };
}

/**
 * The pairs of the system's players that may be one person, best first (score, then ids), with
 * the evidence for and against each (docs/statistics.md#duplicate-players).
 */
export function playerDuplicates(
  snapshot: Snapshot,
  request: PlayerDuplicatesRequest,
): EngineResult<PlayerDuplicatesData, PlayerDuplicatesRequest> {
  const system = resolveSystem(snapshot, request.system);
  const facts = playerFacts(snapshot, system);
  const alike = alikePairs(snapshot, system, facts.present);
  const pairs: DuplicatePair[] = [];
  for (let i = 0; i < alike.likeness.length; i++) {
    const likeness = NAME_EVIDENCE[alike.likeness[i]];
    const pair = scorePair(snapshot, facts, likeness, alike.pairs[2 * i], alike.pairs[2 * i + 1]);
    if (pair !== null && pair.score >= request.minScore) pairs.push(pair);
  }
  pairs.sort(
    (x, y) =>
      y.score - x.score ||
      (x.players[0] < y.players[0] ? -1 : x.players[0] > y.players[0] ? 1 : 0) ||
      (x.players[1] < y.players[1] ? -1 : x.players[1] > y.players[1] ? 1 : 0),
  );
  const warnings =
    pairs.length > MAX_DUPLICATE_PAIRS
      ? [`${pairs.length} pairs found; the best ${MAX_DUPLICATE_PAIRS} are listed`]
      : [];
  return {
    data: { pairs: pairs.slice(0, MAX_DUPLICATE_PAIRS) },
    filter: { system: snapshot.systems[system].id, minScore: request.minScore },
    sample: { events: facts.sampleEvents, games: facts.sampleGames },
    warnings,
  };
}
