/**
 * What the parts of batch validation share (docs/import-formats.md#validation): the compiled
 * schema checkers, the growing valid batch and reject list, and the resolution of faction and
 * scenario names against what the store and the batch know.
 */
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import type { Faction, GameSystem, Player, Scenario } from '../domain/model.ts';
import type { RecordKind, Reject, ValidBatch } from '../domain/import-batch.ts';
import { toFieldErrors } from '../errors/field-errors.ts';
import type { FieldError } from '../errors/problem.ts';
import { cleanName, nameKey } from '../domain/normalize-name.ts';
import {
  EntrySchema,
  EventFieldsSchema,
  FactionSchema,
  GameSchema,
  PlayerMergeSchema,
  PlayerSchema,
  ScenarioSchema,
  SystemSchema,
} from '../domain/canonical-schema.ts';
import type { RawRecord } from './import-types.ts';
import { addFactionAlias, addFactionName, addScenarioName } from './known-state.ts';
import { nearKeys } from './near-names.ts';
import { NUL_REASON, nulPointer } from './nul-text.ts';
import type { KnownState } from './known-state.ts';

export interface Checker {
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

export const checkers = {
  system: checker(SystemSchema),
  faction: checker(FactionSchema),
  player: checker(PlayerSchema),
  scenario: checker(ScenarioSchema),
  event: checker(EventFieldsSchema),
  entry: checker(EntrySchema),
  game: checker(GameSchema),
  merge: checker(PlayerMergeSchema),
};

/**
 * A reject's field and reason from schema errors: the field names the first error's place and
 * the reason says what is wrong there, then any other errors with their own places, so that
 * "where: what" reads once (docs/import-formats.md#rejects-and-replay).
 */
export function placeAndReason(errors: readonly FieldError[]): {
  field: string | null;
  reason: string;
} {
  const [first, ...others] = errors;
  if (first === undefined) return { field: null, reason: 'invalid record' };
  const rest = others.map((e) => `${e.pointer || '/'}: ${e.detail}`);
  return { field: first.pointer || '/', reason: [first.detail, ...rest].join('; ') };
}

/** A domain rule a record breaks: the field (JSON Pointer) and why. */
export class RecordError extends Error {
  readonly field: string | null;
  constructor(field: string | null, reason: string) {
    super(reason);
    this.field = field;
  }
}

/** Drops null and undefined fields, so stored records carry only what was said. */
export function stripNulls<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as T;
}

/** Keys that more than one record of the batch carries: every copy of them is ambiguous. */
export function duplicateKeys(
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

/** An event's entries and games are records of their own, checked (and rejected) one by one. */
const EVENT_RECORDS: ReadonlySet<string> = new Set(['entries', 'games']);

export const idOf = (v: Record<string, unknown>): string | null =>
  typeof v.id === 'string' ? v.id : null;

/** The state one validation run builds up while it walks the batch. */
export class ValidationContext {
  readonly rejects: Reject[];
  readonly batch: ValidBatch = {
    systems: [],
    factions: [],
    players: [],
    scenarios: [],
    events: [],
    playerMerges: [],
    newFactions: [],
    newSystems: [],
  };
  readonly playerById = new Map<string, Player>();
  /** Players the input declared; the others (implied) are written only when referenced. */
  readonly declaredPlayers = new Set<string>();
  /** Players an accepted entry or game names. */
  readonly referencedPlayers = new Set<string>();
  /**
   * Systems the adapter made up, with what validation knew of them before (to forget them again
   * when no accepted event uses them) and the note to give when they are written.
   */
  readonly impliedSystems = new Map<
    string,
    { prior: GameSystem | undefined; note: string | null }
  >();
  readonly newFactions = new Set<string>();
  /** Scenario names used by games, keyed by system, kind and spelling. */
  readonly scenarioUse = new Map<string, Scenario>();
  /** What the import should tell its user besides rejects (a new faction that looks like a typo). */
  readonly notes: string[] = [];
  /** "did you mean" per system and unknown name key, worked out once per batch. */
  private readonly nearCache = new Map<string, string | null>();

  readonly known: KnownState;
  readonly createUnknownFactions: boolean;
  readonly strict;
  constructor(
    known: KnownState,
    createUnknownFactions: boolean,
    rejects: Reject[],
    /** --strict: a new faction one edit away from a known one is refused, not created. */
    strict = false,
  ) {
    this.known = known;
    this.createUnknownFactions = createUnknownFactions;
    this.strict = strict;
    this.rejects = [...rejects];
  }

  reject(
    kind: RecordKind,
    r: RawRecord,
    field: string | null,
    reason: string,
    payload: unknown = r.value,
  ): void {
    this.rejects.push({ kind, source: r.source, record: r.record, field, reason, payload });
  }

  /**
   * Schema check, after the check for NUL characters that every string bound for the store gets
   * here, whatever the format (docs/import-formats.md#nul-characters); on failure rejects the
   * record with every field error and returns null.
   */
  structured<T>(
    kind: RecordKind,
    r: RawRecord,
    c: Checker,
    value: unknown = r.value,
    payload: unknown = value,
  ): T | null {
    const nul = nulPointer(value, kind === 'event' ? EVENT_RECORDS : undefined);
    if (nul !== null) {
      this.reject(kind, r, nul, NUL_REASON, payload);
      return null;
    }
    if (c.check(value)) return value as T;
    const { field, reason } = placeAndReason(c.errors(value));
    this.reject(kind, r, field, reason, payload);
    return null;
  }

  /** Records a faction id as known in its system (validated or created). */
  addFactionId(system: string, id: string): void {
    let ids = this.known.factionIds.get(system);
    if (ids === undefined) this.known.factionIds.set(system, (ids = new Set()));
    ids.add(id);
  }

  /**
   * The system an event names, or null when it is unknown. A CSV names its system by id only: an
   * unknown one is created without score rules (scores taken as given), for a canonical document
   * to complete later.
   */
  resolveSystem(id: string): GameSystem | null {
    const known = this.known.systems.get(id);
    if (known !== undefined) return known;
    if (!this.createUnknownFactions) return null;
    const created: GameSystem = { id, name: id };
    this.batch.systems.push(created);
    this.batch.newSystems.push(id);
    this.known.systems.set(id, created);
    return created;
  }

  /**
   * The known factions one edit away from an unknown name, as a user reads them
   * (`"Ember Orcs"`, or `"Vermin Swarm" (as "rats")` when an alias is the near one); null when
   * none is (docs/import-formats.md#names-that-almost-match).
   */
  nearFactions(system: string, key: string): string | null {
    const cacheKey = `${system}\u0000${key}`;
    const cached = this.nearCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const aliases = this.known.factionAliases.get(system);
    const names = this.known.factionNames.get(system);
    const byFaction = new Map<string, string>();
    for (const near of nearKeys(key, aliases?.keys() ?? [])) {
      const id = aliases?.get(near) as string;
      if (byFaction.has(id)) continue;
      const name = names?.get(id) ?? id;
      byFaction.set(id, nameKey(name) === near ? `"${name}"` : `"${name}" (as "${near}")`);
    }
    const said = byFaction.size === 0 ? null : [...byFaction.values()].join(' or ');
    this.nearCache.set(cacheKey, said);
    return said;
  }

  /**
   * A faction id for a name or alias. A CSV or pairing-app export may create the faction (under
   * `parent` for a subfaction), a document may not; a new name one edit away from a known one is
   * reported with "did you mean", and refused under --strict.
   */
  resolveFaction(
    system: string,
    name: string,
    field: string,
    parent: string | null = null,
  ): string {
    const key = nameKey(name);
    const id = this.known.factionAliases.get(system)?.get(key);
    if (id !== undefined) return id;
    const near = this.nearFactions(system, key);
    const unknown = `unknown faction "${name}" in system "${system}"`;
    if (!this.createUnknownFactions) {
      throw new RecordError(
        field,
        `${unknown}: ${near === null ? '' : `did you mean ${near}? `}declare it in factions[] or add an alias`,
      );
    }
    if (near !== null && this.strict) {
      throw new RecordError(
        field,
        `${unknown}: did you mean ${near}? --strict refuses a new faction one edit away from a known one`,
      );
    }
    const created = cleanName(name);
    const faction: Faction = { id: created, system, name: created, parent, aliases: [] };
    this.batch.factions.push(stripNulls(faction));
    this.addFactionId(system, created);
    addFactionAlias(this.known, system, created, created);
    addFactionName(this.known, system, created, created);
    this.newFactions.add(`${system}/${created}`);
    if (near !== null) {
      this.notes.push(
        `new faction "${created}" in system "${system}" is one edit away from ${near}: did you mean it? ` +
          'Fix the name and import again, or declare the faction; --strict refuses such a name',
      );
    }
    return created;
  }

  /** The catalogue spelling of a scenario part, noting its use; null when absent or blank. */
  scenarioName(
    system: string,
    kind: Scenario['kind'],
    name: string | null | undefined,
  ): string | null {
    if (name === null || name === undefined || cleanName(name) === '') return null;
    const spelled = addScenarioName(this.known, system, kind, cleanName(name));
    this.scenarioUse.set(`${system}\u0000${kind}\u0000${spelled}`, {
      system,
      kind,
      name: spelled,
      description: null,
    });
    return spelled;
  }
}
