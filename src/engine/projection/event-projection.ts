/**
 * event-projection (docs/event-projection.md): each player's chance to finish an event first,
 * in the top 3 and in the top 8, and their expected place, by playing the rounds left many
 * times (swiss-simulation.ts) with games drawn from the joint model as it stood before the
 * event (model-as-of.ts), and ranking the final standings by the event's own rule.
 */
import { DomainError, invalidField } from '../../domain/domain-error.ts';
import { EVENT_FORMATS } from '../../domain/model.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { EngineResult } from '../engine-result.ts';
import { eventRef, factionRef } from '../entity-refs.ts';
import type { EventRef, FactionRef } from '../entity-refs.ts';
import { eventIndex } from '../events/event-index.ts';
import { resolveSystem } from '../filter.ts';
import { playerRef } from '../ratings/leaderboard.ts';
import type { PlayerRef } from '../ratings/leaderboard.ts';
import { strengthData } from '../strength/strength-games.ts';
import { modelAsOf } from './model-as-of.ts';
import { announcedRounds, eventField, playedRounds } from './projection-field.ts';
import type { EventField } from './projection-field.ts';
import { projectionOutcomes } from './projection-outcomes.ts';
import type { ProjectedPlayers } from './projection-outcomes.ts';
import { SeededRandom, seedOf } from './seeded-random.ts';
import { simulateSwiss } from './swiss-simulation.ts';

/** The simulations when a request names none, and their bounds (the route's schema). */
export const PROJECTION_SIMULATIONS = { min: 100, max: 20_000, default: 10_000 } as const;

/**
 * The most players a projection simulates: every pair's distribution is kept side by side
 * (projection-outcomes.ts), which grows with the square of the field.
 */
export const PROJECTION_MAX_PLAYERS = 400;

/** The top cut counted: the sources declare no cut, so the usual eight. */
export const PROJECTION_CUT = 8;

export interface EventProjectionRequest {
  system?: string;
  event: string;
  afterRound?: number;
  simulations?: number;
}

export interface ProjectedPlayer {
  player: PlayerRef;
  faction: FactionRef | null;
  /** The record after the rounds counted. */
  wins: number;
  draws: number;
  losses: number;
  score: number | null;
  chances: { first: number; top3: number; top8: number };
  expectedPlace: number;
}

export interface EventProjection {
  event: EventRef;
  afterRound: number;
  rounds: number;
  simulations: number;
  /** The placing rule the standings rank by. */
  rule: string;
  players: ProjectedPlayer[];
}

export const NO_EARLIER_GAMES_WARNING =
  'the system has no games before this event: the model forecasts every game even';

/** Event `id` of the system, else a 404. */
function eventOf(snapshot: Snapshot, system: number, id: string): number {
  const e = snapshot.events.idIndex.get(id);
  if (e === undefined || snapshot.events.system[e] !== system) {
    const detail = `unknown event "${id}" in system "${snapshot.systems[system].id}"`;
    throw new DomainError('unknown-record', detail, [{ pointer: '/event', detail }]);
  }
  return e;
}

/** The rounds counted: `afterRound` as asked, else every round played; checked. */
function roundsCounted(snapshot: Snapshot, e: number, afterRound: number | undefined) {
  const rounds = snapshot.events.rounds[e];
  if (rounds < 1)
    throw invalidField('/event', 'the event declares no rounds and has none numbered');
  const { last, unnumbered } = playedRounds(snapshot, e);
  if (afterRound === undefined) return { rounds, after: Math.min(rounds, last), last };
  if (unnumbered)
    throw invalidField('/afterRound', "the event's games have no round numbers to count up to");
  if (afterRound > last)
    throw invalidField('/afterRound', `the data holds rounds up to ${last} of this event`);
  return { rounds, after: afterRound, last };
}

/** The players' ratings before the event and their factions, as the model reads them. */
function projectedPlayers(snapshot: Snapshot, e: number, field: EventField, system: number) {
  const data = strengthData(snapshot);
  const games = data.systems[system];
  const n = field.n;
  const at = new Map<number, number>();
  field.players.forEach((p, i) => at.set(p, i));
  const players = {
    rating: new Float64Array(n).fill(1500),
    rd: new Float64Array(n).fill(350),
    faction: new Int32Array(n).fill(-1),
    window: -1,
  };
  const local = new Map(snapshot.systems[system].factions.map((f, i) => [f, i]));
  const seen = new Uint8Array(n);
  const { rowStart, rowEnd } = eventIndex(snapshot);
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const i = at.get(snapshot.player[r]);
    if (i === undefined || seen[i] === 1) continue;
    seen[i] = 1;
    players.faction[i] = local.get(snapshot.faction[r]) ?? -1;
    const row = data.row[r >> 1];
    if (row < 0) continue;
    const a = (r & 1) === 0;
    players.rating[i] = a ? games.ratingA[row] : games.ratingB[row];
    players.rd[i] = a ? games.rdA[row] : games.rdB[row];
    players.window = games.window[row];
  }
  return players;
}

/** Each player's chances to finish first, top 3 and top 8 of event `request.event`. */
export function eventProjection(
  snapshot: Snapshot,
  request: EventProjectionRequest,
): EngineResult<EventProjection, EventProjectionRequest> {
  const system = resolveSystem(snapshot, request.system);
  const e = eventOf(snapshot, system, request.event);
  if (EVENT_FORMATS[snapshot.events.format[e]] === 'teams')
    throw invalidField('/event', 'a team event places no player on their own');
  const rule = snapshot.systems[system].placementRule;
  if (rule === null)
    throw invalidField('/event', "the event's system declares no placing rule to rank by");
  const { rounds, after, last } = roundsCounted(snapshot, e, request.afterRound);
  const simulations = request.simulations ?? PROJECTION_SIMULATIONS.default;
  const left = rounds - after;
  const counted = request.afterRound === undefined ? null : after;
  const field = eventField(snapshot, e, counted, left);
  if (field.n > PROJECTION_MAX_PLAYERS)
    throw invalidField(
      '/event',
      `the event has over ${PROJECTION_MAX_PLAYERS} players to simulate`,
    );
  const asOf = modelAsOf(snapshot, system, snapshot.events.startDay[e]);
  const seen = projectedPlayers(snapshot, e, field, system);
  const window = seen.window >= 0 ? seen.window : asOf.model.currentWindow;
  const players: ProjectedPlayers = { ...seen, window };
  const tieOrder = left === 0 ? placesOf(snapshot, e, field) : null;
  // The tables announced follow from the rounds the data holds: from an earlier round the
  // rounds between are simulated, and the real tables after them answer to other results.
  const announced = after >= last ? announcedRounds(snapshot, e, field, after, left) : [];
  const random = new SeededRandom(
    seedOf(`${snapshot.events.ids[e]}\u0000${after}\u0000${simulations}`),
  );
  const outcomes = projectionOutcomes(asOf, players);
  const tally = simulateSwiss(
    { ...field, tieOrder, announced },
    left,
    rule,
    outcomes,
    simulations,
    random,
    PROJECTION_CUT,
  );
  const rows = Array.from(
    field.players,
    (p, i): ProjectedPlayer => ({
      player: playerRef(snapshot, p),
      faction:
        players.faction[i] >= 0
          ? factionRef(snapshot, snapshot.systems[system].factions[players.faction[i]])
          : null,
      wins: field.wins[i],
      draws: field.draws[i],
      losses: field.losses[i],
      score: field.scored[i] === 1 ? field.score[i] : null,
      chances: {
        first: tally.first[i] / simulations,
        top3: tally.top3[i] / simulations,
        top8: tally.topCut[i] / simulations,
      },
      expectedPlace: tally.placeSum[i] / simulations,
    }),
  );
  rows.sort((a, b) => a.expectedPlace - b.expectedPlace || (a.player.id < b.player.id ? -1 : 1));
  const fitted = new Set(asOf.games.event.subarray(0, asOf.end)).size;
  return {
    data: {
      event: eventRef(snapshot, e),
      afterRound: after,
      rounds,
      simulations,
      rule: rule.name,
      players: rows,
    },
    filter: { ...request, system: snapshot.systems[system].id },
    sample: { events: fitted, games: asOf.end },
    warnings: asOf.end === 0 ? [NO_EARLIER_GAMES_WARNING] : [],
  };
}

/**
 * With nothing left to play the standings are the event's own: its places (published, or
 * derived by its rule), players without one last.
 */
function placesOf(snapshot: Snapshot, e: number, field: EventField): Float64Array | null {
  const st = snapshot.standings;
  const { standingStart } = eventIndex(snapshot);
  const place = new Map<number, number>();
  for (let i = standingStart[e]; i < standingStart[e + 1]; i++) {
    if (st.placement[i] > 0) place.set(st.player[i], st.placement[i]);
  }
  if (place.size === 0) return null;
  return Float64Array.from(field.players, (p) => place.get(p) ?? field.n + 1);
}
