/**
 * Each player's record over their counted sides (docs/ratings.md#which-games-are-rated): games,
 * wins, draws, losses, distinct events, main faction and latest event, in typed arrays by player
 * index rather than one object, Set and Map per player.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { EventGroups } from './event-groups.ts';
import { eventStartRanks } from './event-start-ranks.ts';
import type { RankingFacts } from './ranking-facts.ts';

/**
 * Per-player faction counts: each player's factions in a linked list of entries kept in the
 * order first played (the order breaks the last ties of `main`), in typed arrays that grow.
 */
class FactionCounts {
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  /** The entry of the player's latest side: most sides repeat it, so it is tried first. */
  private readonly recent: Int32Array;
  private faction: Int32Array = new Int32Array(1024);
  private count: Int32Array = new Int32Array(1024);
  private next: Int32Array = new Int32Array(1024);
  private size = 0;

  constructor(players: number) {
    this.head = new Int32Array(players).fill(-1);
    this.tail = new Int32Array(players).fill(-1);
    this.recent = new Int32Array(players).fill(-1);
  }

  add(player: number, faction: number): void {
    const recent = this.recent[player];
    if (recent >= 0 && this.faction[recent] === faction) {
      this.count[recent] += 1;
      return;
    }
    let k = this.head[player];
    while (k >= 0 && this.faction[k] !== faction) k = this.next[k];
    if (k < 0) k = this.append(player, faction);
    this.count[k] += 1;
    this.recent[player] = k;
  }

  /** A new entry (count 0) at the end of the player's list. */
  private append(player: number, faction: number): number {
    if (this.size === this.faction.length) this.grow();
    const entry = this.size++;
    this.faction[entry] = faction;
    this.next[entry] = -1;
    const last = this.tail[player];
    if (last >= 0) this.next[last] = entry;
    else this.head[player] = entry;
    this.tail[player] = entry;
    return entry;
  }

  private grow(): void {
    const larger = (from: Int32Array): Int32Array => {
      const to = new Int32Array(2 * from.length);
      to.set(from);
      return to;
    };
    this.faction = larger(this.faction);
    this.count = larger(this.count);
    this.next = larger(this.next);
  }

  /**
   * The faction of most of the player's sides, ties to the lowest faction id, then to the one
   * played first; -1 when none (docs/ratings.md#which-games-are-rated, `mainFaction`).
   */
  main(player: number, factionIds: readonly string[]): number {
    let best = -1;
    let bestCount = 0;
    for (let k = this.head[player]; k >= 0; k = this.next[k]) {
      const faction = this.faction[k];
      const count = this.count[k];
      if (
        count > bestCount ||
        (count === bestCount && best >= 0 && (factionIds[faction] ?? '') < (factionIds[best] ?? ''))
      ) {
        best = faction;
        bestCount = count;
      }
    }
    return best;
  }
}

/** The records of the players listed so far, by player index. */
export class PlayerTallies {
  readonly games: Int32Array;
  readonly wins: Int32Array;
  readonly draws: Int32Array;
  readonly losses: Int32Array;
  readonly events: Int32Array;
  /** Start rank (eventStartRanks) of the player's latest event; -1 when none. */
  readonly lastStart: Int32Array;
  /** The players listed, in the order first listed. */
  readonly listed: number[] = [];
  private readonly factions: FactionCounts;
  private readonly isListed: Uint8Array;

  constructor(players: number) {
    this.games = new Int32Array(players);
    this.wins = new Int32Array(players);
    this.draws = new Int32Array(players);
    this.losses = new Int32Array(players);
    this.events = new Int32Array(players);
    this.lastStart = new Int32Array(players).fill(-1);
    this.factions = new FactionCounts(players);
    this.isListed = new Uint8Array(players);
  }

  /** Lists the player (with an empty record until sides are added). */
  list(player: number): void {
    if (this.isListed[player] === 1) return;
    this.isListed[player] = 1;
    this.listed.push(player);
  }

  /** Adds one counted side: `result` in half points (2 win, 1 draw, anything else a loss). */
  addSide(player: number, faction: number, result: number, startRank: number): void {
    this.list(player);
    this.games[player] += 1;
    if (result === 2) this.wins[player] += 1;
    else if (result === 1) this.draws[player] += 1;
    else this.losses[player] += 1;
    this.factions.add(player, faction);
    if (startRank > this.lastStart[player]) this.lastStart[player] = startRank;
  }

  /** The player's main faction: see FactionCounts.main. */
  mainFaction(player: number, factionIds: readonly string[]): number {
    return this.factions.main(player, factionIds);
  }
}

/**
 * The records over the sides of `order` (processing order) whose faction `inScope` accepts;
 * `groups` is the same games grouped by event, to count each player's distinct events.
 */
export function playerTallies(
  facts: RankingFacts,
  order: ArrayLike<number>,
  groups: EventGroups,
  inScope: (faction: number) => boolean,
): PlayerTallies {
  const tallies = new PlayerTallies(facts.players);
  const { rank } = eventStartRanks(facts);
  const { gameEvent, player, faction, result } = facts;
  // Processing order: each player's factions are then kept in the order first played.
  for (let i = 0; i < order.length; i += 1) {
    throwIfCancelledEvery(i);
    const g = order[i];
    const startRank = rank[gameEvent[g]];
    for (let r = 2 * g; r <= 2 * g + 1; r += 1) {
      if (inScope(faction[r])) tallies.addSide(player[r], faction[r], result[r], startRank);
    }
  }
  countEvents(facts, groups, inScope, tallies.events);
  return tallies;
}

/** Adds each player's distinct events with a counted side: one stamp per player and event. */
function countEvents(
  facts: RankingFacts,
  groups: EventGroups,
  inScope: (faction: number) => boolean,
  events: Int32Array,
): void {
  const { player, faction } = facts;
  const stamp = new Int32Array(facts.players).fill(-1);
  for (const e of groups.events) {
    for (let i = groups.start[e]; i < groups.start[e + 1]; i += 1) {
      throwIfCancelledEvery(i);
      const g = groups.games[i];
      for (let r = 2 * g; r <= 2 * g + 1; r += 1) {
        const p = player[r];
        if (stamp[p] !== e && inScope(faction[r])) {
          stamp[p] = e;
          events[p] += 1;
        }
      }
    }
  }
}
