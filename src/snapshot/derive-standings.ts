/**
 * Standings per event (docs/statistics.md#standings): the published placements when an
 * event has any, else derived from its games by its system's placing rule (ties share a place),
 * else none; a team event has no individual placings. With the top-10% and undefeated marks.
 * A running event has no placings yet: its order so far is its current places instead.
 */
import type { PlacementRule } from '../domain/model.ts';
import { compareByRule } from '../domain/placement-keys.ts';
import type { StandingRecord } from '../domain/placement-keys.ts';
import { TypedColumn } from '../domain/typed-column.ts';
import {
  PLACEMENTS_DERIVED,
  PLACEMENTS_NONE,
  PLACEMENTS_PUBLISHED,
  RESULT_DRAW,
  RESULT_LOSS,
  RESULT_WIN,
} from './snapshot.ts';
import type { SnapshotStandings } from './snapshot.ts';
import type { PairedGame } from '../domain/unplayed-game.ts';

/** An entry's placement when it has none. */
export const NO_PLACEMENT = -0x80000000;

/** The entries of the kept events, as columns in arrival order. */
export interface StandingEntries {
  readonly count: number;
  readonly event: Int32Array;
  /** Player index. */
  readonly player: Int32Array;
  /** Faction index, -1 when the entry names none. */
  readonly faction: Int32Array;
  /** NO_PLACEMENT when none was published. */
  readonly placement: Int32Array;
  /** Index into the snapshot's `teams`, -1 when the entry names no team. */
  readonly team: Int32Array;
}

/** The side columns the standings read. */
export interface StandingSides {
  rowEvent: Int32Array;
  faction: Int32Array;
  player: Int32Array;
  score: Float64Array;
  result: Uint8Array;
}

/** What each event's standings follow: whether it is a team event, its system's placing rule. */
export interface StandingRules {
  /** Per event: 1 for a team event (format teams). */
  readonly team: Uint8Array;
  /** Per event: its system's placing rule, null when the system declares none. */
  readonly rule: readonly (PlacementRule | null)[];
  /** Per event: the entrants the source declares, -1 (or 0) when it declares none. */
  readonly participants?: Int32Array;
  /** Per event: 1 while it has games paired but not played (docs/data-model.md#unplayed-games). */
  readonly running?: Uint8Array;
}

/** Per event of `count` (indexed by `eventIndex`): 1 where a game of `pairings` is still to play. */
export function runningEvents(
  count: number,
  pairings: readonly PairedGame[],
  eventIndex: ReadonlyMap<string, number>,
): Uint8Array {
  const running = new Uint8Array(count);
  for (const g of pairings) {
    const e = eventIndex.get(g.event);
    if (e !== undefined) running[e] = 1;
  }
  return running;
}

/**
 * The share of the declared entrants that must have games, and of the games the players with
 * games would have played that must be recorded, before places are derived
 * (docs/statistics.md#standings).
 */
export const DERIVE_COVERAGE = 0.75;

/**
 * Whether an event's games are there to derive places from (docs/statistics.md#standings): at
 * least three quarters of the declared entrants (where a count is declared, and not below the
 * players seen) have games, and at least three quarters of the games those players would have
 * played (players x the most games any of them played / 2) are recorded.
 */
export function coverageAllowsDerivation(
  declared: number,
  playersWithGames: number,
  mostGames: number,
  games: number,
): boolean {
  if (playersWithGames === 0) return false;
  if (declared > playersWithGames && playersWithGames < DERIVE_COVERAGE * declared) return false;
  return games >= (DERIVE_COVERAGE * playersWithGames * mostGames) / 2;
}

/** Indexes 0..n-1 grouped by `key[i]` (0..keys-1), in order within a group (a counting sort). */
function groupBy(
  key: Int32Array,
  n: number,
  keys: number,
): { start: Int32Array; order: Int32Array } {
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < n; i++) start[key[i] + 1]++;
  for (let k = 0; k < keys; k++) start[k + 1] += start[k];
  const fill = start.slice(0, keys);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[fill[key[i]]++] = i;
  return { start, order };
}

/** One event's rows, reused from event to event: a row per player, in the order first met. */
class EventRows {
  n = 0;
  player = new Int32Array(256);
  faction = new Int32Array(256);
  placement = new Int32Array(256);
  team = new Int32Array(256);
  wins = new Int32Array(256);
  draws = new Int32Array(256);
  losses = new Int32Array(256);
  games = new Int32Array(256);
  score = new Float64Array(256);
  /** Games per faction, in the order first played, of the rows that name no faction. */
  factionGames = new Map<number, Map<number, number>>();

  add(player: number, faction: number, placement: number, team: number): number {
    if (this.n === this.player.length) this.grow();
    const i = this.n++;
    this.player[i] = player;
    this.faction[i] = faction;
    this.placement[i] = placement;
    this.team[i] = team;
    this.wins[i] = this.draws[i] = this.losses[i] = this.games[i] = 0;
    this.score[i] = 0;
    return i;
  }

  private grow(): void {
    const size = this.player.length * 2;
    for (const name of [
      'player',
      'faction',
      'placement',
      'team',
      'wins',
      'draws',
      'losses',
      'games',
    ] as const) {
      const grown = new Int32Array(size);
      grown.set(this[name]);
      this[name] = grown;
    }
    const score = new Float64Array(size);
    score.set(this.score);
    this.score = score;
  }

  /** An entry that names no faction stands with the faction of most of its games. */
  fillMainFactions(): void {
    for (const [row, games] of this.factionGames) {
      if (this.faction[row] >= 0) continue;
      let best = -1;
      let bestGames = 0;
      for (const [f, n] of games) {
        if (n > bestGames) {
          best = f;
          bestGames = n;
        }
      }
      this.faction[row] = best;
    }
  }

  /** Adds the event's side rows `sides[from .. to)` to the rows of their players. */
  countGames(
    sides: ArrayLike<number>,
    from: number,
    to: number,
    s: StandingSides,
    slot: Int32Array,
  ) {
    for (let k = from; k < to; k++) {
      const r = sides[k];
      const p = s.player[r];
      if (p < 0) continue;
      let row = slot[p];
      if (row < 0) slot[p] = row = this.add(p, -1, -1, -1);
      this.games[row]++;
      if (s.result[r] === RESULT_WIN) this.wins[row]++;
      else if (s.result[r] === RESULT_DRAW) this.draws[row]++;
      else if (s.result[r] === RESULT_LOSS) this.losses[row]++;
      if (!Number.isNaN(s.score[r])) this.score[row] += s.score[r];
      if (this.faction[row] < 0) {
        let games = this.factionGames.get(row);
        if (games === undefined) this.factionGames.set(row, (games = new Map()));
        games.set(s.faction[r], (games.get(s.faction[r]) ?? 0) + 1);
      }
    }
  }

  /**
   * Each row's record on the rule's keys: its wins and score, and over the event's side rows
   * `sides` (a game's two sides are rows 2g and 2g + 1) its opponents' wins and its margin.
   */
  records(sides: ArrayLike<number>, from: number, to: number, s: StandingSides, slot: Int32Array) {
    const recs: StandingRecord[] = Array.from({ length: this.n }, (_, i) => ({
      wins: this.wins[i],
      draws: this.draws[i],
      score: this.score[i],
      opponentWins: 0,
      opponents: 0,
      margin: 0,
    }));
    for (let k = from; k < to; k++) {
      const r = sides[k];
      const own = s.player[r] >= 0 ? slot[s.player[r]] : -1;
      const other = s.player[r ^ 1] >= 0 ? slot[s.player[r ^ 1]] : -1;
      if (own < 0 || other < 0) continue;
      recs[own].opponentWins += this.wins[other] + this.draws[other] / 2;
      recs[own].opponents++;
      const d = s.score[r] - s.score[r ^ 1];
      if (!Number.isNaN(d)) recs[own].margin += d;
    }
    return recs;
  }

  /** No published standings: rank by the rule's keys in order; rows equal on all share a place. */
  placeByRule(rule: PlacementRule, recs: StandingRecord[]): number[] {
    const rows = Array.from({ length: this.n }, (_, i) => i);
    const { player, placement } = this;
    const compare = (a: number, b: number): number => compareByRule(rule, recs[a], recs[b]);
    rows.sort((a, b) => compare(a, b) || player[a] - player[b]);
    rows.forEach((row, i) => {
      const prev = rows[i - 1];
      placement[row] = i > 0 && compare(prev, row) === 0 ? placement[prev] : i + 1;
    });
    return rows;
  }

  /** Players with games, the most games one played, and the sum of their games (two a game). */
  coverage(): { withGames: number; most: number; sideGames: number } {
    let withGames = 0;
    let most = 0;
    let sideGames = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.games[i] > 0) withGames++;
      most = Math.max(most, this.games[i]);
      sideGames += this.games[i];
    }
    return { withGames, most, sideGames };
  }

  /** Placings the event may not have (a team event's, or none to derive): cleared. */
  clearPlacements(): void {
    this.placement.fill(-1, 0, this.n);
  }
}

/** What an event's rows are written with: whether it runs, its coverage, its places' source. */
interface EventMarks {
  running: boolean;
  /** Whether its games are there by the coverage rule (docs/statistics.md#standings). */
  complete: boolean;
  /** The most games one player played there. */
  most: number;
  /** Whether its order is derived by its system's rule. */
  derived: boolean;
}

/** The standings' row columns, written event by event. */
class StandingColumns {
  private readonly event = new TypedColumn(Int32Array);
  private readonly player = new TypedColumn(Int32Array);
  private readonly faction = new TypedColumn(Int32Array);
  private readonly placement = new TypedColumn(Int32Array);
  private readonly current = new TypedColumn(Int32Array);
  private readonly team = new TypedColumn(Int32Array);
  private readonly top = new TypedColumn(Uint8Array);
  private readonly undefeated = new TypedColumn(Uint8Array);
  private readonly fewerGames = new TypedColumn(Uint8Array);

  /** Event `e`'s rows, in `order` (else as they are), with their marks. */
  pushEvent(e: number, rows: EventRows, order: number[] | null, marks: EventMarks): void {
    const { running, complete, most, derived } = marks;
    let placed = 0;
    for (let i = 0; i < rows.n; i++) if (rows.placement[i] > 0) placed++;
    const topCut = Math.ceil(placed / 10);
    for (let k = 0; k < rows.n; k++) {
      const i = order === null ? k : order[k];
      const place = rows.placement[i];
      // A running event's order is where its players stand now, not where they finish: no
      // statistic, ranking or winner may read it as a placing (docs/statistics.md#running-events).
      const placement = running ? -1 : place;
      this.event.push(e);
      this.player.push(rows.player[i]);
      this.faction.push(rows.faction[i]);
      this.placement.push(placement);
      this.current.push(running ? place : -1);
      this.team.push(rows.team[i]);
      this.top.push(placement > 0 && placement <= topCut ? 1 : 0);
      // An entry that dropped (or whose games the source lacks) did not go through unbeaten, and
      // in an event still running nobody has gone through it yet.
      const unbeaten = complete && !running && rows.games[i] === most && rows.losses[i] === 0;
      this.undefeated.push(unbeaten ? 1 : 0);
      // Ranked on a total over fewer games than the others played: marked, not hidden.
      this.fewerGames.push(derived && rows.games[i] < most ? 1 : 0);
    }
  }

  columns() {
    return {
      count: this.event.length,
      event: this.event.done(),
      player: this.player.done(),
      faction: this.faction.done(),
      placement: this.placement.done(),
      current: this.current.done(),
      team: this.team.done(),
      top: this.top.done(),
      undefeated: this.undefeated.done(),
      fewerGames: this.fewerGames.done(),
    };
  }
}

/** The standings of every event, event by event. */
export function deriveStandings(
  nEvents: number,
  entries: StandingEntries,
  nPlayers: number,
  sides: StandingSides,
  rules: StandingRules,
): SnapshotStandings {
  const byEvent = groupBy(entries.event, entries.count, nEvents);
  const { rowEvent } = sides;
  const rowsByEvent = groupBy(rowEvent, rowEvent.length, nEvents);
  // Row of each player in the current event, -1 when none: reset after each event.
  const slot = new Int32Array(nPlayers).fill(-1);
  const rows = new EventRows();
  const out = new StandingColumns();
  const eventPlacements = new Uint8Array(nEvents);
  const eventCurrent = new Uint8Array(nEvents);
  const eventWithheld = new Uint8Array(nEvents);
  const eventGamePlayers = new Int32Array(nEvents);
  const eventGames = new Float64Array(nEvents);
  const eventMostGames = new Int32Array(nEvents);
  for (let e = 0; e < nEvents; e++) {
    rows.n = 0;
    rows.factionGames.clear();
    let published = false;
    for (let k = byEvent.start[e]; k < byEvent.start[e + 1]; k++) {
      const i = byEvent.order[k];
      const p = entries.player[i];
      const placement = entries.placement[i] === NO_PLACEMENT ? -1 : entries.placement[i];
      if (entries.placement[i] !== NO_PLACEMENT) published = true;
      // Two entries of one player (ids that differ only in spaces): the later one stands, in
      // the place of the first.
      if (slot[p] >= 0) {
        rows.faction[slot[p]] = entries.faction[i];
        rows.placement[slot[p]] = placement;
        rows.team[slot[p]] = entries.team[i];
      } else slot[p] = rows.add(p, entries.faction[i], placement, entries.team[i]);
    }
    rows.countGames(rowsByEvent.order, rowsByEvent.start[e], rowsByEvent.start[e + 1], sides, slot);
    if (rows.n === 0) continue;
    const rule = rules.rule[e];
    const running = rules.running?.[e] === 1;
    // A running event stands as its rule ranks the games played: placings a source gives before
    // the last game is played are not its order so far (docs/statistics.md#running-events).
    const byRule = rule !== null && rules.team[e] !== 1 && (!published || running);
    const recs = !byRule
      ? null
      : rows.records(
          rowsByEvent.order,
          rowsByEvent.start[e],
          rowsByEvent.start[e + 1],
          sides,
          slot,
        );
    for (let i = 0; i < rows.n; i++) slot[rows.player[i]] = -1;
    rows.fillMainFactions();
    const { withGames, most, sideGames } = rows.coverage();
    eventGamePlayers[e] = withGames;
    eventMostGames[e] = most;
    eventGames[e] = sideGames / 2;
    const declared = rules.participants?.[e] ?? -1;
    // Whether the source holds enough of the event's games to say who went through it unbeaten
    // (or, with a rule, to place it): the rule of docs/statistics.md#standings.
    const complete = coverageAllowsDerivation(declared, withGames, most, sideGames / 2);
    let order: number[] | null = null;
    if (rules.team[e] === 1) rows.clearPlacements();
    else if (byRule) {
      if (complete) {
        order = rows.placeByRule(rule, recs!);
        eventPlacements[e] = PLACEMENTS_DERIVED;
      } else eventWithheld[e] = 1;
    } else if (published) eventPlacements[e] = PLACEMENTS_PUBLISHED;
    if (eventPlacements[e] === PLACEMENTS_NONE) rows.clearPlacements();
    const source = eventPlacements[e];
    // A running event has no places yet: its order is kept as its current places.
    if (running) {
      eventCurrent[e] = source;
      eventPlacements[e] = PLACEMENTS_NONE;
    }
    out.pushEvent(e, rows, order, {
      running,
      complete,
      most,
      derived: source === PLACEMENTS_DERIVED,
    });
  }
  return {
    ...out.columns(),
    eventPlacements,
    eventCurrent,
    eventWithheld,
    eventGamePlayers,
    eventGames,
    eventMostGames,
  };
}
