/**
 * One event's page (docs/statistics.md#events): its fields, its standings with each entry's
 * record, and its rounds with every pairing, result, score and list the data has.
 */
import { PLACEMENT_KEY_INFO, placementKeyValue, tieBreakers } from '../../domain/placement-keys.ts';
import { EVENT_FORMATS } from '../../domain/model.ts';
import type { PlacementKey } from '../../domain/model.ts';
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { PairedGame, PairedSide } from '../../domain/unplayed-game.ts';
import { factionRef } from '../entity-refs.ts';
import type { FactionRef } from '../entity-refs.ts';
import { playerRef } from '../ratings/leaderboard.ts';
import type { PlayerRef } from '../ratings/leaderboard.ts';
import { entryRef, eventEntries, eventInfo } from './event-facts.ts';
import type { EntryRef, EventInfo } from './event-facts.ts';
import { eventIndex } from './event-index.ts';
import { eventPairings } from './event-pairings.ts';
import { findPlayerIndex } from '../player-index.ts';
import { eventTeams } from './event-teams.ts';
import type { EventTeams } from './event-teams.ts';

export interface StandingRow extends EntryRef {
  placement: number | null;
  /** While the event is running: its place in the order so far (never a placement); else null. */
  currentPlace: number | null;
  /** The team the entry names; null when it names none. */
  team: string | null;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Sum of the entry's known game scores; null when none is known. */
  score: number | null;
  top: boolean;
  undefeated: boolean;
  /** Derived places, and fewer games than the most any player there played. */
  fewerGames: boolean;
  /** The entry's value on each of the event's tie-breakers, in their order; null unknown. */
  tieBreaks: (number | null)[];
}

export interface TieBreaker {
  key: PlacementKey;
  title: string;
}

export interface ListItem {
  name: string;
  category: string;
  picks: number;
}

export interface GameSide {
  player: PlayerRef | null;
  faction: FactionRef;
  /** Null while the game is paired but not played (docs/data-model.md#unplayed-games). */
  result: 'win' | 'draw' | 'loss' | null;
  score: number | null;
  list: ListItem[] | null;
}

export interface PairingRow {
  /** False while the game is paired but not played: no result, no score, no list. */
  played: boolean;
  /** The table, for a game not played yet; null otherwise (the columns keep no tables). */
  table: number | null;
  scenario: string | null;
  sides: [GameSide, GameSide];
}

export interface RoundRow {
  round: number | null;
  games: PairingRow[];
}

export interface EventPage {
  event: EventInfo;
  standings: StandingRow[];
  rounds: RoundRow[];
  /**
   * The tie-breakers the event's system declares that its source can give
   * (docs/statistics.md#tie-breakers); empty when it declares none.
   */
  tieBreakers: TieBreaker[];
  /** A team event's teams and team matches when its source gives teams; else null. */
  teams: EventTeams | null;
}

const RESULTS = ['loss', 'draw', 'win'] as const;

interface PlayerRecord {
  games: number;
  w: number;
  d: number;
  l: number;
  s: number | null;
  opponentWins: number;
  opponents: number;
  margin: number;
}

/**
 * Wins, draws, losses, games and known score per player over the event's side rows, with the
 * opponents' wins and the margin the tie-breakers read.
 */
function records(snapshot: Snapshot, e: number) {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  const byPlayer = new Map<number, PlayerRecord>();
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const p = snapshot.player[r];
    if (p < 0) continue;
    let rec = byPlayer.get(p);
    if (rec === undefined) {
      rec = { games: 0, w: 0, d: 0, l: 0, s: null, opponentWins: 0, opponents: 0, margin: 0 };
      byPlayer.set(p, rec);
    }
    rec.games++;
    const res = snapshot.result[r];
    if (res === RESULT_WIN) rec.w++;
    else if (res === RESULT_DRAW) rec.d++;
    else rec.l++;
    const score = snapshot.score[r];
    if (!Number.isNaN(score)) rec.s = (rec.s ?? 0) + score;
  }
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const rec = byPlayer.get(snapshot.player[r]);
    const other = byPlayer.get(snapshot.player[r ^ 1]);
    if (rec === undefined || other === undefined) continue;
    rec.opponentWins += other.w + other.d / 2;
    rec.opponents++;
    const d = snapshot.score[r] - snapshot.score[r ^ 1];
    if (!Number.isNaN(d)) rec.margin += d;
  }
  return byPlayer;
}

/** An entry's value on each tie-breaker; null where it needs scores the entry has none of. */
function tieBreakValues(keys: PlacementKey[], rec: PlayerRecord | undefined): (number | null)[] {
  if (rec === undefined) return keys.map(() => null);
  const record = { ...rec, wins: rec.w, draws: rec.d, score: rec.s ?? 0 };
  return keys.map((k) =>
    PLACEMENT_KEY_INFO[k].needsScores && rec.s === null ? null : placementKeyValue(k, record),
  );
}

function standingRows(
  snapshot: Snapshot,
  e: number,
  byPlayer: Map<number, PlayerRecord>,
  keys: PlacementKey[],
): StandingRow[] {
  const st = snapshot.standings;
  return eventEntries(snapshot, e).map((i) => {
    const rec = byPlayer.get(st.player[i]);
    return {
      placement: st.placement[i] > 0 ? st.placement[i] : null,
      currentPlace: st.current[i] > 0 ? st.current[i] : null,
      ...entryRef(snapshot, i),
      team: st.team[i] >= 0 ? snapshot.teams[st.team[i]] : null,
      games: rec?.games ?? 0,
      wins: rec?.w ?? 0,
      draws: rec?.d ?? 0,
      losses: rec?.l ?? 0,
      score: rec?.s ?? null,
      top: st.top[i] === 1,
      undefeated: st.undefeated[i] === 1,
      fewerGames: st.fewerGames[i] === 1,
      tieBreaks: tieBreakValues(keys, rec),
    };
  });
}

/** The items of list `l`, most picked first (then by name); null when the side has no list. */
function listOf(snapshot: Snapshot, l: number): ListItem[] | null {
  if (l < 0) return null;
  const items: ListItem[] = [];
  for (let k = snapshot.listStart[l]; k < snapshot.listStart[l + 1]; k++) {
    const item = snapshot.items[snapshot.listItems[k]];
    items.push({ name: item.name, category: item.category, picks: snapshot.listPicks[k] });
  }
  return items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function sideOf(snapshot: Snapshot, r: number): GameSide {
  const p = snapshot.player[r];
  const score = snapshot.score[r];
  return {
    player: p >= 0 ? playerRef(snapshot, p) : null,
    faction: factionRef(snapshot, snapshot.faction[r]),
    result: RESULTS[snapshot.result[r]],
    score: Number.isNaN(score) ? null : score,
    list: listOf(snapshot, snapshot.list[r]),
  };
}

/** A game paired but not played yet: its table, players and factions, nothing else. */
function pairedRow(snapshot: Snapshot, e: number, game: PairedGame): PairingRow {
  const system = snapshot.systems[snapshot.events.system[e]].id;
  const side = (s: PairedSide): GameSide => {
    const f = snapshot.factionIndex.get(`${system}\u0000${s.faction}`);
    const p = s.player === null ? -1 : findPlayerIndex(snapshot, s.player);
    return {
      player: p >= 0 ? playerRef(snapshot, p) : null,
      faction: f === undefined ? { id: s.faction, name: s.faction } : factionRef(snapshot, f),
      result: null,
      score: null,
      list: null,
    };
  };
  return {
    played: false,
    table: game.table,
    scenario: null,
    sides: [side(game.sides[0]), side(game.sides[1])],
  };
}

/** The event's games grouped by round (ascending; games of an unknown round last). */
function roundRows(snapshot: Snapshot, e: number): RoundRow[] {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  const scenarios = snapshot.scenarioDicts.scenario.values;
  const byRound = new Map<number, PairingRow[]>();
  for (let r = rowStart[e]; r < rowEnd[e]; r += 2) {
    const g = r >> 1;
    const round = snapshot.gameRound[g];
    let games = byRound.get(round);
    if (games === undefined) byRound.set(round, (games = []));
    const scenario = snapshot.gameScenario[g];
    games.push({
      played: true,
      table: null,
      scenario: scenario >= 0 ? scenarios[scenario] : null,
      sides: [sideOf(snapshot, r), sideOf(snapshot, r + 1)],
    });
  }
  for (const game of eventPairings(snapshot).get(e) ?? []) {
    const round = game.round ?? -1;
    let games = byRound.get(round);
    if (games === undefined) byRound.set(round, (games = []));
    games.push(pairedRow(snapshot, e, game));
  }
  const key = (round: number) => (round < 0 ? Number.MAX_SAFE_INTEGER : round);
  return [...byRound]
    .sort(([a], [b]) => key(a) - key(b))
    .map(([round, games]) => ({ round: round < 0 ? null : round, games }));
}

/** The page of event `e`. */
export function eventPage(snapshot: Snapshot, e: number): EventPage {
  const byPlayer = records(snapshot, e);
  const scored = [...byPlayer.values()].some((r) => r.s !== null);
  const rule = snapshot.systems[snapshot.events.system[e]].placementRule;
  // A team event places no player, so its players have nothing to break a tie of.
  const keys =
    EVENT_FORMATS[snapshot.events.format[e]] === 'teams' ? [] : tieBreakers(rule, scored);
  return {
    event: eventInfo(snapshot, e),
    standings: standingRows(snapshot, e, byPlayer, keys),
    rounds: roundRows(snapshot, e),
    tieBreakers: keys.map((key) => ({ key, title: PLACEMENT_KEY_INFO[key].title })),
    teams: eventTeams(snapshot, e),
  };
}
