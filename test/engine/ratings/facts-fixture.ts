/**
 * Ranking facts written by hand for the ratings tests: events, games in the snapshot's columnar
 * layout, and default parameters.
 */
import assert from 'node:assert/strict';
import { DEFAULT_POINTS_OPTIONS } from '../../../src/engine/ratings/points.ts';
import { DEFAULT_ELO, DEFAULT_GLICKO2 } from '../../../src/engine/ratings/rankings.ts';
import type {
  RankingEvent,
  RankingFacts,
  RankingParams,
  RankingPlacement,
} from '../../../src/engine/ratings/rankings.ts';

export function params(overrides: Partial<RankingParams> = {}): RankingParams {
  return {
    method: 'glicko2',
    glicko2: { ...DEFAULT_GLICKO2 },
    elo: { ...DEFAULT_ELO },
    points: { ...DEFAULT_POINTS_OPTIONS },
    ...overrides,
  };
}

export interface GameSpec {
  id: string;
  event: number;
  round: number | null;
  players: [number, number];
  factions: [number, number];
  results: [number, number];
  scores: [number | null, number | null];
}

/** Columnar facts as the snapshot lays them out: games by start, event, round, then id. */
export function factsOf(
  players: number,
  events: RankingEvent[],
  specs: GameSpec[],
  placements: RankingPlacement[] = [],
  factionIds: string[] = ['x'],
): RankingFacts & { specs: GameSpec[] } {
  const games = [...specs].sort(
    (x, y) =>
      (events[x.event].start < events[y.event].start ? -1 : 0) ||
      (events[x.event].start > events[y.event].start ? 1 : 0) ||
      x.event - y.event ||
      (x.round ?? 1e9) - (y.round ?? 1e9) ||
      (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  );
  return {
    players,
    events,
    games: games.length,
    gameEvent: games.map((g) => g.event),
    gameRound: games.map((g) => g.round ?? -1),
    player: games.flatMap((g) => g.players),
    faction: games.flatMap((g) => g.factions),
    result: games.flatMap((g) => g.results.map((r) => r * 2)),
    score: games.flatMap((g) => g.scores.map((x) => x ?? Number.NaN)),
    placements,
    factionIds,
    specs: games,
  };
}

export function game(
  id: string,
  event: number,
  round: number | null,
  a: number,
  b: number,
  result: 'a' | 'b' | 'draw',
  scores: [number | null, number | null] = [null, null],
  factions: [number, number] = [0, 0],
): GameSpec {
  const results: [number, number] = result === 'a' ? [1, 0] : result === 'b' ? [0, 1] : [0.5, 0.5];
  return { id, event, round, players: [a, b], factions, results, scores };
}

export const ev = (id: string, start: string, extra: Partial<RankingEvent> = {}): RankingEvent => ({
  id,
  start,
  end: null,
  rounds: null,
  participants: null,
  ...extra,
});

export function close(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what}: expected ${expected} ± ${tolerance}, got ${actual}`,
  );
}
