/**
 * A roster object mapped to an army list as the list builder means it
 * (docs/import-formats.md#list-builder-rosters): BattleScribe's roster schema, as XML parsed
 * or as New Recruit's JSON. Every selection at the top of a force is a unit (its primary
 * category its category, its cost the points of everything under it, its models the model
 * selections under it), and every other selection under it an option whose type is its own
 * primary category; a top-level selection with no model and no points under it is the list's
 * configuration, not a unit.
 */
import type { ArmyList, ListOption, ListUnit } from '../../../domain/model.ts';
import { cleanName, nameKey } from '../../../domain/normalize-name.ts';

/** What a roster says: its name, game system and catalogues (factions), and its list. */
export interface ParsedRoster {
  name: string | null;
  system: string | null;
  /** The catalogue (faction) of each force, in order, without repeats. */
  catalogues: string[];
  list: ArmyList;
  /**
   * True when it has units and none names a category (neither as a category nor as a link):
   * every unit is stored as "Unit", which the import says (docs/import-formats.md#list-builder-rosters).
   */
  uncategorised: boolean;
  /**
   * The names of category links that were used (a unit's or an option's chosen link) but whose
   * target is no category of their force: kept as the link's own name, which the import says.
   */
  unresolvedLinks: string[];
}

/** A file that is not a roster, with why. */
export class RosterError extends Error {
  override name = 'RosterError';

  readonly line: number | null;
  constructor(
    message: string,
    /** The line the problem is on, when it has one (bytes that are not UTF-8). */
    line: number | null = null,
  ) {
    super(message);
    this.line = line;
  }
}

type Json = Record<string, unknown>;

/** A selection, cost or category as either format writes it, normalised. */
interface Selection {
  name: string;
  type: string;
  number: number;
  points: number | null;
  category: string | null;
  /** It carries a model's profile (typeName "Unit" or "Model"). */
  modelProfile: boolean;
  selections: Selection[];
}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? cleanName(v) : null;

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** Children of `node` under `key`: a JSON array, or XML's `<key><item/>…</key>` wrapper. */
function children(node: Json, key: string, item: string): Json[] {
  const value = node[key];
  if (Array.isArray(value))
    return value.filter((v): v is Json => v !== null && typeof v === 'object');
  if (value !== null && typeof value === 'object') {
    const inner = (value as Json)[item];
    if (Array.isArray(inner)) return inner as Json[];
  }
  return [];
}

/** The points among a node's costs: the cost named pts or points (else typeId points). */
function points(node: Json): number | null {
  const costs = children(node, 'costs', 'cost');
  const named = costs.find((c) => /^(pts|points?)$/i.test(String(c.name ?? '').trim()));
  const cost = named ?? costs.find((c) => c.typeId === 'points');
  return cost === undefined ? null : num(cost.value);
}

/** A force's categories by the ids a selection's category may reference them with. */
type KnownCategories = ReadonlyMap<string, string>;

/**
 * What reading a force's selections learns on the way: its categories by id, and the names of
 * the chosen links whose target none of them is.
 */
interface ForceContext {
  known: KnownCategories;
  unresolved: Set<string>;
}

function knownCategories(force: Json): KnownCategories {
  const known = new Map<string, string>();
  // A link's own name is no category's: in the 2.01 schema every one is "New CategoryLink".
  for (const c of children(force, 'categories', 'category')) {
    const name = text(c.name);
    if (name === null) continue;
    for (const id of [c.id, c.targetId, c.entryId]) if (typeof id === 'string') known.set(id, name);
  }
  return known;
}

/** Categories as `<categories>` or, in the 2.01 schema, `<categoryLinks>` write them. */
function categoryNodes(node: Json): Json[] {
  return [
    ...children(node, 'categories', 'category'),
    ...children(node, 'categoryLinks', 'categoryLink'),
  ];
}

/**
 * The primary category's name, else the first category's. A link (it has a `targetId`) is the
 * force's category whose `entryId` is its target, whatever the link calls itself (the 2.01
 * editor names every link "New CategoryLink"); a link whose target is no category of its force
 * keeps its own name, noted in `ctx.unresolved`. A category that names none is the force's
 * category its `entryId` references.
 */
function category(node: Json, ctx: ForceContext): string | null {
  const categories = categoryNodes(node);
  const chosen =
    categories.find((c) => c.primary === true || c.primary === 'true') ?? categories[0];
  if (chosen === undefined) return null;
  const own = text(chosen.name);
  if (typeof chosen.targetId === 'string') {
    const target = ctx.known.get(chosen.targetId);
    if (target !== undefined) return target;
    if (own !== null) ctx.unresolved.add(own);
    return own;
  }
  const ref = typeof chosen.entryId === 'string' ? ctx.known.get(chosen.entryId) : undefined;
  return own ?? ref ?? null;
}

function selection(node: Json, depth: number, ctx: ForceContext): Selection {
  if (depth > 32) throw new RosterError('selections are nested more than 32 deep');
  // The entry's name is what was taken; `customName` is the owner's label for it ("Yorl Krauss"
  // for a Neophyte Leader), never the unit (docs/import-formats.md#list-builder-rosters).
  const name = text(node.name) ?? text(node.customName);
  if (name === null) throw new RosterError('a selection has no name');
  return {
    name,
    type: text(node.type)?.toLowerCase() ?? 'upgrade',
    number: num(node.number) ?? 1,
    points: points(node),
    category: category(node, ctx),
    // The 2.03 schema and New Recruit write a profile's type as `typeName`, 2.01 as `profileTypeName`.
    modelProfile: children(node, 'profiles', 'profile').some((p) =>
      MODEL_PROFILES.test(String(p.typeName ?? p.profileTypeName ?? '')),
    ),
    selections: children(node, 'selections', 'selection').map((s) => selection(s, depth + 1, ctx)),
  };
}

/** The profile types of a model's characteristics (40k's "Unit", Kill Team's "Model"). */
const MODEL_PROFILES = /^(unit|model)$/i;

/** A model entry that names its size ("10 Stormvermin"): each one taken is that many models. */
const SIZED = /^(\d{1,3})\s*x?\s+\D/i;
/** The size before a sized entry's name, with the space after it. */
const SIZE_PREFIX = /^\d{1,3}\s*x?\s+/i;

/**
 * The models a selection under the unit named `unit` stands for, null when it is no model: a
 * `model` selection, an upgrade with a model's profile (Grey Knights, Wulfen, Ravenwing write
 * models so), or an upgrade named for its unit with a size ("20 Clanrats" in "Clanrats": Age of
 * Sigmar catalogues write a unit's size so). Its `number` is already the total within its unit
 * (BattleScribe multiplies nested numbers out), so it is not multiplied by its parents'; an entry
 * named with its size counts that many each.
 */
function modelsOf(s: Selection, unit: string): number | null {
  const size = SIZED.exec(s.name);
  const model =
    s.type === 'model' ||
    (s.type === 'upgrade' && (s.modelProfile || (size !== null && sizeOf(s.name, unit))));
  if (!model) return null;
  return s.number * (size === null ? 1 : Number(size[1]));
}

/** Whether `name` is `unit` with a size before it ("20 Clanrats" of "Clanrats"). */
function sizeOf(name: string, unit: string): boolean {
  return nameKey(name.replace(SIZE_PREFIX, '')) === nameKey(unit);
}

/**
 * Sums of a subtree of the unit named `unit`: points (null when nothing under it costs anything)
 * and models. `top` is a selection at the top of a force, which is a model only when its type
 * says so (a Kill Team fighter); a unit's own profile does not make it one.
 */
function totals(
  s: Selection,
  unit: string,
  top = false,
): { points: number | null; models: number } {
  let pts = s.points;
  const own = top ? (s.type === 'model' ? modelsOf(s, unit) : null) : modelsOf(s, unit);
  let models = own ?? 0;
  for (const child of s.selections) {
    const t = totals(child, unit);
    if (t.points !== null) pts = (pts ?? 0) + t.points;
    // A model's own models (its wargear has none) are not counted twice.
    if (own === null) models += t.models;
  }
  return { points: pts, models };
}

/** Every selection under the unit named `unit` but its models, which count as models, not options. */
function options(s: Selection, unit: string, out: ListOption[] = []): ListOption[] {
  for (const child of s.selections) {
    if (modelsOf(child, unit) === null) {
      const type = child.category ?? child.type.charAt(0).toUpperCase() + child.type.slice(1);
      out.push({ name: child.name, type });
    }
    options(child, unit, out);
  }
  return out;
}

/**
 * A selection at the top of a force that is the list's configuration ("List Configuration",
 * "Battle Formation", a lore): not a unit or model entry, with no model and no points under it.
 * A top-level upgrade with models or points under it is a unit as some catalogues write one.
 */
function isConfiguration(s: Selection): boolean {
  if (s.type === 'unit' || s.type === 'model') return false;
  const t = totals(s, s.name, true);
  return t.models === 0 && (t.points ?? 0) === 0;
}

/**
 * The choices a configuration selection makes: what was chosen under it, typed by it ("Vanguard
 * Wing" of "Battle Formation"), or the selection itself when nothing is under it ("Allow Legends").
 */
function configurationChoices(s: Selection): ListOption[] {
  const chosen: ListOption[] = [];
  const walk = (node: Selection) => {
    for (const child of node.selections) {
      chosen.push({ name: child.name, type: s.name });
      walk(child);
    }
  };
  walk(s);
  return chosen.length > 0 ? chosen : [{ name: s.name, type: s.category ?? 'Configuration' }];
}

/**
 * Each option once: an option carried by each of a unit's models (five "Blight Grenades") is one
 * option of the unit, since item use counts lists and units, not models
 * (docs/statistics.md#item-use-stats).
 */
function distinct(all: ListOption[]): ListOption[] {
  const seen = new Set<string>();
  return all.filter((o) => {
    const key = `${o.type}\u0000${o.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function unit(s: Selection): ListUnit {
  const t = totals(s, s.name, true);
  return {
    name: s.name,
    category: s.category ?? 'Unit',
    cost: t.points,
    models: t.models > 0 ? t.models : null,
    options: distinct(options(s, s.name)),
  };
}

/** Forces with the forces nested in them, depth first. */
function forces(node: Json, depth = 0): Json[] {
  if (depth > 8) throw new RosterError('forces are nested more than 8 deep');
  return children(node, 'forces', 'force').flatMap((f) => [f, ...forces(f, depth + 1)]);
}

/** Maps a roster object (the XML's `<roster>` or the JSON's `roster`) to a parsed roster. */
export function rosterFromObject(roster: unknown): ParsedRoster {
  if (roster === null || typeof roster !== 'object' || Array.isArray(roster)) {
    throw new RosterError('no roster in the file (expected <roster> or {"roster": …})');
  }
  const r = roster as Json;
  const all = forces(r);
  if (all.length === 0) throw new RosterError('the roster has no force');
  const unresolved = new Set<string>();
  const top = all.flatMap((f) => {
    const ctx = { known: knownCategories(f), unresolved };
    return children(f, 'selections', 'selection').map((s) => selection(s, 0, ctx));
  });
  const units: ListUnit[] = [];
  const configuration: ListOption[] = [];
  for (const s of top) {
    if (isConfiguration(s)) configuration.push(...configurationChoices(s));
    else units.push(unit(s));
  }
  if (units.length > 500) throw new RosterError(`${units.length} units; at most 500 are kept`);
  const summed = units.reduce<number | null>(
    (sum, u) => (u.cost === null || u.cost === undefined ? sum : (sum ?? 0) + u.cost),
    null,
  );
  const catalogues = [
    ...new Set(all.map((f) => text(f.catalogueName)).filter((c): c is string => c !== null)),
  ];
  return {
    name: text(r.name),
    system: text(r.gameSystemName),
    catalogues,
    uncategorised: units.length > 0 && top.every((s) => isConfiguration(s) || s.category === null),
    unresolvedLinks: [...unresolved],
    list: {
      points: points(r) ?? summed,
      units,
      ...(configuration.length > 0 ? { configuration } : {}),
    },
  };
}
