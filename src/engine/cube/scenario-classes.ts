/**
 * scenario-stats' game classes: games that played the same set of scenario parts form one class,
 * so a scan finds a game's parts at once; and a dense id per (class, faction) that occurs.
 */
import { SCENARIO_KINDS } from '../../domain/model.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { gamePartColumn, gameSecondaries } from '../scenario-parts.ts';
import { partOffsets } from './scenario-cube.ts';

/**
 * Each game's class (set of part keys) and the classes' keys (docs/statistics.md#scenario-stats).
 */
export function classify(snapshot: Snapshot) {
  const [offsets] = partOffsets(snapshot);
  const columns: Int32Array[] = [];
  const bases: number[] = [];
  for (const kind of SCENARIO_KINDS) {
    const column = gamePartColumn(snapshot, kind);
    if (column === null) continue;
    columns.push(column);
    bases.push(offsets[kind]);
  }
  const byKey = new Map<string, number>();
  const gameClass = new Int32Array(snapshot.games);
  const classStart: number[] = [0];
  const classKeys: number[] = [];
  const buffer = new Int32Array(16);
  const keys: number[] = [];
  for (let g = 0; g < snapshot.games; g++) {
    keys.length = 0;
    for (let c = 0; c < columns.length; c++) {
      const id = columns[c][g];
      if (id >= 0) keys.push(bases[c] + id);
    }
    const n = gameSecondaries(snapshot, g, buffer);
    for (let i = 0; i < n; i++) keys.push(offsets.secondary + buffer[i]);
    const name = keys.join(',');
    let cls = byKey.get(name);
    if (cls === undefined) {
      cls = byKey.size;
      byKey.set(name, cls);
      for (const k of keys) classKeys.push(k);
      classStart.push(classKeys.length);
    }
    gameClass[g] = cls;
  }
  return {
    gameClass,
    classes: byKey.size,
    classStart: Int32Array.from(classStart),
    classKeys: Int32Array.from(classKeys),
  };
}

/**
 * A dense id per (class, faction) that occurs, and each side row's id
 * (docs/architecture.md#per-event-sums).
 */
export function classFactionPairs(snapshot: Snapshot, gameClass: Int32Array) {
  const { faction } = snapshot;
  const nF = snapshot.factions.length;
  const pairIds = new Map<number, number>();
  const pairClass: number[] = [];
  const pairFaction: number[] = [];
  const rowPair = new Int32Array(snapshot.sides);
  for (let r = 0; r < snapshot.sides; r++) {
    const cls = gameClass[r >> 1];
    const key = cls * nF + faction[r];
    let id = pairIds.get(key);
    if (id === undefined) {
      id = pairClass.length;
      pairIds.set(key, id);
      pairClass.push(cls);
      pairFaction.push(faction[r]);
    }
    rowPair[r] = id;
  }
  return { pairClass, pairFaction, rowPair };
}
