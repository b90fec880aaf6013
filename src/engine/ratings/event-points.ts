/**
 * Each player's best-N event points over the rated games (docs/ratings.md "Points"): an event's
 * placements, imported or derived from its games, scored by src/engine/ratings/points.ts.
 */
import { eventGroups } from './event-groups.ts';
import type { EventGroups } from './event-groups.ts';
import { eventMaximum, placeScore, placementsFromGames } from './points.ts';
import type { PointsOptions, StandingInput } from './points.ts';
import type {
  PlacementColumns,
  RankingEvent,
  RankingFacts,
  RankingPlacement,
} from './ranking-facts.ts';

export interface EventPoints {
  /** Per player, the scores of their events (in no particular order). */
  scores: Map<number, number[]>;
  /** Per player, the start date of their latest scored event. */
  lastEvent: Map<number, string>;
  /** Per player, each scored event and its score. */
  scored: Map<number, Array<{ event: number; score: number }>>;
}

/**
 * The scores as columns: entry k is `player[k]` scoring `score[k]` at `event[k]`. Events come in
 * the order of their first rated game, and within an event players in the order they appear
 * (their sides in game order, then their entries).
 */
export interface EventScores {
  readonly length: number;
  readonly player: Int32Array;
  readonly event: Int32Array;
  readonly score: Float64Array;
}

/**
 * Each player's event scores: an event's placements from `facts.placements` when it has any
 * (imported, or derived by the snapshot by its system's rule), otherwise from its counted games
 * (wins, then total score); an event the facts mark unplaced (a team event, or one with no
 * placings and no rule) scores nothing. Only players who played (or entered with) a listed
 * faction score.
 */
export function eventPoints(
  facts: RankingFacts,
  order: ArrayLike<number>,
  options: PointsOptions,
  factions: ReadonlySet<number> | null,
): EventPoints {
  const entries = eventScores(facts, order, options, factions);
  const scores = new Map<number, number[]>();
  const lastEvent = new Map<number, string>();
  const scored = new Map<number, Array<{ event: number; score: number }>>();
  for (let k = 0; k < entries.length; k += 1) {
    const p = entries.player[k];
    const e = entries.event[k];
    const score = entries.score[k];
    const list = scores.get(p);
    if (list === undefined) scores.set(p, [score]);
    else list.push(score);
    const own = scored.get(p);
    if (own === undefined) scored.set(p, [{ event: e, score }]);
    else own.push({ event: e, score });
    const start = facts.events[e].start;
    const last = lastEvent.get(p);
    if (last === undefined || start > last) lastEvent.set(p, start);
  }
  return { scores, lastEvent, scored };
}

/**
 * The event scores of eventPoints as columns. Only events in scope: those with counted games
 * (the caller's filter); `groups` is `order` grouped by event when the caller has it already.
 */
export function eventScores(
  facts: RankingFacts,
  order: ArrayLike<number>,
  options: PointsOptions,
  factions: ReadonlySet<number> | null,
  groups: EventGroups = eventGroups(facts, order),
): EventScores {
  const inScope = (f: number): boolean => factions === null || factions.has(f);
  const given = givenPlacements(facts);
  const scratch = new EventScratch(facts.players);
  const out = new ScoreColumns();
  for (const e of groups.events) {
    // An event without places scores nothing (docs/statistics.md#standings).
    if (facts.events[e].placed === false) continue;
    const games = groups.games.subarray(groups.start[e], groups.start[e + 1]);
    const players = scratch.playersOf(facts, games, inScope);
    const from = given.start[e];
    const to = given.start[e + 1];
    if (from < to) {
      scratch.placeGiven(given, from, to);
      for (let k = from; k < to; k += 1) {
        if (inScope(given.faction[k])) scratch.addPlayer(given.player[k]);
      }
    } else {
      scratch.placeFromGames(facts, games);
    }
    const event = facts.events[e];
    const participants =
      event.teams ?? Math.max(event.participants ?? 0, scratch.placed, scratch.worst);
    const rounds = eventRounds(event, maxRound(facts.gameRound, games), options);
    const maximum = eventMaximum(rounds, participants, options);
    for (const p of players) {
      const placement = scratch.placementOf(p);
      if (placement === undefined) continue;
      out.push(p, e, placeScore(maximum, participants, placement));
    }
  }
  return out.columns();
}

/** EventScores being written: typed arrays that double when full. */
class ScoreColumns {
  private size = 0;
  private player = new Int32Array(1024);
  private event = new Int32Array(1024);
  private score = new Float64Array(1024);

  push(player: number, event: number, score: number): void {
    if (this.size === this.player.length) this.grow();
    this.player[this.size] = player;
    this.event[this.size] = event;
    this.score[this.size] = score;
    this.size += 1;
  }

  columns(): EventScores {
    const n = this.size;
    return {
      length: n,
      player: this.player.subarray(0, n),
      event: this.event.subarray(0, n),
      score: this.score.subarray(0, n),
    };
  }

  private grow(): void {
    const player = new Int32Array(2 * this.size);
    const event = new Int32Array(2 * this.size);
    const score = new Float64Array(2 * this.size);
    player.set(this.player);
    event.set(this.event);
    score.set(this.score);
    [this.player, this.event, this.score] = [player, event, score];
  }
}

/** The highest round among the games, -1 when none is known. */
function maxRound(gameRound: ArrayLike<number>, games: Int32Array): number {
  let max = -1;
  for (let i = 0; i < games.length; i += 1) max = Math.max(max, gameRound[games[i]]);
  return max;
}

/** Declared rounds, else the highest round played, else one-day unless the event spans days. */
function eventRounds(event: RankingEvent, maxRound: number, options: PointsOptions): number {
  if (event.rounds !== null && event.rounds > 0) return event.rounds;
  if (maxRound > 0) return maxRound;
  return event.end !== null && event.end > event.start
    ? options.oneDayMaxRounds + 1
    : options.oneDayMaxRounds;
}

/** The usable placements of the facts (placement > 0, known player) grouped by event. */
interface GivenPlacements {
  /** Per event index: its placements are rows start[e] .. start[e + 1] - 1, in facts order. */
  start: Int32Array;
  player: Int32Array;
  placement: Float64Array;
  faction: Int32Array;
}

const givenCache = new WeakMap<RankingFacts, GivenPlacements>();

/** The facts' usable placements grouped by event, built once per fact set. */
function givenPlacements(facts: RankingFacts): GivenPlacements {
  const hit = givenCache.get(facts);
  if (hit !== undefined) return hit;
  const rows = facts.placementColumns ?? placementColumnsOf(facts.placements);
  const usable = (i: number): boolean => rows.placement[i] > 0 && rows.player[i] >= 0;
  const start = new Int32Array(facts.events.length + 1);
  let n = 0;
  for (let i = 0; i < rows.count; i += 1) {
    if (usable(i)) {
      start[rows.event[i] + 1] += 1;
      n += 1;
    }
  }
  for (let e = 1; e < start.length; e += 1) start[e] += start[e - 1];
  const next = start.slice(0, -1);
  const grouped = {
    start,
    player: new Int32Array(n),
    placement: new Float64Array(n),
    faction: new Int32Array(n),
  };
  for (let i = 0; i < rows.count; i += 1) {
    if (!usable(i)) continue;
    const k = next[rows.event[i]]++;
    grouped.player[k] = rows.player[i];
    grouped.placement[k] = rows.placement[i];
    grouped.faction[k] = rows.faction[i];
  }
  givenCache.set(facts, grouped);
  return grouped;
}

/** Placement objects as columns. */
function placementColumnsOf(placements: readonly RankingPlacement[]): PlacementColumns {
  return {
    count: placements.length,
    event: placements.map((p) => p.event),
    player: placements.map((p) => p.player),
    placement: placements.map((p) => p.placement),
    faction: placements.map((p) => p.faction),
  };
}

/**
 * One event's players and placements at a time, by player index, reused from event to event:
 * a player belongs to the current event when their stamp is its number.
 */
class EventScratch {
  /** Players placed in the event, and the worst placement among them. */
  placed = 0;
  worst = 0;
  private readonly players: number[] = [];
  private readonly playerStamp: Int32Array;
  private readonly placementStamp: Int32Array;
  private readonly placement: Float64Array;
  private stamp = 0;

  constructor(players: number) {
    this.playerStamp = new Int32Array(players);
    this.placementStamp = new Int32Array(players);
    this.placement = new Float64Array(players);
  }

  /** Starts an event: its players with a counted side, in game order. */
  playersOf(facts: RankingFacts, games: Int32Array, inScope: (f: number) => boolean): number[] {
    this.stamp += 1;
    this.players.length = 0;
    this.placed = 0;
    this.worst = 0;
    for (let i = 0; i < games.length; i += 1) {
      const g = games[i];
      for (let r = 2 * g; r <= 2 * g + 1; r += 1) {
        if (inScope(facts.faction[r])) this.addPlayer(facts.player[r]);
      }
    }
    return this.players;
  }

  addPlayer(p: number): void {
    if (this.playerStamp[p] === this.stamp) return;
    this.playerStamp[p] = this.stamp;
    this.players.push(p);
  }

  /** The placements given for the event (a later row of a player replaces an earlier one). */
  placeGiven(given: GivenPlacements, from: number, to: number): void {
    for (let k = from; k < to; k += 1) this.place(given.player[k], given.placement[k]);
    // The worst of the placements kept: a replaced row no longer counts.
    for (let k = from; k < to; k += 1) {
      this.worst = Math.max(this.worst, this.placementOf(given.player[k])!);
    }
  }

  /** Placements from the event's games: wins (a draw half), then total score. */
  placeFromGames(facts: RankingFacts, games: Int32Array): void {
    const standings = new Map<number, StandingInput>();
    for (const g of games) {
      for (let r = 2 * g; r <= 2 * g + 1; r += 1) {
        const p = facts.player[r];
        let st = standings.get(p);
        if (st === undefined) {
          st = { player: p, wins: 0, draws: 0, score: 0 };
          standings.set(p, st);
        }
        if (facts.result[r] === 2) st.wins += 1;
        else if (facts.result[r] === 1) st.draws += 1;
        if (!Number.isNaN(facts.score[r])) st.score += facts.score[r];
      }
    }
    for (const [p, placement] of placementsFromGames([...standings.values()])) {
      this.place(p, placement);
      this.worst = Math.max(this.worst, placement);
    }
  }

  placementOf(p: number): number | undefined {
    return this.placementStamp[p] === this.stamp ? this.placement[p] : undefined;
  }

  private place(p: number, placement: number): void {
    if (this.placementStamp[p] !== this.stamp) {
      this.placementStamp[p] = this.stamp;
      this.placed += 1;
    }
    this.placement[p] = placement;
  }
}
