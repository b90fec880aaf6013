/**
 * Best-N event points: an event is worth a maximum that grows with its length and size, a
 * placement earns a linear share of it, and a player's score is the sum of their best N events
 * in the window (the usual scheme of national wargame rankings).
 */

export interface PointsOptions {
  bestN: number;
  /** Events of at most this many rounds are one-day events. */
  oneDayMaxRounds: number;
  baseOneDay: number;
  baseMultiDay: number;
  /** Participants beyond this add nothing to an event's maximum. */
  participantCap: number;
}

export const DEFAULT_POINTS_OPTIONS: Readonly<PointsOptions> = Object.freeze({
  bestN: 4,
  oneDayMaxRounds: 3,
  baseOneDay: 20,
  baseMultiDay: 30,
  participantCap: 100,
});

/** An event's maximum: base (one-day vs multi-day by rounds) + min(participants, cap). */
export function eventMaximum(rounds: number, participants: number, options: PointsOptions): number {
  const base = rounds <= options.oneDayMaxRounds ? options.baseOneDay : options.baseMultiDay;
  return base + Math.min(participants, options.participantCap);
}

/** Place score = maximum × (participants + 1 − placement) / participants. */
export function placeScore(maximum: number, participants: number, placement: number): number {
  if (participants <= 0) return 0;
  return Math.max(0, (maximum * (participants + 1 - placement)) / participants);
}

export interface StandingInput {
  player: number;
  wins: number;
  draws: number;
  score: number;
}

/**
 * Placements from an event's games: more wins first (a draw counts half a win, as in
 * winRate), then more total score; equal players share a placement (1, 2, 2, 4).
 */
export function placementsFromGames(standings: readonly StandingInput[]): Map<number, number> {
  const sorted = [...standings].sort(
    (x, y) =>
      y.wins + y.draws / 2 - (x.wins + x.draws / 2) || y.score - x.score || x.player - y.player,
  );
  const placements = new Map<number, number>();
  for (let i = 0; i < sorted.length; i += 1) {
    const s = sorted[i];
    const prev = sorted[i - 1];
    const tied =
      prev !== undefined &&
      prev.wins + prev.draws / 2 === s.wins + s.draws / 2 &&
      prev.score === s.score;
    placements.set(s.player, tied ? placements.get(prev.player)! : i + 1);
  }
  return placements;
}

/** The sum of the best `n` scores (Float64 sum in descending order, so it is deterministic). */
export function bestNTotal(scores: Iterable<number>, n: number): number {
  return [...scores]
    .sort((a, b) => b - a)
    .slice(0, n)
    .reduce((sum, s) => sum + s, 0);
}
