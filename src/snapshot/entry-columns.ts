/**
 * The entries of a snapshot being built (one per player per event), kept as codes in typed
 * columns while the games are read: at ten million games four million entries held as row
 * arrays and strings made garbage collection a fifth of the load
 * (docs/architecture.md#the-snapshot-and-its-lifecycle).
 */
import { TypedColumn } from '../domain/typed-column.ts';
import type { EntryRow } from '../store/read-facts.ts';
import { NO_PLACEMENT } from './derive-standings.ts';
import type { StandingEntries } from './derive-standings.ts';
import type { DictionaryBuilder } from './dictionary.ts';
import { remapCodes } from './snapshot-part.ts';

/** A string's code in first-seen order. */
class Codes {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}

export class EntryColumns {
  private readonly event = new TypedColumn(Int32Array);
  private readonly player = new TypedColumn(Int32Array);
  /** -1 when the entry names no faction. */
  private readonly faction = new TypedColumn(Int32Array);
  private readonly placement = new TypedColumn(Int32Array);
  /** Code in `teams`, -1 when the entry names no team. */
  private readonly team = new TypedColumn(Int32Array);
  /** The team names the entries give, in first-seen order (the snapshot's `teams`). */
  readonly teams = new Codes();
  private readonly playerIds = new Codes();
  /** `${system id}\u0000${faction id}`, the key of SnapshotBuilder's faction index. */
  private readonly factionKeys = new Codes();
  /** Per event index: player id -> list id of the entry (a list kept all event). */
  private readonly lists: Array<Map<string, string> | undefined> = [];

  /**
   * Adds a page of entries; `eventOf` gives an event id's index and system id, or undefined for
   * an event the snapshot does not hold (its entries are dropped).
   */
  add(
    entries: readonly EntryRow[],
    eventOf: (id: string) => { index: number; system: string } | undefined,
  ): void {
    for (const [eventId, playerId, factionId, placement, listId, team] of entries) {
      const event = eventOf(eventId);
      if (event === undefined) continue;
      const e = event.index;
      this.event.push(e);
      this.player.push(this.playerIds.code(playerId));
      this.faction.push(
        factionId === null ? -1 : this.factionKeys.code(`${event.system}\u0000${factionId}`),
      );
      this.placement.push(placement ?? NO_PLACEMENT);
      this.team.push(team === null || team === undefined ? -1 : this.teams.code(team));
      if (listId !== null) {
        let lists = this.lists[e];
        if (lists === undefined) this.lists[e] = lists = new Map();
        lists.set(playerId, listId);
      }
    }
  }

  /** The list a player's entry at event `e` names, or null. */
  listOf(e: number, playerId: string): string | null {
    return this.lists[e]?.get(playerId) ?? null;
  }

  /**
   * The entries with their player and faction as indexes. The entries' players join `players`
   * in the order first met, as adding them entry by entry would.
   */
  standings(
    players: DictionaryBuilder,
    factionIndex: ReadonlyMap<string, number>,
  ): StandingEntries {
    const playerOf = Int32Array.from(this.playerIds.values, (id) => players.add(id));
    const factionOf = Int32Array.from(
      this.factionKeys.values,
      (key) => factionIndex.get(key) ?? -1,
    );
    const count = this.event.length;
    return {
      count,
      event: this.event.data,
      player: remapCodes(this.player.data, count, playerOf),
      faction: remapCodes(this.faction.data, count, factionOf),
      placement: this.placement.data,
      team: this.team.data,
    };
  }
}
