/**
 * A fingerprint of each event's games (docs/http-api.md#live): a 32-bit hash over its games' ids,
 * players, factions, results and scores and its unplayed pairings, built from store ids rather
 * than snapshot indices, so two snapshots' fingerprints compare. Events whose fingerprint moved
 * between two snapshots are the events whose games changed.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { snapshotData } from '../snapshot-cache.ts';
import { eventIndex } from './event-index.ts';

const mix = (h: number, v: number) => Math.imul(h ^ v, 0x01000193) >>> 0;

function textHash(text: string, h = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) h = mix(h, text.charCodeAt(i));
  return h;
}

function hashes(values: readonly string[]): Uint32Array {
  return Uint32Array.from(values, (v) => textHash(v));
}

/** Event id to the fingerprint of its games; every event of the snapshot is present. */
export const eventFingerprints = snapshotData(
  'event-fingerprints',
  (snapshot: Snapshot): ReadonlyMap<string, number> => {
    const { rowStart, rowEnd } = eventIndex(snapshot);
    const players = hashes(snapshot.players);
    const factions = hashes(snapshot.factions.map((f) => f.id));
    const { player, faction, result, score, gameIdBytes, gameIdStart } = snapshot;
    const prints = new Map<string, number>();
    for (let e = 0; e < snapshot.events.count; e++) {
      let h = 0x811c9dc5;
      for (let r = rowStart[e]; r < rowEnd[e]; r++) {
        if ((r & 1) === 0) {
          const g = r >> 1;
          for (let b = gameIdStart[g]; b < gameIdStart[g + 1]; b++) h = mix(h, gameIdBytes[b]);
        }
        h = mix(h, player[r] < 0 ? 0 : players[player[r]]);
        h = mix(h, factions[faction[r]]);
        h = mix(h, result[r]);
        h = mix(h, Number.isNaN(score[r]) ? -1 : Math.round(score[r] * 1000));
      }
      prints.set(snapshot.events.ids[e], h);
    }
    for (const game of snapshot.pairings) {
      const h = prints.get(game.event);
      if (h === undefined) continue;
      const sides = game.sides.map((s) => `${s.player}\u0000${s.faction}`).join('\u0001');
      prints.set(game.event, textHash(`${game.id}\u0002${game.table}\u0002${sides}`, h));
    }
    return prints;
  },
);

/** The ids of the events whose games differ between two snapshots (added and removed included). */
export function changedEvents(before: Snapshot, after: Snapshot): string[] {
  const old = eventFingerprints(before);
  const now = eventFingerprints(after);
  const changed: string[] = [];
  for (const [id, print] of now) if (old.get(id) !== print) changed.push(id);
  for (const id of old.keys()) if (!now.has(id)) changed.push(id);
  return changed.sort();
}
