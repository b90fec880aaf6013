/**
 * Standings per event (docs/statistics.md#standings): the published placements when an
 * event has any, else derived from its games (wins, then total score; ties share a place), with
 * the top-10% and undefeated marks.
 */
import type { DictionaryBuilder } from './dictionary.ts';
import { RESULT_LOSS, RESULT_WIN } from './snapshot.ts';
import type { SnapshotStandings } from './snapshot.ts';

/** One entry of one event, as read from the store (src/store/read-facts.ts EntryRow). */
export interface StandingEntry {
  event: number;
  playerId: string;
  /** Faction index, -1 when the entry names none. */
  faction: number;
  placement: number | null;
}

/** The side columns the standings read. */
export interface StandingSides {
  rowEvent: Int32Array;
  faction: Int32Array;
  player: Int32Array;
  score: Float64Array;
  result: Uint8Array;
}

interface Row {
  player: number;
  faction: number;
  placement: number;
  wins: number;
  losses: number;
  games: number;
  score: number;
  factionGames: Map<number, number>;
}

const newRow = (player: number, faction: number, placement: number): Row => ({
  player,
  faction,
  placement,
  wins: 0,
  losses: 0,
  games: 0,
  score: 0,
  factionGames: new Map(),
});

/** Each event's rows, from its entries and then its games; players join their dictionary. */
function collectRows(
  nEvents: number,
  entries: readonly StandingEntry[],
  players: DictionaryBuilder,
  sides: StandingSides,
): { perEvent: Array<Map<number, Row>>; hasPlacement: Uint8Array } {
  const perEvent: Array<Map<number, Row>> = Array.from({ length: nEvents }, () => new Map());
  const hasPlacement = new Uint8Array(nEvents);
  for (const entry of entries) {
    const p = players.add(entry.playerId);
    perEvent[entry.event].set(p, newRow(p, entry.faction, entry.placement ?? -1));
    if (entry.placement !== null) hasPlacement[entry.event] = 1;
  }
  const { rowEvent, faction, player, score, result } = sides;
  for (let r = 0; r < rowEvent.length; r++) {
    const p = player[r];
    if (p < 0) continue;
    const map = perEvent[rowEvent[r]];
    let row = map.get(p);
    if (row === undefined) map.set(p, (row = newRow(p, -1, -1)));
    row.games++;
    if (result[r] === RESULT_WIN) row.wins++;
    else if (result[r] === RESULT_LOSS) row.losses++;
    if (!Number.isNaN(score[r])) row.score += score[r];
    row.factionGames.set(faction[r], (row.factionGames.get(faction[r]) ?? 0) + 1);
  }
  return { perEvent, hasPlacement };
}

/** An entry that names no faction stands with the faction of most of its games. */
function fillMainFaction(row: Row): void {
  if (row.faction >= 0) return;
  let best = -1;
  let bestGames = 0;
  for (const [f, n] of row.factionGames) {
    if (n > bestGames) {
      best = f;
      bestGames = n;
    }
  }
  row.faction = best;
}

/** No published standings (T9A): rank by wins, then total score; ties share a place. */
function placeByGames(rows: Row[]): void {
  rows.sort((a, b) => b.wins - a.wins || b.score - a.score || a.player - b.player);
  rows.forEach((row, i) => {
    const prev = rows[i - 1];
    row.placement =
      i > 0 && prev.wins === row.wins && prev.score === row.score ? prev.placement : i + 1;
  });
}

/** The standings of every event, event by event. */
export function deriveStandings(
  nEvents: number,
  entries: readonly StandingEntry[],
  players: DictionaryBuilder,
  sides: StandingSides,
): SnapshotStandings {
  const { perEvent, hasPlacement } = collectRows(nEvents, entries, players, sides);
  const out = {
    event: [] as number[],
    player: [] as number[],
    faction: [] as number[],
    placement: [] as number[],
    top: [] as number[],
    undefeated: [] as number[],
  };
  for (let e = 0; e < nEvents; e++) {
    const rows = [...perEvent[e].values()];
    if (rows.length === 0) continue;
    rows.forEach(fillMainFaction);
    if (!hasPlacement[e]) placeByGames(rows);
    const placed = rows.filter((r) => r.placement > 0).length;
    const topCut = Math.ceil(placed / 10);
    for (const row of rows) {
      out.event.push(e);
      out.player.push(row.player);
      out.faction.push(row.faction);
      out.placement.push(row.placement);
      out.top.push(row.placement > 0 && row.placement <= topCut ? 1 : 0);
      out.undefeated.push(row.games > 0 && row.losses === 0 ? 1 : 0);
    }
  }
  return {
    count: out.event.length,
    event: Int32Array.from(out.event),
    player: Int32Array.from(out.player),
    faction: Int32Array.from(out.faction),
    placement: Int32Array.from(out.placement),
    top: Uint8Array.from(out.top),
    undefeated: Uint8Array.from(out.undefeated),
  };
}
