/**
 * Builds a Snapshot from fact rows (src/store/read-facts.ts shapes), page by page, so the loader
 * and the benchmark share one code path. Games are reordered by system, start day, event,
 * round and arrival order (game id order) at the end (src/snapshot/game-order.ts).
 */
import { ITEM_KINDS } from '../domain/item-kinds.ts';
import type { ItemKind } from '../domain/item-kinds.ts';
import type { PairedGame } from '../domain/unplayed-game.ts';
import type { EventRecord } from '../domain/event-record.ts';
import { EVENT_FORMATS, SCENARIO_KINDS } from '../domain/model.ts';
import type { ScenarioKind } from '../domain/model.ts';
import { TypedColumn } from '../domain/typed-column.ts';
import type {
  EntryRow,
  EventFact,
  FactionFact,
  GamePage,
  GameRow,
  ListItemPage,
  ScenarioFact,
  SideRow,
  SystemFact,
} from '../store/read-facts.ts';
import type { PlayerRecord } from '../store/read-events.ts';
import { DictionaryBuilder, foldKey } from './dictionary.ts';
import { deriveStandings, runningEvents } from './derive-standings.ts';
import { EntryColumns } from './entry-columns.ts';
import { buildEventColumns, fillUndeclaredRounds } from './event-columns.ts';
import {
  addCached,
  parseBands,
  parsePlacementRule,
  parseTeamRule,
  parseSecondaries,
  resultCode,
} from './fact-values.ts';
import { gameOrder } from './game-order.ts';
import { buildLists } from './list-columns.ts';
import { ArrivalBuilder } from './arrival-builder.ts';
import { reorderGameColumns, reorderSideColumns } from './reorder-games.ts';
import type { SnapshotPart } from './snapshot-part.ts';
import { typedArrayBytes } from './snapshot.ts';
import type { Snapshot, SnapshotFaction, SnapshotItem, SnapshotSystem } from './snapshot.ts';
import { pairedAsMerged, snapshotMerges } from './merged-players.ts';

const int32s = () => new TypedColumn(Int32Array);

export class SnapshotBuilder {
  private readonly systems: SnapshotSystem[] = [];
  private readonly systemIndex = new Map<string, number>();
  private readonly factions: SnapshotFaction[] = [];
  private readonly factionIndex = new Map<string, number>();
  /** Per system index: raw faction id -> faction index (factionIndex without building keys). */
  private readonly factionsBySystem: Array<Map<string, number>> = [];
  private readonly players = new DictionaryBuilder(false);
  private readonly countries = new DictionaryBuilder();
  private readonly rulesVersions = new DictionaryBuilder();
  private readonly dicts: Record<ScenarioKind, DictionaryBuilder> = {
    scenario: new DictionaryBuilder(),
    map: new DictionaryBuilder(),
    deployment: new DictionaryBuilder(),
    primary: new DictionaryBuilder(),
    secondary: new DictionaryBuilder(),
  };
  private readonly descriptions = new Map<string, string | null>();
  private readonly eventFacts: EventFact[] = [];
  private readonly eventIndex = new Map<string, number>();
  private readonly entries = new EntryColumns();
  private readonly listIndex = new Map<string, number>();
  /** Raw text -> id caches in front of the scenario-part dictionaries and the players. */
  private readonly partCaches = [0, 1, 2, 3, 4].map(() => new Map<string, number>());
  private readonly playerCache = new Map<string, number>();

  /** Per game and per side, arrival order. */
  private readonly arrival = new ArrivalBuilder();

  // List incidence pairs, arrival order.
  private readonly incList = int32s();
  private readonly incItem = int32s();
  private readonly items: SnapshotItem[] = [];
  private readonly itemIndex = new Map<string, number>();
  /** Per kind, raw category -> raw name -> item, in front of the folded itemIndex. */
  private readonly itemCache = new Map<ItemKind, Map<string, Map<string, number>>>(
    ITEM_KINDS.map((kind) => [kind, new Map()]),
  );
  private directory = new Map<string, PlayerRecord>();
  /** Merged player id -> the id it counts as (docs/data-model.md#player-merges). */
  private merged: ReadonlyMap<string, string> = new Map();
  private calendar: EventRecord[] = [];
  private pairings: PairedGame[] = [];

  constructor(
    systems: readonly SystemFact[],
    factions: readonly FactionFact[],
    scenarios: readonly ScenarioFact[],
    events: readonly EventFact[],
  ) {
    for (const s of systems) {
      this.systemIndex.set(s.id, this.systems.length);
      this.factionsBySystem.push(new Map());
      this.systems.push({
        id: s.id,
        name: s.name,
        scoreMin: s.score_min === null ? null : Number(s.score_min),
        scoreMax: s.score_max === null ? null : Number(s.score_max),
        scoreTotal: s.score_total === null ? null : Number(s.score_total),
        marginBands: parseBands(s.margin_bands),
        demo: Number(s.demo) === 1,
        placementRule: parsePlacementRule(s.placement_rule),
        teamRule: parseTeamRule(s.team_rule),
        rowStart: 0,
        rowEnd: 0,
        factions: [],
      });
    }
    for (const f of factions) this.addFaction(f.system_id, f.id, f.name, f.parent_id);
    for (const s of scenarios) {
      if (!(SCENARIO_KINDS as readonly string[]).includes(s.kind)) continue;
      this.dicts[s.kind as ScenarioKind].add(s.name);
      this.descriptions.set(`${s.system_id}\u0000${s.kind}\u0000${foldKey(s.name)}`, s.description);
    }
    for (const e of events) {
      if (!this.systemIndex.has(e.system_id)) continue;
      this.eventIndex.set(e.id, this.eventFacts.length);
      this.eventFacts.push(e);
    }
  }

  /** Standing merges, merged id -> kept id: a merged id's rows count as the kept id's. First. */
  setMerges(merged: ReadonlyMap<string, string>): void {
    this.merged = merged;
  }

  private keepOf(id: string): string {
    return this.merged.get(id) ?? id;
  }

  /** Adds a page of entries (one per player per event); call it before the games. */
  addEntries(page: readonly EntryRow[]): void {
    const entries =
      this.merged.size === 0
        ? page
        : page.map((row): EntryRow => [row[0], this.keepOf(row[1]), ...row.slice(2)] as never);
    this.entries.add(entries, (id) => {
      const index = this.eventIndex.get(id);
      return index === undefined ? undefined : { index, system: this.eventFacts[index].system_id };
    });
  }

  private addFaction(system: string, id: string, name: string, parent: string | null): number {
    const sys = this.systemIndex.get(system);
    if (sys === undefined) return -1;
    return this.addSystemFaction(sys, id, name, parent);
  }

  private addSystemFaction(sys: number, id: string, name: string, parent: string | null): number {
    const bySystem = this.factionsBySystem[sys];
    let index = bySystem.get(id);
    if (index !== undefined) return index;
    index = this.factions.length;
    this.factions.push({ id, name, system: sys, parent });
    this.factionIndex.set(`${this.systems[sys].id}\u0000${id}`, index);
    bySystem.set(id, index);
    this.systems[sys].factions.push(index);
    return index;
  }

  private listId(id: string | null): number {
    if (id === null) return -1;
    let index = this.listIndex.get(id);
    if (index === undefined) {
      index = this.listIndex.size;
      this.listIndex.set(id, index);
    }
    return index;
  }

  /**
   * Adds one page of games and their sides (all in the store's game id order). A game is kept
   * with its first two sides; sides without their game in the page are ignored.
   */
  addGames(page: GamePage): void {
    const { games, sides } = page;
    let g = 0;
    for (let s = 0; s < sides.length; ) {
      const id = sides[s][0];
      let end = s + 1;
      while (end < sides.length && sides[end][0] === id) end++;
      // Same key order on both sides: the run's game is at g or later (equality only, so the
      // database collation never has to be reproduced here).
      let found = g;
      while (found < games.length && games[found][0] !== id) found++;
      if (found < games.length) {
        g = found + 1;
        if (end - s >= 2) this.addGame(games[found], sides[s], sides[s + 1]);
      }
      s = end;
    }
  }

  private addGame(game: GameRow, a: SideRow, b: SideRow): void {
    const [id, eventId, round, map, deployment, primaryObjective, scenario, gameSecondaries] = game;
    const event = this.eventIndex.get(eventId);
    if (event === undefined) return;
    const sys = this.systemIndex.get(this.eventFacts[event].system_id);
    if (sys === undefined) return;
    const fa = this.addSystemFaction(sys, a[2], a[2], null);
    const fb = this.addSystemFaction(sys, b[2], b[2], null);
    const secondaryDict = this.dicts.secondary;
    const secondaries =
      gameSecondaries === null
        ? []
        : parseSecondaries(gameSecondaries).map((s) => secondaryDict.add(s));
    this.arrival.gEvent.push(event);
    this.arrival.pushGameId(id);
    this.arrival.gRound.push(round ?? -1);
    const caches = this.partCaches;
    this.arrival.gParts[0].push(addCached(this.dicts.scenario, caches[0], scenario));
    this.arrival.gParts[1].push(addCached(this.dicts.map, caches[1], map));
    this.arrival.gParts[2].push(addCached(this.dicts.deployment, caches[2], deployment));
    this.arrival.gParts[3].push(addCached(this.dicts.primary, caches[3], primaryObjective));
    this.arrival.gSecondaryStart.push(this.arrival.gSecondaryIds.length);
    for (const s of secondaries) if (s >= 0) this.arrival.gSecondaryIds.push(s);
    const gameSecondary = secondaries.length === 1 ? secondaries[0] : -1;
    this.addSide(sys, event, a, fa, gameSecondary);
    this.addSide(sys, event, b, fb, gameSecondary);
  }

  private addSide(
    sys: number,
    event: number,
    side: SideRow,
    faction: number,
    gameSecondary: number,
  ): void {
    const [, rawPlayer, factionId, score, packedSide, listIdOfSide, subfaction, secondary] = side;
    const playerId = rawPlayer === null ? null : this.keepOf(rawPlayer);
    this.arrival.sFaction.push(faction);
    this.arrival.sSubfaction.push(
      subfaction === null ? -1 : this.addSystemFaction(sys, subfaction, subfaction, factionId),
    );
    this.arrival.sPlayer.push(addCached(this.players, this.playerCache, playerId));
    this.arrival.sScore.push(score === null ? NaN : Number(score));
    // Flag digits are 0 null, 1 false, 2 true (read-facts SideRow packed): minus one is flag().
    const packed = packedSide - 81 * Math.floor(packedSide / 81);
    this.arrival.sFirst.push((packed % 3) - 1);
    this.arrival.sPrimary.push((Math.floor(packed / 3) % 3) - 1);
    this.arrival.sSecondaryAchieved.push((Math.floor(packed / 9) % 3) - 1);
    this.arrival.sResult.push(resultCode(Math.floor(packed / 27)));
    const own = addCached(this.dicts.secondary, this.partCaches[4], secondary);
    this.arrival.sSecondary.push(own >= 0 ? own : gameSecondary);
    const listId =
      listIdOfSide ?? (playerId === null ? null : this.entries.listOf(event, playerId));
    this.arrival.sList.push(this.listId(listId));
  }

  /**
   * What this builder read, for the builder of the key range before it (snapshot-part.ts); its
   * columns' memory goes with it, so this builder is not used after.
   */
  exportPart(): SnapshotPart {
    return {
      games: this.arrival.gEvent.length,
      columns: this.arrival.columns(),
      eventIds: this.eventFacts.map((e) => e.id),
      factions: this.factions.map((f) => [this.systems[f.system].id, f.id, f.name, f.parent]),
      players: this.players.values,
      parts: {
        scenario: this.dicts.scenario.values,
        map: this.dicts.map.values,
        deployment: this.dicts.deployment.values,
        primary: this.dicts.primary.values,
        secondary: this.dicts.secondary.values,
      },
      lists: [...this.listIndex.keys()],
    };
  }

  /**
   * Appends the games another builder read from the key range after this builder's (its
   * exportPart), as if this one had read them: the other's dictionary values join this one's in
   * the order it met them, which is the order a single builder reading both ranges meets them,
   * so the snapshot is the same either way. Games of events this builder does not hold (an
   * import between the two reads) are left out, as addGames leaves them out.
   */
  mergePart(part: SnapshotPart): void {
    const { columns: c, games } = part;
    const codes = (values: readonly string[], add: (value: string) => number) =>
      Int32Array.from(values, add);
    const events = codes(part.eventIds, (id) => this.eventIndex.get(id) ?? -1);
    const factions = Int32Array.from(part.factions, ([system, id, name, parent]) =>
      this.addFaction(system, id, name, parent),
    );
    const kinds = ['scenario', 'map', 'deployment', 'primary'] as const;
    const partMaps = kinds.map((kind) => codes(part.parts[kind], (v) => this.dicts[kind].add(v)));
    const secondaries = codes(part.parts.secondary, (v) => this.dicts.secondary.add(v));
    const players = codes(part.players, (p) => this.players.add(this.keepOf(p)));
    this.arrival.append(c, games, {
      events,
      factions,
      parts: partMaps,
      secondaries,
      players,
      lists: codes(part.lists, (id) => this.listId(id)),
    });
  }

  /**
   * Adds one page of list items (units, options, then configuration choices); lists no side
   * played are ignored.
   */
  addListItems({ units, options, configuration }: ListItemPage): void {
    for (const [listId, name] of units) this.addListItem(listId, name, 'unit', 'unit');
    for (const [listId, name, type] of options) this.addListItem(listId, name, type, 'option');
    for (const [listId, name, type] of configuration)
      this.addListItem(listId, name, type, 'configuration');
  }

  private addListItem(listId: string, name: string, category: string, kind: ItemKind): void {
    const list = this.listIndex.get(listId);
    if (list === undefined) return;
    const byCategory = this.itemCache.get(kind) as Map<string, Map<string, number>>;
    let byName = byCategory.get(category);
    if (byName === undefined) byCategory.set(category, (byName = new Map()));
    let item = byName.get(name);
    if (item === undefined) {
      const key = `${kind}\u0000${foldKey(category)}\u0000${foldKey(name)}`;
      item = this.itemIndex.get(key);
      if (item === undefined) {
        item = this.items.length;
        this.items.push({ name: name.trim(), category: category.trim(), kind });
        this.itemIndex.set(key, item);
      }
      byName.set(name, item);
    }
    this.incList.push(list);
    this.incItem.push(item);
  }

  /** Whether a system was imported as generated demo data (docs/import-formats.md#game-systems). */
  hasDemoSystem(): boolean {
    return this.systems.some((s) => s.demo);
  }

  /** The players' names and countries, read beside the facts (src/store/read-events.ts). */
  setPlayerDirectory(players: readonly PlayerRecord[]): void {
    this.directory = new Map(players.map((p) => [p.id, p]));
  }

  /** The satellites and their majors, read beside the facts (src/store/read-events.ts). */
  setCalendar(events: readonly EventRecord[]): void {
    this.calendar = [...events];
  }

  /** The unplayed games (src/store/read-unplayed.ts) of the events loaded; others are dropped. */
  setPairings(games: readonly PairedGame[]): void {
    const held = games.filter((g) => this.eventIndex.has(g.event));
    this.pairings = pairedAsMerged(held, this.merged);
  }

  /** Orders the games, encodes the columns and derives the standings. */
  finish(dataVersion: number, startedAt: number, notice: string | null = null): Snapshot {
    const events = buildEventColumns(
      this.eventFacts,
      this.eventIndex,
      this.systemIndex,
      this.countries,
      this.rulesVersions,
    );
    this.arrival.gSecondaryStart.push(this.arrival.gSecondaryIds.length);
    this.arrival.gIdStart.push(this.arrival.gIdBytes.length);
    const arrival = this.arrival.columns();
    const order = gameOrder(events, arrival.gEvent, arrival.gRound, this.arrival.gEvent.length);
    const games = reorderGameColumns(order, arrival);
    const sides = reorderSideColumns(order, arrival);
    this.setSystemRows(events.system, sides.rowEvent);
    fillUndeclaredRounds(events, this.eventFacts, games.gameEvent, games.gameRound);
    const lists = buildLists(
      this.listIndex.size,
      this.incList.data,
      this.incItem.data,
      this.incList.length,
    );
    // The entries' and the unplayed games' players join the dictionary first: the standings are sized by it.
    for (const g of this.pairings)
      for (const side of g.sides) if (side.player !== null) this.players.add(side.player);
    const entries = this.entries.standings(this.players, this.factionIndex);
    const rules = {
      team: Uint8Array.from(events.format, (f) => (EVENT_FORMATS[f] === 'teams' ? 1 : 0)),
      rule: Array.from(events.system, (s) => this.systems[s]?.placementRule ?? null),
      participants: events.participants,
      running: runningEvents(events.count, this.pairings, this.eventIndex),
    };
    const standings = deriveStandings(
      events.count,
      entries,
      this.players.values.length,
      sides,
      rules,
    );
    const players = this.players.values;
    const snapshot = {
      notice,
      dataVersion,
      loadedAt: new Date().toISOString(),
      loadMs: performance.now() - startedAt,
      systems: this.systems,
      systemIndex: this.systemIndex,
      factions: this.factions,
      factionIndex: this.factionIndex,
      players,
      playerNames: players.map((id) => this.directory.get(id)?.name ?? null),
      playerCountries: players.map((id) => this.directory.get(id)?.country ?? null),
      calendar: this.calendar,
      merges: snapshotMerges(this.merged, this.directory),
      pairings: this.pairings,
      countries: this.countries.values,
      rulesVersions: this.rulesVersions.values,
      events,
      scenarioDicts: this.dicts,
      scenarioDescriptions: this.descriptions,
      ...games,
      ...sides,
      lists: this.listIndex.size,
      ...lists,
      items: this.items,
      standings,
      teams: this.entries.teams.values,
    };
    return { ...snapshot, bytes: typedArrayBytes(snapshot) };
  }

  /** Rows are grouped by system: each system's bounds. */
  private setSystemRows(eventSystem: Int32Array, rowEvent: Int32Array): void {
    for (const system of this.systems) {
      system.rowStart = 0;
      system.rowEnd = 0;
    }
    const nSides = rowEvent.length;
    for (let r = 0; r < nSides; ) {
      const sys = eventSystem[rowEvent[r]];
      let end = r;
      while (end < nSides && eventSystem[rowEvent[end]] === sys) end += 2;
      this.systems[sys].rowStart = r;
      this.systems[sys].rowEnd = end;
      r = end;
    }
  }
}
