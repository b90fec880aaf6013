/**
 * One key range of games as its own builder read it (docs/architecture.md#the-snapshot-and-its-lifecycle):
 * the columns in arrival order, coded against that builder's dictionaries, and the dictionaries'
 * values in index order, so the builder of the first range can append it as if it had read the
 * games itself (SnapshotBuilder.mergePart). Plain data: it crosses threads with its columns
 * transferred.
 */
import type { ScenarioKind } from '../domain/model.ts';
import type { ArrivalColumns } from './reorder-games.ts';

export interface SnapshotPart {
  /** Games read; each column holds this many (per game) or twice as many (per side) values. */
  readonly games: number;
  readonly columns: ArrivalColumns;
  /** Event id by the part's event index. */
  readonly eventIds: readonly string[];
  /** The part's factions by index: system id, faction id, name and parent as it added them. */
  readonly factions: readonly (readonly [
    system: string,
    id: string,
    name: string,
    parent: string | null,
  ])[];
  readonly players: readonly string[];
  readonly parts: Readonly<Record<ScenarioKind, readonly string[]>>;
  /** List id by the part's list index. */
  readonly lists: readonly string[];
}

/** `codes` (ids of a part, -1 unknown) as ids of the merging builder through `map`. */
export function remapCodes(codes: Int32Array, length: number, map: Int32Array): Int32Array {
  const out = new Int32Array(length);
  for (let i = 0; i < length; i++) {
    const code = codes[i];
    out[i] = code < 0 ? code : map[code];
  }
  return out;
}
