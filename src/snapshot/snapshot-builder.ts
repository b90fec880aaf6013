/**
 * Builds a Snapshot from fact rows (src/store/read-facts.ts shapes), page by page, so the loader
 * and the benchmark share one code path. Games are reordered by system, start day, event,
 * round and arrival order (game id order) at the end.
 */
import type { MarginBands } from '../domain/model.ts';
import type {
  EntryFact,
  EventFact,
  FactionFact,
  ListItemFact,
  ScenarioFact,
  SideFact,
  SystemFact,
} from '../store/read-facts.ts';
import { DictionaryBuilder, foldKey } from './dictionary.ts';
import {
  FORMAT_CODES,
  RESULT_DRAW,
  RESULT_LOSS,
  RESULT_WIN,
  SCENARIO_PARTS,
  TIER_CODES,
} from './snapshot.ts';
import type {
  ScenarioPart,
  Snapshot,
  SnapshotFaction,
  SnapshotItem,
  SnapshotStandings,
  SnapshotSystem,
} from './snapshot.ts';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return Math.floor(
    Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / DAY_MS,
  );
}

/** YYYY-MM-DD of a day number. */
export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function resultCode(result: string): number {
  if (result === 'win') return RESULT_WIN;
  if (result === 'draw') return RESULT_DRAW;
  return RESULT_LOSS;
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

interface PendingGame {
  event: number;
  round: number;
  parts: number[];
  secondaries: number[];
}

export class SnapshotBuilder {
  private readonly systems: SnapshotSystem[] = [];
  private readonly systemIndex = new Map<string, number>();
  private readonly factions: SnapshotFaction[] = [];
  private readonly factionIndex = new Map<string, number>();
  private readonly players = new DictionaryBuilder(false);
  private readonly countries = new DictionaryBuilder();
  private readonly rulesVersions = new DictionaryBuilder();
  private readonly dicts: Record<ScenarioPart, DictionaryBuilder> = {
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
  /** `${event}\u0000${player}` -> list id of the entry (a list kept all event). */
  private readonly entryLists = new Map<string, string>();
  private readonly listIndex = new Map<string, number>();

  // Per game, arrival order.
  private readonly games: PendingGame[] = [];
  // Per side, arrival order (2 per game).
  private readonly sFaction: number[] = [];
  private readonly sSubfaction: number[] = [];
  private readonly sPlayer: number[] = [];
  private readonly sScore: number[] = [];
  private readonly sResult: number[] = [];
  private readonly sFirst: number[] = [];
  private readonly sPrimary: number[] = [];
  private readonly sSecondary: number[] = [];
  private readonly sSecondaryAchieved: number[] = [];
  private readonly sList: number[] = [];
  private pendingSide: SideFact | null = null;

  // List incidence pairs, arrival order.
  private readonly incList: number[] = [];
  private readonly incItem: number[] = [];
  private readonly items: SnapshotItem[] = [];
  private readonly itemIndex = new Map<string, number>();

  constructor(
    systems: readonly SystemFact[],
    factions: readonly FactionFact[],
    scenarios: readonly ScenarioFact[],
    events: readonly EventFact[],
    entries: readonly EntryFact[],
  ) {
    for (const s of systems) {
      this.systemIndex.set(s.id, this.systems.length);
      this.systems.push({
        id: s.id,
        name: s.name,
        scoreMin: Number(s.score_min),
        scoreMax: Number(s.score_max),
        scoreTotal: s.score_total === null ? null : Number(s.score_total),
        marginBands: parseBands(s.margin_bands),
        rowStart: 0,
        rowEnd: 0,
        factions: [],
      });
    }
    for (const f of factions) this.addFaction(f.system_id, f.id, f.name, f.parent_id);
    for (const s of scenarios) {
      if (!(SCENARIO_PARTS as readonly string[]).includes(s.kind)) continue;
      this.dicts[s.kind as ScenarioPart].add(s.name);
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
        this.entryLists.set(`${entry.event_id}\u0000${entry.player_id}`, entry.list_id);
      }
    }
  }

  private addFaction(system: string, id: string, name: string, parent: string | null): number {
    const key = `${system}\u0000${id}`;
    let index = this.factionIndex.get(key);
    if (index !== undefined) return index;
    const sys = this.systemIndex.get(system);
    if (sys === undefined) return -1;
    index = this.factions.length;
    this.factions.push({ id, name, system: sys, parent });
    this.factionIndex.set(key, index);
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

  /** Adds one page of sides, ordered by (game_id, side); a game's two sides may span pages. */
  addSides(rows: readonly SideFact[]): void {
    for (const row of rows) {
      const first = this.pendingSide;
      if (first === null || first.game_id !== row.game_id) {
        this.pendingSide = row;
        continue;
      }
      this.pendingSide = null;
      this.addGame(first, row);
    }
  }

  private addGame(a: SideFact, b: SideFact): void {
    const event = this.eventIndex.get(a.event_id);
    if (event === undefined) return;
    const systemId = this.eventFacts[event].system_id;
    const fa = this.addFaction(systemId, a.faction_id, a.faction_id, null);
    const fb = this.addFaction(systemId, b.faction_id, b.faction_id, null);
    if (fa < 0 || fb < 0) return;
    const secondaries = parseSecondaries(a.secondaries).map((s) => this.dicts.secondary.add(s));
    this.games.push({
      event,
      round: a.round ?? -1,
      parts: [
        this.dicts.scenario.add(a.scenario),
        this.dicts.map.add(a.map),
        this.dicts.deployment.add(a.deployment),
        this.dicts.primary.add(a.primary_objective),
      ],
      secondaries: secondaries.filter((s) => s >= 0),
    });
    for (const [side, faction] of [
      [a, fa],
      [b, fb],
    ] as const) {
      this.sFaction.push(faction);
      this.sSubfaction.push(
        side.subfaction_id === null
          ? -1
          : this.addFaction(systemId, side.subfaction_id, side.subfaction_id, side.faction_id),
      );
      this.sPlayer.push(this.players.add(side.player_id));
      this.sScore.push(side.score === null ? NaN : Number(side.score));
      this.sResult.push(resultCode(side.result));
      this.sFirst.push(flag(side.first_turn));
      this.sPrimary.push(flag(side.primary_achieved));
      const own = this.dicts.secondary.add(side.secondary);
      this.sSecondary.push(own >= 0 ? own : secondaries.length === 1 ? secondaries[0] : -1);
      this.sSecondaryAchieved.push(flag(side.secondary_achieved));
      const listId =
        side.list_id ??
        (side.player_id === null
          ? null
          : (this.entryLists.get(`${side.event_id}\u0000${side.player_id}`) ?? null));
      this.sList.push(this.listId(listId));
    }
  }

  /** Adds one page of list items; items of lists no side played are ignored. */
  addListItems(rows: readonly ListItemFact[]): void {
    for (const row of rows) {
      const list = this.listIndex.get(row.list_id);
      if (list === undefined) continue;
      const key = `${foldKey(row.category)}\u0000${foldKey(row.name)}`;
      let item = this.itemIndex.get(key);
      if (item === undefined) {
        item = this.items.length;
        this.items.push({ name: row.name.trim(), category: row.category.trim() });
        this.itemIndex.set(key, item);
      }
      this.incList.push(list);
      this.incItem.push(item);
    }
  }

  /** Orders the games, encodes the columns and derives the standings. */
  finish(dataVersion: number, startedAt: number, notice: string | null = null): Snapshot {
    const events = this.buildEvents();
    const nGames = this.games.length;
    const order = new Int32Array(nGames);
    for (let g = 0; g < nGames; g++) order[g] = g;
    const games = this.games;
    order.sort((x, y) => {
      const ex = games[x].event;
      const ey = games[y].event;
      if (ex !== ey) {
        const sd = events.system[ex] - events.system[ey];
        if (sd !== 0) return sd;
        const dd = events.startDay[ex] - events.startDay[ey];
        if (dd !== 0) return dd;
        return ex - ey;
      }
      const rd = games[x].round - games[y].round;
      return rd !== 0 ? rd : x - y;
    });

    const gameEvent = new Int32Array(nGames);
    const gameRound = new Int32Array(nGames);
    const gameParts = [0, 1, 2, 3].map(() => new Int32Array(nGames));
    const gameSecondaryStart = new Int32Array(nGames + 1);
    const secondaryIds: number[] = [];
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
      const game = games[src];
      gameEvent[g] = game.event;
      gameRound[g] = game.round;
      for (let p = 0; p < 4; p++) gameParts[p][g] = game.parts[p];
      gameSecondaryStart[g] = secondaryIds.length;
      for (const s of game.secondaries) secondaryIds.push(s);
      for (let s = 0; s < 2; s++) {
        const r = 2 * g + s;
        const o = 2 * src + s;
        rowEvent[r] = game.event;
        faction[r] = this.sFaction[o];
        opponent[r] = this.sFaction[o ^ 1];
        subfaction[r] = this.sSubfaction[o];
        player[r] = this.sPlayer[o];
        score[r] = this.sScore[o];
        result[r] = this.sResult[o];
        firstTurn[r] = this.sFirst[o];
        primaryAchieved[r] = this.sPrimary[o];
        secondary[r] = this.sSecondary[o];
        secondaryAchieved[r] = this.sSecondaryAchieved[o];
        list[r] = this.sList[o];
      }
    }
    gameSecondaryStart[nGames] = secondaryIds.length;

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
    const bytes = typed.reduce((sum, a) => sum + a.byteLength, 0) + secondaryIds.length * 4;

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
      gameSecondaryIds: Int32Array.from(secondaryIds),
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
      events.format[i] = Math.max(0, (FORMAT_CODES as readonly string[]).indexOf(e.format));
      events.tier[i] = Math.max(0, (TIER_CODES as readonly string[]).indexOf(e.tier));
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
    for (const l of this.incList) counts[l + 1]++;
    for (let l = 0; l < nLists; l++) counts[l + 1] += counts[l];
    const fill = counts.slice(0, nLists);
    const flat = new Int32Array(this.incItem.length);
    for (let i = 0; i < this.incList.length; i++) flat[fill[this.incList[i]]++] = this.incItem[i];
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
