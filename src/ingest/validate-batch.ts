/**
 * Validation of a raw batch (DESIGN.md §3 and §4): structure against the canonical schemas, then
 * the domain rules (two sides, distinct known players, paired results, scores on the system's
 * scale, resolvable factions, no duplicate ids). A failing record is rejected whole and alone:
 * a bad game does not take its event with it, a bad event takes its games.
 */
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import type {
  ArmyList,
  Entry,
  Event,
  Faction,
  Game,
  GameSystem,
  Player,
  Result,
  Scenario,
  Side,
} from '../domain/model.ts';
import { isRealDate } from '../domain/calendar-day.ts';
import { toFieldErrors } from '../errors/field-errors.ts';
import {
  EntrySchema,
  EventFieldsSchema,
  FactionSchema,
  GameSchema,
  PlayerSchema,
  ScenarioSchema,
  SystemSchema,
} from './canonical-schema.ts';
import type {
  RawBatch,
  RawRecord,
  RecordKind,
  Reject,
  ValidBatch,
  ValidEvent,
  ValidGame,
} from './import-types.ts';
import { addFactionAlias, addScenarioName } from './known-state.ts';
import type { KnownState } from './known-state.ts';
import { cleanName, nameKey } from '../domain/normalize-name.ts';

interface Checker {
  check(value: unknown): boolean;
  errors(value: unknown): ReturnType<typeof toFieldErrors>;
}

function checker(schema: TSchema): Checker {
  const compiled = Compile(schema);
  return {
    check: (value) => compiled.Check(value),
    errors: (value) => toFieldErrors(compiled.Errors(value)),
  };
}

const checkers = {
  system: checker(SystemSchema),
  faction: checker(FactionSchema),
  player: checker(PlayerSchema),
  scenario: checker(ScenarioSchema),
  event: checker(EventFieldsSchema),
  entry: checker(EntrySchema),
  game: checker(GameSchema),
};

class RecordError extends Error {
  constructor(
    readonly field: string | null,
    reason: string,
  ) {
    super(reason);
  }
}

function stripNulls<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as T;
}

const PAIRS = new Set(['win/loss', 'loss/win', 'draw/draw', 'loss/loss']);

/** Validates and normalises a raw batch against what the store already knows. */
export function validateBatch(
  raw: RawBatch,
  known: KnownState,
): { batch: ValidBatch; rejects: Reject[] } {
  const rejects: Reject[] = [...raw.rejects];
  const reject = (
    kind: RecordKind,
    r: RawRecord,
    field: string | null,
    reason: string,
    payload: unknown = r.value,
  ) => rejects.push({ kind, source: r.source, record: r.record, field, reason, payload });

  /** Schema check; on failure rejects the record with every field error and returns null. */
  function structured<T>(
    kind: RecordKind,
    r: RawRecord,
    c: Checker,
    value: unknown = r.value,
    payload: unknown = value,
  ): T | null {
    if (c.check(value)) return value as T;
    const errors = c.errors(value);
    const first = errors[0];
    reject(
      kind,
      r,
      first ? first.pointer : null,
      errors.map((e) => `${e.pointer || '/'}: ${e.detail}`).join('; ') || 'invalid record',
      payload,
    );
    return null;
  }

  const batch: ValidBatch = {
    systems: [],
    factions: [],
    players: [],
    scenarios: [],
    events: [],
    newFactions: [],
  };

  // Duplicate ids inside one batch are ambiguous: every copy is rejected.
  function duplicates(
    records: RawRecord[],
    key: (v: Record<string, unknown>) => string | null,
  ): Set<string> {
    const seen = new Map<string, number>();
    for (const r of records) {
      if (r.value === null || typeof r.value !== 'object') continue;
      const k = key(r.value as Record<string, unknown>);
      if (k !== null) seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    return new Set([...seen].filter(([, n]) => n > 1).map(([k]) => k));
  }
  const idOf = (v: Record<string, unknown>) => (typeof v.id === 'string' ? v.id : null);
  // Reference data (systems, factions, players) is often repeated in every file of a batch:
  // identical copies are one record; only copies that disagree are ambiguous.
  function uniqueCopies(records: RawRecord[]): RawRecord[] {
    const seen = new Set<string>();
    return records.filter((r) => {
      const key = JSON.stringify(r.value);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  raw = {
    ...raw,
    systems: uniqueCopies(raw.systems),
    factions: uniqueCopies(raw.factions),
    players: uniqueCopies(raw.players),
    scenarios: uniqueCopies(raw.scenarios),
  };

  // Systems.
  const dupSystems = duplicates(raw.systems, idOf);
  for (const r of raw.systems) {
    const s = structured<GameSystem>('system', r, checkers.system);
    if (s === null) continue;
    if (dupSystems.has(s.id)) {
      reject('system', r, '/id', `system id "${s.id}" appears more than once in this batch`);
      continue;
    }
    if (s.score.min > s.score.max) {
      reject('system', r, '/score', `score.min ${s.score.min} is above score.max ${s.score.max}`);
      continue;
    }
    batch.systems.push(s);
    known.systems.set(s.id, s);
  }

  // Factions: ids, names and declared aliases all resolve.
  const dupFactions = duplicates(raw.factions, (v) =>
    typeof v.id === 'string' && typeof v.system === 'string' ? `${v.system}/${v.id}` : null,
  );
  for (const r of raw.factions) {
    const f = structured<Faction>('faction', r, checkers.faction);
    if (f === null) continue;
    if (dupFactions.has(`${f.system}/${f.id}`)) {
      reject(
        'faction',
        r,
        '/id',
        `faction "${f.id}" of system "${f.system}" appears more than once in this batch`,
      );
      continue;
    }
    if (!known.systems.has(f.system)) {
      reject('faction', r, '/system', `unknown system "${f.system}"`);
      continue;
    }
    const faction: Faction = {
      ...f,
      name: cleanName(f.name),
      aliases: (f.aliases ?? []).map(cleanName),
    };
    batch.factions.push(faction);
    let ids = known.factionIds.get(f.system);
    if (ids === undefined) known.factionIds.set(f.system, (ids = new Set()));
    ids.add(f.id);
    // A declared alias wins over an older mapping of the same key.
    const aliases = known.factionAliases.get(f.system);
    for (const alias of [f.id, faction.name, ...(faction.aliases ?? [])]) {
      aliases?.delete(nameKey(alias));
      addFactionAlias(known, f.system, alias, f.id);
    }
  }
  for (const f of batch.factions) {
    if (f.parent && !known.factionIds.get(f.system)?.has(f.parent)) {
      const i = batch.factions.indexOf(f);
      batch.factions.splice(i, 1);
      rejects.push({
        kind: 'faction',
        source: 'batch',
        record: f.id,
        field: '/parent',
        reason: `unknown parent faction "${f.parent}"`,
        payload: f,
      });
    }
  }

  // Players.
  const playerById = new Map<string, Player>();
  const dupPlayers = duplicates(raw.players, idOf);
  for (const r of raw.players) {
    const p = structured<Player>('player', r, checkers.player);
    if (p === null) continue;
    if (dupPlayers.has(p.id)) {
      reject('player', r, '/id', `player id "${p.id}" appears more than once in this batch`);
      continue;
    }
    const player: Player = stripNulls({
      id: p.id,
      name: p.name ? cleanName(p.name) : null,
      country: p.country ? p.country.toUpperCase() : null,
      aliases: p.aliases?.map(cleanName),
    });
    playerById.set(p.id, player);
  }

  // Scenario catalogue.
  for (const r of raw.scenarios) {
    const s = structured<Scenario>('scenario', r, checkers.scenario);
    if (s === null) continue;
    if (!known.systems.has(s.system)) {
      reject('scenario', r, '/system', `unknown system "${s.system}"`);
      continue;
    }
    const name = addScenarioName(known, s.system, s.kind, cleanName(s.name));
    batch.scenarios.push({ ...s, name, description: s.description ?? null });
  }

  const newFactions = new Set<string>();
  function resolveFaction(system: string, name: string, field: string): string {
    const id = known.factionAliases.get(system)?.get(nameKey(name));
    if (id !== undefined) return id;
    if (!raw.createUnknownFactions) {
      throw new RecordError(
        field,
        `unknown faction "${name}" in system "${system}": declare it in factions[] or add an alias`,
      );
    }
    const created = cleanName(name);
    const faction: Faction = { id: created, system, name: created, aliases: [] };
    batch.factions.push(faction);
    let ids = known.factionIds.get(system);
    if (ids === undefined) known.factionIds.set(system, (ids = new Set()));
    ids.add(created);
    addFactionAlias(known, system, created, created);
    newFactions.add(`${system}/${created}`);
    return created;
  }

  const scenarioUse = new Map<string, Scenario>();
  function scenarioName(
    system: string,
    kind: Scenario['kind'],
    name: string | null | undefined,
  ): string | null {
    if (name === null || name === undefined || cleanName(name) === '') return null;
    const spelled = addScenarioName(known, system, kind, cleanName(name));
    scenarioUse.set(`${system}\u0000${kind}\u0000${spelled}`, {
      system,
      kind,
      name: spelled,
      description: null,
    });
    return spelled;
  }

  function cleanList(list: ArmyList | null | undefined): ArmyList | null {
    if (!list) return null;
    return {
      points: list.points ?? null,
      units: list.units.map((u) => ({
        name: cleanName(u.name),
        category: cleanName(u.category),
        cost: u.cost ?? null,
        models: u.models ?? null,
        options: (u.options ?? []).map((o) => ({
          name: cleanName(o.name),
          type: cleanName(o.type),
        })),
      })),
    };
  }

  const referencedPlayers = new Set<string>();

  function checkSide(system: GameSystem, side: Side, i: number): Side {
    const base = `/sides/${i}`;
    const faction = resolveFaction(system.id, side.faction, `${base}/faction`);
    const subfaction = side.subfaction
      ? resolveFaction(system.id, side.subfaction, `${base}/subfaction`)
      : null;
    if (side.score !== null && side.score !== undefined) {
      if (
        !Number.isFinite(side.score) ||
        side.score < system.score.min ||
        side.score > system.score.max
      ) {
        throw new RecordError(
          `${base}/score`,
          `score ${side.score} is outside the ${system.id} scale ${system.score.min}..${system.score.max}`,
        );
      }
    }
    return {
      player: side.player ?? null,
      faction,
      subfaction,
      score: side.score ?? null,
      result: side.result ?? null,
      firstTurn: side.firstTurn ?? null,
      primaryAchieved: side.primaryAchieved ?? null,
      secondary: system ? scenarioName(system.id, 'secondary', side.secondary) : null,
      secondaryAchieved: side.secondaryAchieved ?? null,
      list: cleanList(side.list),
    };
  }

  function checkGame(system: GameSystem, g: Game): Game {
    const sides = [checkSide(system, g.sides[0], 0), checkSide(system, g.sides[1], 1)] as [
      Side,
      Side,
    ];
    const [a, b] = sides;
    if (a.player && b.player && a.player === b.player) {
      throw new RecordError('/sides/1/player', `both sides are the same player "${a.player}"`);
    }
    const total = system.score.total;
    if (total !== null && total !== undefined && a.score !== null && b.score !== null) {
      if (Math.abs((a.score ?? 0) + (b.score ?? 0) - total) > 1e-9) {
        throw new RecordError(
          '/sides/1/score',
          `scores ${a.score} + ${b.score} do not sum to ${total} as the ${system.id} rules require`,
        );
      }
    }
    if (a.firstTurn === true && b.firstTurn === true) {
      throw new RecordError('/sides/1/firstTurn', 'both sides cannot have the first turn');
    }
    if ((a.result ?? null) === null && (b.result ?? null) === null) {
      if (a.score === null || b.score === null) {
        throw new RecordError('/sides/0/result', 'no result given and no scores to derive it from');
      }
      const [ra, rb]: [Result, Result] =
        (a.score ?? 0) > (b.score ?? 0)
          ? ['win', 'loss']
          : (a.score ?? 0) < (b.score ?? 0)
            ? ['loss', 'win']
            : ['draw', 'draw'];
      a.result = ra;
      b.result = rb;
    } else if ((a.result ?? null) === null || (b.result ?? null) === null) {
      throw new RecordError(
        `/sides/${a.result ? 1 : 0}/result`,
        'give a result for both sides or for neither (then it follows from the scores)',
      );
    } else if (!PAIRS.has(`${a.result}/${b.result}`)) {
      throw new RecordError(
        '/sides/1/result',
        `results ${a.result}/${b.result} do not pair (win/loss, draw/draw or loss/loss)`,
      );
    }
    if (a.player) referencedPlayers.add(a.player);
    if (b.player) referencedPlayers.add(b.player);
    const s = g.scenario;
    return {
      id: g.id,
      round: g.round ?? null,
      table: g.table ?? null,
      scenario: s
        ? {
            name: scenarioName(system.id, 'scenario', s.name),
            map: scenarioName(system.id, 'map', s.map),
            deployment: scenarioName(system.id, 'deployment', s.deployment),
            primary: scenarioName(system.id, 'primary', s.primary),
            secondaries: (s.secondaries ?? []).map(
              (n) => scenarioName(system.id, 'secondary', n) ?? n,
            ),
          }
        : null,
      sides,
    };
  }

  // Events, then their entries and games one by one.
  const dupEvents = duplicates(raw.events, idOf);
  const gameIdCount = new Map<string, number>();
  for (const r of raw.events) {
    const games = (r.value as { games?: unknown })?.games;
    if (!Array.isArray(games)) continue;
    for (const g of games) {
      const id = (g as { id?: unknown })?.id;
      if (typeof id === 'string') gameIdCount.set(id, (gameIdCount.get(id) ?? 0) + 1);
    }
  }
  for (const r of raw.events) {
    const e = structured<Event>('event', r, checkers.event);
    if (e === null) continue;
    try {
      if (dupEvents.has(e.id))
        throw new RecordError('/id', `event id "${e.id}" appears more than once in this batch`);
      if (!isRealDate(e.start))
        throw new RecordError('/start', `"${e.start}" is not a calendar date`);
      if (e.end) {
        if (!isRealDate(e.end)) throw new RecordError('/end', `"${e.end}" is not a calendar date`);
        if (e.end < e.start)
          throw new RecordError('/end', `end ${e.end} is before start ${e.start}`);
      }
      if (!known.systems.has(e.system))
        throw new RecordError('/system', `unknown system "${e.system}"`);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      reject('event', r, error.field, error.message);
      continue;
    }
    const system = known.systems.get(e.system) as GameSystem;
    const { entries: rawEntries, games: rawGames, ...fields } = e;
    const event = stripNulls({
      ...fields,
      name: cleanName(fields.name),
      status: fields.status ?? 'completed',
      format: fields.format ?? 'singles',
      tier: fields.tier ?? 'standard',
      country: fields.country ? fields.country.toUpperCase() : null,
    }) as ValidEvent['event'];
    const valid: ValidEvent = {
      event,
      entries: null,
      games: [],
      source: r.source,
      record: r.record,
    };

    if (Array.isArray(rawEntries)) {
      valid.entries = [];
      const seenPlayers = new Set<string>();
      rawEntries.forEach((value, i) => {
        const er: RawRecord = { source: r.source, record: `${r.record} entry ${i}`, value };
        const entry = structured<Entry>('entry', er, checkers.entry, value);
        if (entry === null) return;
        try {
          if (seenPlayers.has(entry.player)) {
            throw new RecordError(
              '/player',
              `player "${entry.player}" has two entries in event "${e.id}"`,
            );
          }
          seenPlayers.add(entry.player);
          referencedPlayers.add(entry.player);
          valid.entries?.push({
            player: entry.player,
            faction: entry.faction ? resolveFaction(system.id, entry.faction, '/faction') : null,
            subfaction: entry.subfaction
              ? resolveFaction(system.id, entry.subfaction, '/subfaction')
              : null,
            team: entry.team ?? null,
            placement: entry.placement ?? null,
            list: cleanList(entry.list),
          });
        } catch (error) {
          if (!(error instanceof RecordError)) throw error;
          reject('entry', er, error.field, error.message);
        }
      });
    }

    if (Array.isArray(rawGames)) {
      rawGames.forEach((value, i) => {
        const id = (value as { id?: unknown })?.id;
        const origin = r.gameOrigins?.[i];
        const gr: RawRecord = {
          source: origin?.source ?? r.source,
          record: typeof id === 'string' ? `game ${id}` : `${r.record} game ${i}`,
          value,
        };
        const payload = origin?.payload ?? value;
        const g = structured<Game>('game', gr, checkers.game, value, payload);
        if (g === null) return;
        try {
          if ((gameIdCount.get(g.id) ?? 0) > 1) {
            throw new RecordError('/id', `game id "${g.id}" appears more than once in this batch`);
          }
          const game: ValidGame = {
            game: checkGame(system, g),
            source: gr.source,
            record: gr.record,
          };
          valid.games.push(game);
        } catch (error) {
          if (!(error instanceof RecordError)) throw error;
          reject('game', gr, error.field, error.message, payload);
        }
      });
    }
    batch.events.push(valid);
  }

  // Players referenced by id only become players with no name (opaque ids are normal).
  for (const id of referencedPlayers) if (!playerById.has(id)) playerById.set(id, { id });
  batch.players = [...playerById.values()];
  const declared = new Set(batch.scenarios.map((s) => `${s.system}\u0000${s.kind}\u0000${s.name}`));
  for (const [key, s] of scenarioUse) if (!declared.has(key)) batch.scenarios.push(s);
  batch.newFactions = [...newFactions].sort();
  return { batch, rejects };
}
