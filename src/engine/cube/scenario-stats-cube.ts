/**
 * scenario-stats' pre-aggregates (DESIGN.md §5 "scenario-stats"). A game counts towards every
 * scenario part it played (scenario, map, deployment, primary, secondaries), so games are first
 * grouped into classes (the same set of parts) and counted per class and per (class, faction);
 * a request expands the classes into parts at the end. Per-side secondaries are counted per
 * secondary. Blocks of events are stored; single events are scanned.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN, SCENARIO_PARTS } from '../../snapshot/snapshot.ts';
import { addBand, bandBounds, bandOf } from '../common.ts';
import { gamePartColumn, gameSecondaries } from '../scenario-parts.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder } from './event-order.ts';
import type { EventOrder } from './event-order.ts';
import { partOffsets } from './scenario-cube.ts';

// Class plane (key = class).
export const C_GAMES = 0;
export const C_FT_GAMES = 1;
export const C_FT_POINTS = 2;
export const C_FT_SCORE_N = 3;
export const C_FT_SCORE_SUM = 4;
export const C_PRI_KNOWN = 5;
export const C_PRI_ATT = 6;
export const C_PRI_DEF = 7;
export const C_PRI_NONE = 8;
/** Four band counters (decisive, normal, close, decided with a known score). */
export const C_BANDS = 9;
export const CLASS_STRIDE = 13;
// Class-faction plane (key = pair id).
export const F_GAMES = 0;
export const F_WINS = 1;
export const F_DRAWS = 2;
export const F_SCORE_N = 3;
export const F_SCORE_SUM = 4;
export const F_SIDES = 5;
export const PAIR_STRIDE = 6;
// Secondary plane (key = secondary id).
export const SEC_PICKED = 0;
export const SEC_KNOWN = 1;
export const SEC_ACH = 2;
export const SEC_ATT_KNOWN = 3;
export const SEC_ATT_ACH = 4;
export const SEC_DEF_KNOWN = 5;
export const SEC_DEF_ACH = 6;
export const SECONDARY_STRIDE = 7;

const SPANS = [32, 1024];

export interface ScenarioStatsCube {
  readonly order: EventOrder;
  /** Planes: classes, (class, faction) pairs, secondaries. */
  readonly cube: EventCube;
  readonly scan: EventScanner;
  /** Part keys (partOffsets) of class c are classKeys[classStart[c] .. classStart[c + 1]). */
  readonly classStart: Int32Array;
  readonly classKeys: Int32Array;
  readonly pairClass: Int32Array;
  readonly pairFaction: Int32Array;
}

const cache = new WeakMap<Snapshot, ScenarioStatsCube>();

/** Each game's class (set of part keys) and the classes' keys. */
function classify(snapshot: Snapshot) {
  const [offsets] = partOffsets(snapshot);
  const columns: Int32Array[] = [];
  const bases: number[] = [];
  for (const kind of SCENARIO_PARTS) {
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

/** The scenario-stats cube of a snapshot, built on first use (DESIGN.md §2, §5). */
export function scenarioStatsCube(snapshot: Snapshot): ScenarioStatsCube {
  const cached = cache.get(snapshot);
  if (cached !== undefined) return cached;
  const order = eventOrder(snapshot);
  const { gameClass, classes, classStart, classKeys } = classify(snapshot);
  const nF = snapshot.factions.length;
  const { faction, score, result, firstTurn, primaryAchieved, secondary, secondaryAchieved } =
    snapshot;
  // A dense id per (class, faction) that occurs, per side row.
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
  const bounds = snapshot.systems.map((_, s) => bandBounds(snapshot, s));

  const scan: EventScanner = (from, to, [acc, facc, sec]) => {
    for (let k = from; k < to; k++) {
      const systemBounds = bounds[snapshot.events.system[order.event[k]]];
      for (let g = order.rowStart[k] >> 1, end = order.rowStart[k + 1] >> 1; g < end; g++) {
        const r = 2 * g;
        const a = gameClass[g] * CLASS_STRIDE;
        acc[a + C_GAMES]++;
        addBand(acc, a + C_BANDS, bandOf(result, score, systemBounds, g));
        const first = firstTurn[r] === 1 ? r : firstTurn[r + 1] === 1 ? r + 1 : -1;
        if (first >= 0) {
          acc[a + C_FT_GAMES]++;
          acc[a + C_FT_POINTS] += result[first];
          if (score[first] === score[first]) {
            acc[a + C_FT_SCORE_N]++;
            acc[a + C_FT_SCORE_SUM] += score[first];
          }
          const pf = primaryAchieved[first];
          const ps = primaryAchieved[first ^ 1];
          if (pf >= 0 && ps >= 0 && !(pf === 1 && ps === 1)) {
            acc[a + C_PRI_KNOWN]++;
            if (pf === 1) acc[a + C_PRI_ATT]++;
            else if (ps === 1) acc[a + C_PRI_DEF]++;
            else acc[a + C_PRI_NONE]++;
          }
        }
        const mirror = faction[r] === faction[r + 1];
        for (let s = r; s <= r + 1; s++) {
          const fb = rowPair[s] * PAIR_STRIDE;
          facc[fb + F_SIDES]++;
          if (!mirror) {
            facc[fb + F_GAMES]++;
            if (result[s] === RESULT_WIN) facc[fb + F_WINS]++;
            else if (result[s] === RESULT_DRAW) facc[fb + F_DRAWS]++;
          }
          if (score[s] === score[s]) {
            facc[fb + F_SCORE_N]++;
            facc[fb + F_SCORE_SUM] += score[s];
          }
          // Secondaries are per side: the side's own objective and whether it achieved it.
          const id = secondary[s];
          if (id < 0) continue;
          const b = id * SECONDARY_STRIDE;
          sec[b + SEC_PICKED]++;
          const ach = secondaryAchieved[s];
          if (ach < 0) continue;
          sec[b + SEC_KNOWN]++;
          sec[b + SEC_ACH] += ach;
          if (firstTurn[s] === 1) {
            sec[b + SEC_ATT_KNOWN]++;
            sec[b + SEC_ATT_ACH] += ach;
          } else if (firstTurn[s] === 0) {
            sec[b + SEC_DEF_KNOWN]++;
            sec[b + SEC_DEF_ACH] += ach;
          }
        }
      }
    }
  };
  const planes = [
    { keys: classes, stride: CLASS_STRIDE },
    { keys: pairClass.length, stride: PAIR_STRIDE },
    { keys: snapshot.scenarioDicts.secondary.values.length, stride: SECONDARY_STRIDE },
  ];
  const built = {
    order,
    cube: buildCube(order, planes, SPANS, scan),
    scan,
    classStart,
    classKeys,
    pairClass: Int32Array.from(pairClass),
    pairFaction: Int32Array.from(pairFaction),
  };
  cache.set(snapshot, built);
  return built;
}

/**
 * Adds class totals into per-part accumulators (DESIGN.md §5 "scenario-stats"): `toRequest`
 * maps a part key to the request's key (-1 when its kind is not requested). Game-level slots
 * C_GAMES .. C_PRI_NONE go to the first slots of `acc` (stride `stride`), bands to `bands`
 * (4 per key), (class, faction) pairs to `facc` ((key * factions + faction) * PAIR_STRIDE).
 */
export function expandClasses(
  built: ScenarioStatsCube,
  cls: Float64Array,
  pairs: Float64Array,
  toRequest: Int32Array,
  factions: number,
  acc: Float64Array,
  stride: number,
  bands: Float64Array,
  facc: Float64Array,
): void {
  const { classStart, classKeys, pairClass, pairFaction } = built;
  const classes = classStart.length - 1;
  for (let c = 0; c < classes; c++) {
    const ca = c * CLASS_STRIDE;
    if (cls[ca + C_GAMES] === 0) continue;
    for (let i = classStart[c]; i < classStart[c + 1]; i++) {
      const key = toRequest[classKeys[i]];
      if (key < 0) continue;
      for (let s = 0; s <= C_PRI_NONE; s++) acc[key * stride + s] += cls[ca + s];
      for (let b = 0; b < 4; b++) bands[key * 4 + b] += cls[ca + C_BANDS + b];
    }
  }
  for (let p = 0; p < pairClass.length; p++) {
    const pb = p * PAIR_STRIDE;
    if (pairs[pb + F_SIDES] === 0) continue;
    const c = pairClass[p];
    const f = pairFaction[p];
    for (let i = classStart[c]; i < classStart[c + 1]; i++) {
      const key = toRequest[classKeys[i]];
      if (key < 0) continue;
      const fb = (key * factions + f) * PAIR_STRIDE;
      for (let s = 0; s < PAIR_STRIDE; s++) facc[fb + s] += pairs[pb + s];
    }
  }
}
