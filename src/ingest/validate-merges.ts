/**
 * Validation of player merges in a canonical document (docs/import-formats.md#player-merges): the
 * record's shape, two different ids, and players the store or the batch knows. A merge that
 * fails is rejected alone; the rest of the batch imports.
 */
import type { Reject, ValidBatch } from '../domain/import-batch.ts';
import type { PlayerMerge } from '../domain/player-merge.ts';
import { readKnownPlayerIds, readStandingMerges } from '../store/player-merges.ts';
import type { Store } from '../store/store.ts';
import type { RawRecord } from './import-types.ts';
import { checkers } from './validation-context.ts';
import type { ValidationContext } from './validation-context.ts';

/** The merges a raw batch carries, checked one by one; valid ones join the batch. */
export function validatePlayerMerges(ctx: ValidationContext, records: RawRecord[]): void {
  for (const r of records) {
    const m = ctx.structured<PlayerMerge>('merge', r, checkers.merge);
    if (m === null) continue;
    if (m.keep === m.other) {
      ctx.reject(
        'merge',
        r,
        '/other',
        `a merge needs two different players, not "${m.keep}" twice`,
      );
      continue;
    }
    const merge = { ...m, undoneAt: m.undoneAt ?? null };
    ctx.batch.playerMerges.push({ merge, source: r.source, record: r.record, payload: r.value });
  }
}

const sameMerge = (a: PlayerMerge, b: PlayerMerge) =>
  a.keep === b.keep && a.other === b.other && a.mergedAt === b.mergedAt;

/**
 * Why a standing merge cannot stand beside the store's standing ones (either id already merged
 * into another, as `muster players merge` refuses it), or null; `standing` grows with it.
 */
function standingConflict(merge: PlayerMerge, standing: PlayerMerge[]): string | null {
  if (merge.undoneAt !== null || standing.some((m) => sameMerge(m, merge))) return null;
  for (const id of [merge.other, merge.keep]) {
    const m = standing.find((s) => s.other === id);
    if (m !== undefined) return `${id} is already merged into ${m.keep} (merge ${m.id})`;
  }
  standing.push(merge);
  return null;
}

/**
 * Moves to the rejects the merges that name a player neither the batch nor the store holds (a
 * merge is a fact about two stored players, never a way to make one up) and the standing ones
 * whose ids are already merged into others.
 */
export async function checkMergesAgainstStore(
  store: Store,
  batch: ValidBatch,
  rejects: Reject[],
): Promise<void> {
  const pending = batch.playerMerges;
  if (pending.length === 0) return;
  const inBatch = new Set(batch.players.map((p) => p.id));
  const asked = [...new Set(pending.flatMap(({ merge }) => [merge.keep, merge.other]))].filter(
    (id) => !inBatch.has(id),
  );
  const stored = await readKnownPlayerIds(store, asked);
  const known = (id: string) => inBatch.has(id) || stored.has(id);
  const standing = await readStandingMerges(store);
  batch.playerMerges = [];
  for (const valid of pending) {
    const { merge } = valid;
    const reject = (field: string, reason: string) =>
      rejects.push({
        kind: 'merge',
        source: valid.source,
        record: valid.record,
        field,
        reason,
        payload: valid.payload,
      });
    const missing = [merge.keep, merge.other].filter((id) => !known(id));
    if (missing.length > 0) {
      const names = missing.map((id) => `"${id}"`).join(' and ');
      reject(
        merge.keep === missing[0] ? '/keep' : '/other',
        `unknown player${missing.length > 1 ? 's' : ''} ${names}: a merge names players the store or the batch holds`,
      );
      continue;
    }
    const conflict = standingConflict(merge, standing);
    if (conflict !== null) reject('/other', conflict);
    else batch.playerMerges.push(valid);
  }
}
