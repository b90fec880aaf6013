/**
 * A player's own page (docs/ratings.md "A player's page"): their rating after each rated event,
 * as the leaderboard cut off at that event's start date would give it, and their record per
 * event and per faction. Pure over RankingFacts.
 */
import { methodOf } from './methods/index.ts';
import type { RankingParams } from './methods/index.ts';
import type { RankingFacts } from './ranking-facts.ts';

/** Games, wins, draws and losses of some sides. */
export interface WinDrawLoss {
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** The player after one rated event. */
export interface HistoryPoint extends WinDrawLoss {
  /** Event index. */
  event: number;
  date: string;
  rating: number;
  /** Glicko-2 only. */
  rd: number | null;
}

export interface PlayerHistory {
  points: HistoryPoint[];
  /** Per faction index: the player's record with it. */
  factions: Map<number, WinDrawLoss>;
}

const emptyRecord = (): WinDrawLoss => ({ games: 0, wins: 0, draws: 0, losses: 0 });

function addResult(record: WinDrawLoss, result: number): void {
  record.games += 1;
  if (result === 2) record.wins += 1;
  else if (result === 1) record.draws += 1;
  else record.losses += 1;
}

/** The player's counted sides per event (in event order) and per faction. */
function tallies(
  facts: RankingFacts,
  order: Int32Array,
  factions: ReadonlySet<number> | null,
  player: number,
) {
  const perEvent = new Map<number, WinDrawLoss>();
  const perFaction = new Map<number, WinDrawLoss>();
  for (const g of order) {
    for (const r of [2 * g, 2 * g + 1]) {
      if (facts.player[r] !== player) continue;
      const f = facts.faction[r];
      if (factions !== null && !factions.has(f)) continue;
      const e = facts.gameEvent[g];
      if (!perEvent.has(e)) perEvent.set(e, emptyRecord());
      if (!perFaction.has(f)) perFaction.set(f, emptyRecord());
      addResult(perEvent.get(e)!, facts.result[r]);
      addResult(perFaction.get(f)!, facts.result[r]);
    }
  }
  return { perEvent, perFaction };
}

/**
 * The player's rating after each event with a rated game of theirs in `order` (processing
 * order), oldest first, with their record there and per faction.
 */
export function playerHistory(
  facts: RankingFacts,
  order: Int32Array,
  params: RankingParams,
  factions: ReadonlySet<number> | null,
  player: number,
  asOf?: string,
): PlayerHistory {
  const { perEvent, perFaction } = tallies(facts, order, factions, player);
  const { method, own } = methodOf(params);
  const value = method.history(facts, order, own, factions, player, asOf);
  const points: HistoryPoint[] = [];
  for (const [event, record] of perEvent) {
    const date = facts.events[event].start;
    points.push({ event, date, ...value(event, date), ...record });
  }
  return { points, factions: perFaction };
}
