/**
 * Validation of reference data (docs/import-formats.md#validation): game systems, factions with
 * their aliases and parents, players and the scenario catalogue. Reference data is often repeated
 * in every file of a batch: identical copies are one record; only copies that disagree are
 * ambiguous and rejected.
 */
import type { Faction, GameSystem, Player, Scenario } from '../domain/model.ts';
import { cleanName, nameKey } from '../domain/normalize-name.ts';
import type { RawRecord } from './import-types.ts';
import { addFactionAlias, addFactionName, addScenarioName } from './known-state.ts';
import { checkers, duplicateKeys, idOf, stripNulls } from './validation-context.ts';
import type { ValidationContext } from './validation-context.ts';

/**
 * The records with identical copies dropped (first copy kept); a copy the input declared makes
 * the kept one declared, not implied.
 */
export function uniqueCopies(records: RawRecord[]): RawRecord[] {
  const seen = new Map<string, RawRecord>();
  for (const r of records) {
    const key = JSON.stringify(r.value);
    const kept = seen.get(key);
    if (kept === undefined) seen.set(key, r);
    else if (kept.implied === true && r.implied !== true)
      seen.set(key, { ...kept, implied: false });
  }
  return [...seen.values()];
}

/** Systems: schema, unique ids, a score scale that is not upside down. */
export function validateSystems(ctx: ValidationContext, records: RawRecord[]): void {
  const dup = duplicateKeys(records, idOf);
  for (const r of records) {
    const s = ctx.structured<GameSystem>('system', r, checkers.system);
    if (s === null) continue;
    if (dup.has(s.id)) {
      ctx.reject('system', r, '/id', `system id "${s.id}" appears more than once in this batch`);
      continue;
    }
    if (s.score && s.score.min > s.score.max) {
      ctx.reject(
        'system',
        r,
        '/score',
        `score.min ${s.score.min} is above score.max ${s.score.max}`,
      );
      continue;
    }
    if (r.implied === true)
      ctx.impliedSystems.set(s.id, { prior: ctx.known.systems.get(s.id), note: r.note ?? null });
    ctx.batch.systems.push(s);
    ctx.known.systems.set(s.id, s);
  }
}

/** Factions: ids, names and declared aliases all resolve; parents must exist. */
export function validateFactions(ctx: ValidationContext, records: RawRecord[]): void {
  const { known } = ctx;
  const dup = duplicateKeys(records, (v) =>
    typeof v.id === 'string' && typeof v.system === 'string' ? `${v.system}/${v.id}` : null,
  );
  for (const r of records) {
    const f = ctx.structured<Faction>('faction', r, checkers.faction);
    if (f === null) continue;
    if (dup.has(`${f.system}/${f.id}`)) {
      const reason = `faction "${f.id}" of system "${f.system}" appears more than once in this batch`;
      ctx.reject('faction', r, '/id', reason);
      continue;
    }
    if (!known.systems.has(f.system)) {
      ctx.reject('faction', r, '/system', `unknown system "${f.system}"`);
      continue;
    }
    const faction: Faction = {
      ...f,
      name: cleanName(f.name),
      aliases: (f.aliases ?? []).map(cleanName),
    };
    ctx.batch.factions.push(faction);
    ctx.addFactionId(f.system, f.id);
    addFactionName(known, f.system, f.id, faction.name);
    // A declared alias wins over an older mapping of the same key.
    const aliases = known.factionAliases.get(f.system);
    for (const alias of [f.id, faction.name, ...(faction.aliases ?? [])]) {
      aliases?.delete(nameKey(alias));
      addFactionAlias(known, f.system, alias, f.id);
    }
  }
  for (const f of ctx.batch.factions) {
    if (f.parent && !known.factionIds.get(f.system)?.has(f.parent)) {
      const i = ctx.batch.factions.indexOf(f);
      ctx.batch.factions.splice(i, 1);
      ctx.rejects.push({
        kind: 'faction',
        source: 'batch',
        record: f.id,
        field: '/parent',
        reason: `unknown parent faction "${f.parent}"`,
        payload: f,
      });
    }
  }
}

/** Players: unique ids, cleaned names, upper-case countries. */
export function validatePlayers(ctx: ValidationContext, records: RawRecord[]): void {
  const dup = duplicateKeys(records, idOf);
  for (const r of records) {
    const p = ctx.structured<Player>('player', r, checkers.player);
    if (p === null) continue;
    if (dup.has(p.id)) {
      ctx.reject('player', r, '/id', `player id "${p.id}" appears more than once in this batch`);
      continue;
    }
    const player: Player = stripNulls({
      id: p.id,
      name: p.name ? cleanName(p.name) : null,
      country: p.country ? p.country.toUpperCase() : null,
      aliases: p.aliases?.map(cleanName),
    });
    ctx.playerById.set(p.id, player);
    if (r.implied !== true) ctx.declaredPlayers.add(p.id);
  }
}

/** The scenario catalogue: entries of known systems, spelled as the catalogue first had them. */
export function validateScenarios(ctx: ValidationContext, records: RawRecord[]): void {
  for (const r of records) {
    const s = ctx.structured<Scenario>('scenario', r, checkers.scenario);
    if (s === null) continue;
    if (!ctx.known.systems.has(s.system)) {
      ctx.reject('scenario', r, '/system', `unknown system "${s.system}"`);
      continue;
    }
    const name = addScenarioName(ctx.known, s.system, s.kind, cleanName(s.name));
    ctx.batch.scenarios.push({ ...s, name, description: s.description ?? null });
  }
}
