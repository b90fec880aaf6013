/**
 * What validation checks a batch against, as the store holds it (docs/import-formats.md): game
 * systems with their score rules, factions, their aliases and the scenario catalogue.
 */
import type { GameSystem } from '../domain/model.ts';
import { handleOf } from './store-handle.ts';
import type { StoreOrHandle } from './store-handle.ts';

export interface KnownRows {
  systems: GameSystem[];
  factions: Array<{ systemId: string; id: string; name: string }>;
  aliases: Array<{ systemId: string; alias: string; factionId: string }>;
  scenarios: Array<{ systemId: string; kind: string; name: string }>;
}

/** Reads systems, factions, aliases and scenario names, in one round trip each. */
export async function readKnownRows(target: StoreOrHandle): Promise<KnownRows> {
  const db = handleOf(target);
  const [systems, factions, aliases, scenarios] = await Promise.all([
    db.selectFrom('systems').selectAll().execute(),
    db.selectFrom('factions').select(['system_id', 'id', 'name']).execute(),
    db.selectFrom('faction_aliases').selectAll().execute(),
    db.selectFrom('scenarios').select(['system_id', 'kind', 'name']).execute(),
  ]);
  return {
    systems: systems.map((s) => ({
      id: s.id,
      name: s.name,
      score:
        s.score_min === null || s.score_max === null
          ? null
          : {
              min: Number(s.score_min),
              max: Number(s.score_max),
              total: s.score_total === null ? null : Number(s.score_total),
            },
      marginBands: s.margin_bands === null ? null : JSON.parse(s.margin_bands),
    })),
    factions: factions.map((f) => ({ systemId: f.system_id, id: f.id, name: f.name })),
    aliases: aliases.map((a) => ({
      systemId: a.system_id,
      alias: a.alias,
      factionId: a.faction_id,
    })),
    scenarios: scenarios.map((s) => ({ systemId: s.system_id, kind: s.kind, name: s.name })),
  };
}

/** The ids of the game systems the store holds. */
export async function readSystemIds(target: StoreOrHandle): Promise<string[]> {
  const rows = await handleOf(target).selectFrom('systems').select('id').execute();
  return rows.map((r) => r.id);
}

/** True when no event has been imported yet. */
export async function storeIsEmpty(target: StoreOrHandle): Promise<boolean> {
  const row = await handleOf(target).selectFrom('events').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/** Whether the store holds an event with this id (docs/operations.md#replaying-an-event). */
export async function eventIsStored(target: StoreOrHandle, id: string): Promise<boolean> {
  const row = await handleOf(target)
    .selectFrom('events')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}
