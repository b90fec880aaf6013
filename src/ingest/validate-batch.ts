/**
 * Validation of a raw batch (docs/import-formats.md#validation): structure against the canonical
 * schemas, then the domain rules (two sides, distinct known players, paired results, scores on
 * the system's scale, resolvable factions, no duplicate ids). Reference data comes first, so
 * that events and games resolve against it.
 */
import type { Reject, ValidBatch } from '../domain/import-batch.ts';
import type { RawBatch } from './import-types.ts';
import type { KnownState } from './known-state.ts';
import { storableReject } from './nul-text.ts';
import { validateEvents } from './validate-event.ts';
import { validatePlayerMerges } from './validate-merges.ts';
import {
  uniqueCopies,
  validateFactions,
  validatePlayers,
  validateScenarios,
  validateSystems,
} from './validate-reference.ts';
import { ValidationContext } from './validation-context.ts';

/**
 * Forgets the systems the adapter made up that no accepted event uses: a rejected event writes
 * nothing of its own (docs/import-formats.md#rejects-and-replay). What validation knew of such a
 * system before is restored, so a later batch declares it again.
 */
function dropUnusedSystems(ctx: ValidationContext): void {
  const used = new Set(ctx.batch.events.map((e) => e.event.system));
  for (const [id, { prior, note }] of ctx.impliedSystems) {
    if (used.has(id)) {
      if (prior === undefined && note !== null) ctx.notes.push(note);
      continue;
    }
    ctx.batch.systems = ctx.batch.systems.filter((s) => s.id !== id);
    if (prior === undefined) ctx.known.systems.delete(id);
    else ctx.known.systems.set(id, prior);
  }
}

/** Validates and normalises a raw batch against what the store already knows. */
export function validateBatch(
  raw: RawBatch,
  known: KnownState,
  options: { strict?: boolean } = {},
): { batch: ValidBatch; rejects: Reject[]; notes: string[] } {
  const ctx = new ValidationContext(
    known,
    raw.createUnknownFactions,
    raw.rejects,
    options.strict === true,
  );
  validateSystems(ctx, uniqueCopies(raw.systems));
  validateFactions(ctx, uniqueCopies(raw.factions));
  validatePlayers(ctx, uniqueCopies(raw.players));
  validateScenarios(ctx, uniqueCopies(raw.scenarios));
  validateEvents(ctx, raw.events);
  validatePlayerMerges(ctx, raw.playerMerges);

  const { batch } = ctx;
  dropUnusedSystems(ctx);
  // Players referenced by id only become players with no name (opaque ids are normal); players
  // the adapter implied are written only for an accepted entry or game.
  for (const id of ctx.referencedPlayers)
    if (!ctx.playerById.has(id)) ctx.playerById.set(id, { id });
  batch.players = [...ctx.playerById.values()].filter(
    (p) => ctx.declaredPlayers.has(p.id) || ctx.referencedPlayers.has(p.id),
  );
  const declared = new Set(batch.scenarios.map((s) => `${s.system}\u0000${s.kind}\u0000${s.name}`));
  for (const [key, s] of ctx.scenarioUse) if (!declared.has(key)) batch.scenarios.push(s);
  batch.newFactions = [...ctx.newFactions].sort();
  // A reason may quote the input, NUL and all; every reject of every format passes here.
  const rejects = ctx.rejects.map(storableReject);
  return { batch, rejects, notes: [...raw.notes, ...ctx.notes] };
}
