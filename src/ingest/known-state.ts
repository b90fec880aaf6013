/**
 * What validation needs to know about the store before a batch is checked: game systems and their
 * score rules, factions by alias, and the scenario catalogue's spellings.
 */
import type { GameSystem } from '../domain/model.ts';
import { readKnownRows } from '../store/read-known.ts';
import type { Store } from '../store/store.ts';
import { nameKey } from '../domain/normalize-name.ts';

export interface KnownState {
  systems: Map<string, GameSystem>;
  /** system -> alias key -> faction id. Ids and names count as aliases of themselves. */
  factionAliases: Map<string, Map<string, string>>;
  /** system -> faction ids. */
  factionIds: Map<string, Set<string>>;
  /** system -> faction id -> display name, for "did you mean" (docs/import-formats.md). */
  factionNames: Map<string, Map<string, string>>;
  /** system -> kind -> name key -> catalogue spelling. */
  scenarioNames: Map<string, Map<string, Map<string, string>>>;
}

export function emptyKnownState(): KnownState {
  return {
    systems: new Map(),
    factionAliases: new Map(),
    factionIds: new Map(),
    factionNames: new Map(),
    scenarioNames: new Map(),
  };
}

export function addFactionAlias(
  state: KnownState,
  system: string,
  alias: string,
  id: string,
): void {
  let aliases = state.factionAliases.get(system);
  if (aliases === undefined) state.factionAliases.set(system, (aliases = new Map()));
  const key = nameKey(alias);
  if (!aliases.has(key)) aliases.set(key, id);
}

/** Records a faction's display name (the newest declaration wins). */
export function addFactionName(state: KnownState, system: string, id: string, name: string): void {
  let names = state.factionNames.get(system);
  if (names === undefined) state.factionNames.set(system, (names = new Map()));
  names.set(id, name);
}

export function addScenarioName(
  state: KnownState,
  system: string,
  kind: string,
  name: string,
): string {
  let kinds = state.scenarioNames.get(system);
  if (kinds === undefined) state.scenarioNames.set(system, (kinds = new Map()));
  let names = kinds.get(kind);
  if (names === undefined) kinds.set(kind, (names = new Map()));
  const key = nameKey(name);
  const known = names.get(key);
  if (known !== undefined) return known;
  names.set(key, name);
  return name;
}

/** Reads systems, factions, aliases and the scenario catalogue from the store. */
export async function loadKnownState(store: Store): Promise<KnownState> {
  const state = emptyKnownState();
  const { systems, factions, aliases, scenarios } = await readKnownRows(store);
  for (const s of systems) state.systems.set(s.id, s);
  for (const f of factions) {
    let ids = state.factionIds.get(f.systemId);
    if (ids === undefined) state.factionIds.set(f.systemId, (ids = new Set()));
    ids.add(f.id);
    addFactionAlias(state, f.systemId, f.id, f.id);
    addFactionName(state, f.systemId, f.id, f.name);
  }
  for (const a of aliases) addFactionAlias(state, a.systemId, a.alias, a.factionId);
  for (const f of factions) addFactionAlias(state, f.systemId, f.name, f.id);
  for (const s of scenarios) addScenarioName(state, s.systemId, s.kind, s.name);
  return state;
}
