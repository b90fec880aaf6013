/**
 * Builds a Snapshot from fact rows (src/store/read-facts.ts shapes), page by page, so the loader
 * and the benchmark share one code path. Games are reordered by system, start day, event,
 * round and arrival order (game id order) at the end.
 */
import { dayNumber } from '../domain/calendar-day.ts';
import { EVENT_FORMATS, EVENT_TIERS, SCENARIO_KINDS } from '../domain/model.ts';
import type { MarginBands, ScenarioKind } from '../domain/model.ts';
import { TypedColumn } from '../domain/typed-column.ts';
import type {
  EntryFact,
  EventFact,
  FactionFact,
  GameExtraFact,
  GameFact,
  GamePage,
  SideExtraFact,
  ListItemFact,
  ScenarioFact,
  SideFact,
  SystemFact,
} from '../store/read-facts.ts';
import { SIDE_DRAW, SIDE_WIN } from '../store/read-facts.ts';
import { DictionaryBuilder, foldKey } from './dictionary.ts';
import { RESULT_DRAW, RESULT_LOSS, RESULT_WIN } from './snapshot.ts';
import type {
  Snapshot,
  SnapshotFaction,
  SnapshotItem,
  SnapshotStandings,
  SnapshotSystem,
} from './snapshot.ts';

function resultCode(result: number): number {
  if (result === SIDE_WIN) return RESULT_WIN;
  if (result === SIDE_DRAW) return RESULT_DRAW;
  return RESULT_LOSS;
}

/** Adds to a dictionary through a cache keyed by the raw text, sparing the trim and case fold. */
function addCached(
  dict: DictionaryBuilder,
  cache: Map<string, number>,
  text: string | null,
): number {
  if (text === null) return -1;
  let id = cache.get(text);
  if (id === undefined) {
    id = dict.add(text);
    cache.set(text, id);
  }
  return id;
}

function flag(value: number | null | undefined): number {
  return value === null || value === undefined ? -1 : value ? 1 : 0;
}

function parseBands(json: string | null): MarginBands | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as MarginBands;
  } catch {
    return null;
  }
}

function parseSecondaries(json: string | null): string[] {
  if (json === null || json === '') return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

const int32s = () => new TypedColumn(Int32Array);
const int8s = () => new TypedColumn(Int8Array);

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
  private readonly entryFacts: EntryFact[] = [];
  /** Per event index: player id -> list id of the entry (a list kept all event). */
  private readonly entryLists: Array<Map<string, string> | undefined> = [];
  private readonly listIndex = new Map<string, number>();
  /** Raw text -> id caches in front of the scenario-part dictionaries and the players. */
  private readonly partCaches = [0, 1, 2, 3, 4].map(() => new Map<string, number>());
  private readonly playerCache = new Map<string, number>();

  // Per game, arrival order; a game's secondaries are gSecondaryIds[gSecondaryStart[g]...].
  private readonly gEvent = int32s();
  private readonly gRound = int32s();
  private readonly gParts = [int32s(), int32s(), int32s(), int32s()];
  private readonly gSecondaryStart = int32s();
  private readonly gSecondaryIds = int32s();
  // Per side, arrival order (2 per game).
  private readonly sFaction = int32s();
  private readonly sSubfaction = int32s();
  private readonly sPlayer = int32s();
  private readonly sScore = new TypedColumn(Float64Array);
  private readonly sResult = int8s();
  private readonly sFirst = int8s();
  private readonly sPrimary = int8s();
  private readonly sSecondary = int32s();
  private readonly sSecondaryAchieved = int8s();
  private readonly sList = int32s();

  // List incidence pairs, arrival order.
  private readonly incList = int32s();
  private readonly incItem = int32s();
  private readonly items: SnapshotItem[] = [];
  private readonly itemIndex = new Map<string, number>();
  /** Raw category -> raw name -> item, in front of the folded itemIndex. */
  private readonly itemCache = new Map<string, Map<string, number>>();

  constructor(
    systems: readonly SystemFact[],
    factions: readonly FactionFact[],
    scenarios: readonly ScenarioFact[],
    events: readonly EventFact[],
    entries: readonly EntryFact[],
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
    for (const entry of entries) {
      if (!this.eventIndex.has(entry.event_id)) continue;
      this.entryFacts.push(entry);
      if (entry.list_id !== null) {
        const e = this.eventIndex.get(entry.event_id) as number;
        let lists = this.entryLists[e];
        if (lists === undefined) this.entryLists[e] = lists = new Map();
        lists.set(entry.player_id, entry.list_id);
      }
    }
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
    const { games, gameExtras, sides, sideExtras } = page;
    // The extras are subsequences of games and sides in the same order: match by walking.
    let extra: Array<GameExtraFact | undefined> | null = null;
    if (gameExtras.length > 0) {
      extra = new Array<GameExtraFact | undefined>(games.length);
      for (let g = 0, x = 0; g < games.length && x < gameExtras.length; g++) {
        if (games[g].id === gameExtras[x].id) extra[g] = gameExtras[x++];
      }
    }
    let x = 0;
    let g = 0;
    for (let s = 0; s < sides.length; ) {
      const id = sides[s].game_id;
      let end = s + 1;
      while (end < sides.length && sides[end].game_id === id) end++;
      let a: SideExtraFact | null = null;
      let b: SideExtraFact | null = null;
      for (let i = s; i < end && x < sideExtras.length; i++) {
        const e = sideExtras[x];
        if (e.game_id !== id || e.side !== Math.floor(sides[i].packed / 81)) continue;
        if (i === s) a = e;
        else if (i === s + 1) b = e;
        x++;
      }
      // Same key order on both sides: the run's game is at g or later (equality only, so the
      // database collation never has to be reproduced here).
      let found = g;
      while (found < games.length && games[found].id !== id) found++;
      if (found < games.length) {
        g = found + 1;
        if (end - s >= 2) {
          this.addGame(games[found], extra?.[found], sides[s], a, sides[s + 1], b);
        }
      }
      s = end;
    }
  }

  private addGame(
    game: GameFact,
    gameExtra: GameExtraFact | undefined,
    a: SideFact,
    aExtra: SideExtraFact | null,
    b: SideFact,
    bExtra: SideExtraFact | null,
  ): void {
    const event = this.eventIndex.get(game.event_id);
    if (event === undefined) return;
    const sys = this.systemIndex.get(this.eventFacts[event].system_id);
    if (sys === undefined) return;
    const fa = this.addSystemFaction(sys, a.faction_id, a.faction_id, null);
    const fb = this.addSystemFaction(sys, b.faction_id, b.faction_id, null);
    const secondaryDict = this.dicts.secondary;
    const secondaries =
      gameExtra === undefined || gameExtra.secondaries === null
        ? []
        : parseSecondaries(gameExtra.secondaries).map((s) => secondaryDict.add(s));
    this.gEvent.push(event);
    this.gRound.push(game.round ?? -1);
    const caches = this.partCaches;
    this.gParts[0].push(
      addCached(
        this.dicts.scenario,
        caches[0],
        gameExtra === undefined ? null : gameExtra.scenario,
      ),
    );
    this.gParts[1].push(addCached(this.dicts.map, caches[1], game.map));
    this.gParts[2].push(addCached(this.dicts.deployment, caches[2], game.deployment));
    this.gParts[3].push(addCached(this.dicts.primary, caches[3], game.primary_objective));
    this.gSecondaryStart.push(this.gSecondaryIds.length);
    for (const s of secondaries) if (s >= 0) this.gSecondaryIds.push(s);
    const gameSecondary = secondaries.length === 1 ? secondaries[0] : -1;
    this.addSide(sys, event, a, aExtra, fa, gameSecondary);
    this.addSide(sys, event, b, bExtra, fb, gameSecondary);
  }

  private addSide(
    sys: number,
    event: number,
    side: SideFact,
    extra: SideExtraFact | null,
    faction: number,
    gameSecondary: number,
  ): void {
    this.sFaction.push(faction);
    const subfaction = extra === null ? null : extra.subfaction_id;
    this.sSubfaction.push(
      subfaction === null
        ? -1
        : this.addSystemFaction(sys, subfaction, subfaction, side.faction_id),
    );
    const playerId = side.player_id;
    this.sPlayer.push(addCached(this.players, this.playerCache, playerId));
    this.sScore.push(side.score === null ? NaN : Number(side.score));
    // Flag digits are 0 null, 1 false, 2 true (read-facts SideFact.packed): minus one is flag().
    const packed = side.packed - 81 * Math.floor(side.packed / 81);
    this.sFirst.push((packed % 3) - 1);
    this.sPrimary.push((Math.floor(packed / 3) % 3) - 1);
    this.sSecondaryAchieved.push((Math.floor(packed / 9) % 3) - 1);
    this.sResult.push(resultCode(Math.floor(packed / 27)));
    const own = addCached(
      this.dicts.secondary,
      this.partCaches[4],
      extra === null ? null : extra.secondary,
    );
    this.sSecondary.push(own >= 0 ? own : gameSecondary);
    const listId =
      side.list_id ?? (playerId === null ? null : (this.entryLists[event]?.get(playerId) ?? null));
    this.sList.push(this.listId(listId));
  }

  /** Adds one page of list items; items of lists no side played are ignored. */
  addListItems(rows: readonly ListItemFact[]): void {
    for (const row of rows) {
      const list = this.listIndex.get(row.list_id);
      if (list === undefined) continue;
      let byName = this.itemCache.get(row.category);
      if (byName === undefined) this.itemCache.set(row.category, (byName = new Map()));
      let item = byName.get(row.name);
      if (item === undefined) {
        const key = `${foldKey(row.category)}\u0000${foldKey(row.name)}`;
        item = this.itemIndex.get(key);
        if (item === undefined) {
          item = this.items.length;
          this.items.push({ name: row.name.trim(), category: row.category.trim() });
          this.itemIndex.set(key, item);
        }
        byName.set(row.name, item);
      }
      this.incList.push(list);
      this.incItem.push(item);
    }
  }

  /** Orders the games, encodes the columns and derives the standings. */
  finish(dataVersion: number, startedAt: number, notice: string | null = null): Snapshot {
    const events = this.buildEvents();
    const nGames = this.gEvent.length;
    const order = this.gameOrder(events);
    this.gSecondaryStart.push(this.gSecondaryIds.length);
    const gEvent = this.gEvent.data;
    const gRound = this.gRound.data;
    const gParts = this.gParts.map((c) => c.data);
    const gSecondaryStart = this.gSecondaryStart.data;
    const gSecondaryIds = this.gSecondaryIds.data;
    const sFaction = this.sFaction.data;
    const sSubfaction = this.sSubfaction.data;
    const sPlayer = this.sPlayer.data;
    const sScore = this.sScore.data;
    const sResult = this.sResult.data;
    const sFirst = this.sFirst.data;
    const sPrimary = this.sPrimary.data;
    const sSecondary = this.sSecondary.data;
    const sSecondaryAchieved = this.sSecondaryAchieved.data;
    const sList = this.sList.data;

    const gameEvent = new Int32Array(nGames);
    const gameRound = new Int32Array(nGames);
    const gameParts = [0, 1, 2, 3].map(() => new Int32Array(nGames));
    const gameSecondaryStart = new Int32Array(nGames + 1);
    const secondaryIds = new Int32Array(this.gSecondaryIds.length);
    let nSecondaries = 0;
    const nSides = nGames * 2;
    const rowEvent = new Int32Array(nSides);
    const faction = new Int32Array(nSides);
    const opponent = new Int32Array(nSides);
    const subfaction = new Int32Array(nSides);
    const player = new Int32Array(nSides);
    const score = new Float64Array(nSides);
    const result = new Uint8Array(nSides);
    const firstTurn = new Int8Array(nSides);
    const primaryAchieved = new Int8Array(nSides);
    const secondary = new Int32Array(nSides);
    const secondaryAchieved = new Int8Array(nSides);
    const list = new Int32Array(nSides);
    for (let g = 0; g < nGames; g++) {
      const src = order[g];
      const event = gEvent[src];
      gameEvent[g] = event;
      gameRound[g] = gRound[src];
      for (let p = 0; p < 4; p++) gameParts[p][g] = gParts[p][src];
      gameSecondaryStart[g] = nSecondaries;
      for (let i = gSecondaryStart[src]; i < gSecondaryStart[src + 1]; i++) {
        secondaryIds[nSecondaries++] = gSecondaryIds[i];
      }
      for (let s = 0; s < 2; s++) {
        const r = 2 * g + s;
        const o = 2 * src + s;
        rowEvent[r] = event;
        faction[r] = sFaction[o];
        opponent[r] = sFaction[o ^ 1];
        subfaction[r] = sSubfaction[o];
        player[r] = sPlayer[o];
        score[r] = sScore[o];
        result[r] = sResult[o];
        firstTurn[r] = sFirst[o];
        primaryAchieved[r] = sPrimary[o];
        secondary[r] = sSecondary[o];
        secondaryAchieved[r] = sSecondaryAchieved[o];
        list[r] = sList[o];
      }
    }
    gameSecondaryStart[nGames] = nSecondaries;

    for (const system of this.systems) {
      system.rowStart = 0;
      system.rowEnd = 0;
    }
    // Rows are grouped by system: find each group's bounds.
    for (let r = 0; r < nSides; ) {
      const sys = events.system[rowEvent[r]];
      let end = r;
      while (end < nSides && events.system[rowEvent[end]] === sys) end += 2;
      this.systems[sys].rowStart = r;
      this.systems[sys].rowEnd = end;
      r = end;
    }
    // Fill in rounds nobody declared from the games themselves.
    for (let g = 0; g < nGames; g++) {
      const e = gameEvent[g];
      if (this.eventFacts[e].rounds === null && gameRound[g] > events.rounds[e]) {
        events.rounds[e] = gameRound[g];
      }
    }

    const lists = this.buildLists();
    const standings = this.buildStandings(events.count, rowEvent, faction, player, score, result);
    const typed = [
      ...Object.values(events).filter(ArrayBuffer.isView),
      gameEvent,
      gameRound,
      ...gameParts,
      gameSecondaryStart,
      rowEvent,
      faction,
      opponent,
      subfaction,
      player,
      score,
      result,
      firstTurn,
      primaryAchieved,
      secondary,
      secondaryAchieved,
      list,
      lists.listStart,
      lists.listItems,
      lists.listPicks,
      ...Object.values(standings).filter(ArrayBuffer.isView),
    ] as ArrayBufferView[];
    const bytes = typed.reduce((sum, a) => sum + a.byteLength, 0) + secondaryIds.byteLength;

    return {
      notice,
      dataVersion,
      loadedAt: new Date().toISOString(),
      loadMs: performance.now() - startedAt,
      systems: this.systems,
      systemIndex: this.systemIndex,
      factions: this.factions,
      factionIndex: this.factionIndex,
      players: this.players.values,
      countries: this.countries.values,
      rulesVersions: this.rulesVersions.values,
      events,
      scenarioDicts: this.dicts,
      scenarioDescriptions: this.descriptions,
      games: nGames,
      gameEvent,
      gameRound,
      gameScenario: gameParts[0],
      gameMap: gameParts[1],
      gameDeployment: gameParts[2],
      gamePrimary: gameParts[3],
      gameSecondaryStart,
      gameSecondaryIds: secondaryIds,
      sides: nSides,
      rowEvent,
      faction,
      opponent,
      subfaction,
      player,
      score,
      result,
      firstTurn,
      primaryAchieved,
      secondary,
      secondaryAchieved,
      list,
      lists: this.listIndex.size,
      ...lists,
      items: this.items,
      standings,
      bytes,
    };
  }

  /**
   * Arrival indexes of the games in snapshot order: by system, start day, event, round, then
   * arrival. A counting sort by event rank (stable, so arrival order holds) and a sort of the
   * few events whose games did not arrive round by round.
   */
  private gameOrder(events: { count: number; system: Int32Array; startDay: Int32Array }) {
    const nEvents = events.count;
    const byRank = new Int32Array(nEvents);
    for (let e = 0; e < nEvents; e++) byRank[e] = e;
    byRank.sort(
      (x, y) =>
        events.system[x] - events.system[y] || events.startDay[x] - events.startDay[y] || x - y,
    );
    const start = new Int32Array(nEvents + 1);
    const rankOf = new Int32Array(nEvents);
    for (let r = 0; r < nEvents; r++) rankOf[byRank[r]] = r;
    const gEvent = this.gEvent.data;
    const gRound = this.gRound.data;
    const nGames = this.gEvent.length;
    for (let g = 0; g < nGames; g++) start[rankOf[gEvent[g]] + 1]++;
    for (let r = 0; r < nEvents; r++) start[r + 1] += start[r];
    const fill = start.slice(0, nEvents);
    const order = new Int32Array(nGames);
    for (let g = 0; g < nGames; g++) order[fill[rankOf[gEvent[g]]]++] = g;
    for (let r = 0; r < nEvents; r++) {
      let sorted = true;
      for (let i = start[r] + 1; i < start[r + 1] && sorted; i++) {
        sorted = gRound[order[i - 1]] <= gRound[order[i]];
      }
      if (!sorted) {
        order.subarray(start[r], start[r + 1]).sort((x, y) => gRound[x] - gRound[y] || x - y);
      }
    }
    return order;
  }

  private buildEvents() {
    const n = this.eventFacts.length;
    const events = {
      count: n,
      ids: this.eventFacts.map((e) => e.id),
      idIndex: this.eventIndex,
      system: new Int32Array(n),
      startDay: new Int32Array(n),
      participants: new Int32Array(n),
      format: new Uint8Array(n),
      tier: new Uint8Array(n),
      country: new Int32Array(n),
      rulesVersion: new Int32Array(n),
      rounds: new Int32Array(n),
      online: new Int8Array(n),
    };
    this.eventFacts.forEach((e, i) => {
      events.system[i] = this.systemIndex.get(e.system_id) ?? 0;
      events.startDay[i] = dayNumber(e.start_date);
      events.participants[i] = e.participants ?? -1;
      events.format[i] = Math.max(0, (EVENT_FORMATS as readonly string[]).indexOf(e.format));
      events.tier[i] = Math.max(0, (EVENT_TIERS as readonly string[]).indexOf(e.tier));
      events.country[i] = this.countries.add(e.country?.toUpperCase());
      events.rulesVersion[i] = this.rulesVersions.add(e.rules_version);
      events.rounds[i] = e.rounds ?? -1;
      events.online[i] = flag(e.online);
    });
    return events;
  }

  private buildLists() {
    const nLists = this.listIndex.size;
    const counts = new Int32Array(nLists + 1);
    const incList = this.incList.data;
    const incItem = this.incItem.data;
    const nInc = this.incList.length;
    for (let i = 0; i < nInc; i++) counts[incList[i] + 1]++;
    for (let l = 0; l < nLists; l++) counts[l + 1] += counts[l];
    const fill = counts.slice(0, nLists);
    const flat = new Int32Array(nInc);
    for (let i = 0; i < nInc; i++) flat[fill[incList[i]]++] = incItem[i];
    // Collapse repeated items of a list into (item, picks).
    const listStart = new Int32Array(nLists + 1);
    const items: number[] = [];
    const picks: number[] = [];
    for (let l = 0; l < nLists; l++) {
      listStart[l] = items.length;
      const segment = flat.subarray(counts[l], counts[l + 1]).sort();
      for (let i = 0; i < segment.length; i++) {
        if (i > 0 && segment[i] === segment[i - 1]) picks[picks.length - 1]++;
        else {
          items.push(segment[i]);
          picks.push(1);
        }
      }
    }
    listStart[nLists] = items.length;
    return {
      listStart,
      listItems: Int32Array.from(items),
      listPicks: Int32Array.from(picks),
    };
  }

  private buildStandings(
    nEvents: number,
    rowEvent: Int32Array,
    faction: Int32Array,
    player: Int32Array,
    score: Float64Array,
    result: Uint8Array,
  ): SnapshotStandings {
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
    const perEvent: Array<Map<number, Row>> = Array.from({ length: nEvents }, () => new Map());
    const hasPlacement = new Uint8Array(nEvents);
    const systemOf = (e: number) => this.eventFacts[e].system_id;
    for (const entry of this.entryFacts) {
      const e = this.eventIndex.get(entry.event_id) as number;
      const p = this.players.add(entry.player_id);
      perEvent[e].set(p, {
        player: p,
        faction:
          entry.faction_id === null
            ? -1
            : (this.factionIndex.get(`${systemOf(e)}\u0000${entry.faction_id}`) ?? -1),
        placement: entry.placement ?? -1,
        wins: 0,
        losses: 0,
        games: 0,
        score: 0,
        factionGames: new Map(),
      });
      if (entry.placement !== null) hasPlacement[e] = 1;
    }
    for (let r = 0; r < rowEvent.length; r++) {
      const p = player[r];
      if (p < 0) continue;
      const map = perEvent[rowEvent[r]];
      let row = map.get(p);
      if (row === undefined) {
        row = {
          player: p,
          faction: -1,
          placement: -1,
          wins: 0,
          losses: 0,
          games: 0,
          score: 0,
          factionGames: new Map(),
        };
        map.set(p, row);
      }
      row.games++;
      if (result[r] === RESULT_WIN) row.wins++;
      else if (result[r] === RESULT_LOSS) row.losses++;
      if (!Number.isNaN(score[r])) row.score += score[r];
      row.factionGames.set(faction[r], (row.factionGames.get(faction[r]) ?? 0) + 1);
    }
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
      for (const row of rows) {
        if (row.faction >= 0) continue;
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
      if (!hasPlacement[e]) {
        // No published standings (T9A): rank by wins, then total score; ties share a place.
        rows.sort((a, b) => b.wins - a.wins || b.score - a.score || a.player - b.player);
        rows.forEach((row, i) => {
          const prev = rows[i - 1];
          row.placement =
            i > 0 && prev.wins === row.wins && prev.score === row.score ? prev.placement : i + 1;
        });
      }
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
}
