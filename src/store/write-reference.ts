/**
 * Writes the reference data of a validated batch (docs/import-formats.md#idempotence): systems,
 * factions with their aliases, the scenario catalogue and players. Each is written only where it
 * differs from what is stored, so a repeated import stays a no-op.
 */
import type { Insertable, Transaction } from 'kysely';
import type { ImportCounts, ValidBatch } from '../domain/import-batch.ts';
import { nameKey } from '../domain/normalize-name.ts';
import { contentHash } from './content-hash.ts';
import { chunkedIds, insertChunked } from './insert-rows.ts';
import type { Database } from './schema.ts';

/** Upserts systems whose rules changed; true when any row was written. */
export async function writeSystems(
  trx: Transaction<Database>,
  systems: ValidBatch['systems'],
): Promise<boolean> {
  let touched = false;
  const oldSystems = new Map(
    (await trx.selectFrom('systems').selectAll().execute()).map((r) => [r.id, r]),
  );
  for (const s of systems) {
    const row = {
      id: s.id,
      name: s.name,
      score_min: s.score?.min ?? null,
      score_max: s.score?.max ?? null,
      score_total: s.score?.total ?? null,
      margin_bands: s.marginBands ? JSON.stringify(s.marginBands) : null,
      demo: s.demo === true ? 1 : 0,
      placement_rule: s.placementRule ? JSON.stringify(s.placementRule) : null,
      team_rule: s.teamRule ? JSON.stringify(s.teamRule) : null,
    };
    const old = oldSystems.get(s.id);
    if (
      old !== undefined &&
      contentHash({
        ...old,
        score_min: old.score_min === null ? null : Number(old.score_min),
        score_max: old.score_max === null ? null : Number(old.score_max),
        score_total: old.score_total === null ? null : Number(old.score_total),
        demo: Number(old.demo),
      }) === contentHash(row)
    )
      continue;
    touched = true;
    await trx
      .insertInto('systems')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute();
  }
  return touched;
}

/** Upserts changed factions and missing aliases; true when any row was written. */
export async function writeFactions(
  trx: Transaction<Database>,
  factions: ValidBatch['factions'],
): Promise<boolean> {
  let touched = false;
  const oldFactions = new Map(
    (await trx.selectFrom('factions').selectAll().execute()).map((r) => [
      `${r.system_id}\u0000${r.id}`,
      r,
    ]),
  );
  const oldAliases = new Map(
    (await trx.selectFrom('faction_aliases').selectAll().execute()).map((r) => [
      `${r.system_id}\u0000${r.alias}`,
      r.faction_id,
    ]),
  );
  for (const f of factions) {
    const row = { system_id: f.system, id: f.id, name: f.name, parent_id: f.parent ?? null };
    const old = oldFactions.get(`${f.system}\u0000${f.id}`);
    if (old === undefined || old.name !== row.name || old.parent_id !== row.parent_id) {
      touched = true;
      await trx
        .insertInto('factions')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['system_id', 'id']).doUpdateSet({ name: row.name, parent_id: row.parent_id }),
        )
        .execute();
    }
    for (const alias of new Set([f.id, f.name, ...(f.aliases ?? [])].map(nameKey))) {
      if (oldAliases.get(`${f.system}\u0000${alias}`) === f.id) continue;
      touched = true;
      await trx
        .insertInto('faction_aliases')
        .values({ system_id: f.system, alias, faction_id: f.id })
        .onConflict((oc) => oc.columns(['system_id', 'alias']).doUpdateSet({ faction_id: f.id }))
        .execute();
    }
  }
  return touched;
}

/** Adds new catalogue entries and fills or replaces descriptions; true when any row changed. */
export async function writeScenarios(
  trx: Transaction<Database>,
  scenarios: ValidBatch['scenarios'],
): Promise<boolean> {
  let touched = false;
  for (const s of scenarios) {
    const result = await trx
      .insertInto('scenarios')
      .values({
        system_id: s.system,
        kind: s.kind,
        name: s.name,
        description: s.description ?? null,
      })
      .onConflict((oc) => oc.columns(['system_id', 'kind', 'name']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) {
      touched = true;
    } else if (s.description) {
      const updated = await trx
        .updateTable('scenarios')
        .set({ description: s.description })
        .where('system_id', '=', s.system)
        .where('kind', '=', s.kind)
        .where('name', '=', s.name)
        .where((eb) =>
          eb.or([eb('description', 'is', null), eb('description', '!=', s.description ?? '')]),
        )
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) touched = true;
    }
  }
  return touched;
}

/** Players: a name or country given now fills or replaces the stored one; absent keeps it. */
export async function writePlayers(
  trx: Transaction<Database>,
  players: ValidBatch['players'],
  counts: ImportCounts,
): Promise<void> {
  const existing = new Map(
    (
      await chunkedIds(
        players.map((p) => p.id),
        (chunk) => trx.selectFrom('players').selectAll().where('id', 'in', chunk).execute(),
      )
    ).map((p) => [p.id, p]),
  );
  const newPlayers: Insertable<Database['players']>[] = [];
  for (const p of players) {
    const old = existing.get(p.id);
    const name = p.name ?? old?.name ?? null;
    const country = p.country ?? old?.country ?? null;
    if (old === undefined) {
      newPlayers.push({ id: p.id, name, country });
      counts.players.imported++;
    } else if (old.name !== name || old.country !== country) {
      await trx.updateTable('players').set({ name, country }).where('id', '=', p.id).execute();
      counts.players.updated++;
    } else {
      counts.players.unchanged++;
    }
    for (const alias of p.aliases ?? []) {
      await trx
        .insertInto('player_aliases')
        .values({ alias: nameKey(alias), player_id: p.id })
        .onConflict((oc) => oc.column('alias').doUpdateSet({ player_id: p.id }))
        .execute();
    }
  }
  await insertChunked(trx, 'players', newPlayers);
}
