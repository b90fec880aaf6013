/**
 * How well the event projection forecasts real winners (docs/event-projection.md#how-well-it-forecasts),
 * on events whose sources number no rounds. For this evaluation only, rounds are derived from
 * the game ids: a T9A report id is a MongoDB ObjectId, made when the game is paired, so id
 * order follows round order. An event's games in id order are cut into rounds wherever a
 * player would appear twice in the current one. An event is kept only where that cut is clean:
 * as many rounds as the most games any player played, 3 to 7 of them, and every round at
 * least four fifths as full as the fullest. Neither the importer nor any answer sees these
 * rounds: the evaluation runs on a copy of the snapshot that carries them.
 *
 * After each kept event's second-to-last round, three forecasts of who finishes first, scored
 * by the Brier score summed over its players and then over the events: the projection (the
 * joint model as of the event's first day), an even split among the players on the most wins,
 * and a coin-flip simulation of the last round (every game drawn from the system's scores
 * with an even mean, the same Swiss pairing and placing rule).
 */
import { EVENT_FORMATS } from '../src/domain/model.ts';
import { eventIndex } from '../src/engine/events/event-index.ts';
import { eventProjection } from '../src/engine/projection/event-projection.ts';
import { modelAsOf } from '../src/engine/projection/model-as-of.ts';
import { tiltedScores } from '../src/engine/projection/projection-outcomes.ts';
import { eventField } from '../src/engine/projection/projection-field.ts';
import { SeededRandom, seedOf } from '../src/engine/projection/seeded-random.ts';
import { simulateSwiss } from '../src/engine/projection/swiss-simulation.ts';
import type { GameOutcomes } from '../src/engine/projection/swiss-simulation.ts';
import { gameIdOf, PLACEMENTS_DERIVED } from '../src/snapshot/snapshot.ts';
import type { Snapshot } from '../src/snapshot/snapshot.ts';

/**
 * The first day of the held-out events: every event from it on is scored, each against the
 * model fitted to the games of events before its own first day.
 */
export const HELD_OUT_FROM = '2025-06-01';

/** Why an event's derived rounds were not kept, and how many events each reason dropped. */
export type DropReasons = Record<string, number>;

export interface DerivedRounds {
  /** A copy of the snapshot with the derived rounds in gameRound and events.rounds. */
  readonly snapshot: Snapshot;
  /** The singles events whose derivation is clean. */
  readonly clean: number[];
  readonly dropped: DropReasons;
}

/** Each round's game count for event `e`'s games in id order, numbering them into `round`. */
function cutRounds(snapshot: Snapshot, e: number, round: Int32Array): number[] {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  const games: { id: string; g: number }[] = [];
  for (let r = rowStart[e]; r < rowEnd[e]; r += 2)
    games.push({ id: gameIdOf(snapshot, r >> 1), g: r >> 1 });
  games.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const sizes: number[] = [];
  let seen = new Set<number>();
  for (const { g } of games) {
    const a = snapshot.player[2 * g];
    const b = snapshot.player[2 * g + 1];
    if (sizes.length === 0 || seen.has(a) || seen.has(b)) {
      sizes.push(0);
      seen = new Set();
    }
    seen.add(a).add(b);
    sizes[sizes.length - 1]++;
    round[g] = sizes.length;
  }
  return sizes;
}

/** Why a cut is not clean, else null. */
function unclean(sizes: number[], mostGames: number): string | null {
  if (sizes.length < 3 || sizes.length > 7) return 'not 3 to 7 rounds';
  if (sizes.length !== mostGames) return 'more rounds than anyone played games';
  if (Math.min(...sizes) < 0.8 * Math.max(...sizes)) return 'a round under 4/5 full';
  return null;
}

/** The snapshot with every singles event's rounds derived from its game ids. */
export function deriveRounds(snapshot: Snapshot): DerivedRounds {
  const gameRound = Int32Array.from(snapshot.gameRound);
  const rounds = Int32Array.from(snapshot.events.rounds);
  const clean: number[] = [];
  const dropped: DropReasons = {};
  for (let e = 0; e < snapshot.events.count; e++) {
    if (EVENT_FORMATS[snapshot.events.format[e]] !== 'singles') continue;
    const sizes = cutRounds(snapshot, e, gameRound);
    const why =
      snapshot.standings.eventPlacements[e] !== PLACEMENTS_DERIVED
        ? 'no places derived by the rule'
        : unclean(sizes, snapshot.standings.eventMostGames[e]);
    if (why !== null) {
      dropped[why] = (dropped[why] ?? 0) + 1;
      continue;
    }
    rounds[e] = sizes.length;
    clean.push(e);
  }
  const events = { ...snapshot.events, rounds };
  return { snapshot: { ...snapshot, gameRound, events }, clean, dropped };
}

/** The three forecasts' Brier scores summed over the events. */
export interface BrierSums {
  events: number;
  players: number;
  model: number;
  evenSplit: number;
  coinFlip: number;
}

/** Each player's share of first: 1 / k for each of the k players the standings place 1. */
function winners(snapshot: Snapshot, e: number): Map<string, number> {
  const st = snapshot.standings;
  const { standingStart } = eventIndex(snapshot);
  const first: string[] = [];
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) {
    if (st.placement[i] === 1) first.push(snapshot.players[st.player[i]]);
  }
  return new Map(first.map((p) => [p, 1 / first.length]));
}

/** The chances of first by a simulation whose every game is even. */
function coinFlipFirst(snapshot: Snapshot, e: number, simulations: number): Float64Array {
  const system = snapshot.events.system[e];
  const rule = snapshot.systems[system].placementRule!;
  const rounds = snapshot.events.rounds[e];
  const field = eventField(snapshot, e, rounds - 1, 1);
  const { scores } = modelAsOf(snapshot, system, snapshot.events.startDay[e]);
  const even =
    scores === null
      ? Float64Array.of(1 / 3, 2 / 3, 1)
      : tiltedScores(scores, (scores.length - 1) / 2);
  const bins = even.length;
  const outcomes: GameOutcomes = {
    bins,
    total: scores === null ? null : bins - 1,
    table: even,
    at: () => 0,
  };
  const random = new SeededRandom(seedOf(`coin\u0000${snapshot.events.ids[e]}`));
  const tally = simulateSwiss(field, 1, rule, outcomes, simulations, random, 8);
  return tally.first.map((c) => c / simulations);
}

/** The Brier sums of `events` (after each one's second-to-last round) on `derived`. */
export function projectionBrier(
  derived: Snapshot,
  events: number[],
  simulations: number,
): BrierSums {
  const sums: BrierSums = { events: 0, players: 0, model: 0, evenSplit: 0, coinFlip: 0 };
  for (const e of events) {
    const won = winners(derived, e);
    const afterRound = derived.events.rounds[e] - 1;
    const request = { event: derived.events.ids[e], afterRound, simulations };
    const { players } = eventProjection(derived, request).data;
    const field = eventField(derived, e, afterRound, 1);
    const coin = coinFlipFirst(derived, e, simulations);
    const coinOf = new Map(Array.from(field.players, (p, i) => [derived.players[p], coin[i]]));
    const most = Math.max(...players.map((p) => p.wins + p.draws / 2));
    const leaders = players.filter((p) => p.wins + p.draws / 2 === most).length;
    for (const p of players) {
      const o = won.get(p.player.id) ?? 0;
      sums.model += (p.chances.first - o) ** 2;
      sums.evenSplit += ((p.wins + p.draws / 2 === most ? 1 / leaders : 0) - o) ** 2;
      sums.coinFlip += ((coinOf.get(p.player.id) ?? 0) - o) ** 2;
    }
    sums.events++;
    sums.players += players.length;
  }
  return sums;
}
