/**
 * scenario-stats' pre-aggregates (docs/statistics.md#scenario-stats). A game counts towards every
 * scenario part it played (scenario, map, deployment, primary, secondaries): games are grouped
 * into classes (the same set of parts) so a scan finds a game's parts at once, and counted per
 * part and per (part, faction). Those key spaces are small (parts x factions), so a block's
 * cells, and what a request adds, stay few however many classes the data has. Per-side
 * secondaries are counted per secondary. Blocks of events are stored; single events are scanned.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import { addBand, bandBounds, bandOf } from '../margin-bands.ts';
import type { Scope } from '../filter.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder, visitScope } from './event-order.ts';
import type { EventOrder } from './event-order.ts';
import { partOffsets } from './scenario-cube.ts';
import { classFactionPairs, classify } from './scenario-classes.ts';
import { TouchedTargets } from './touched-targets.ts';
import { snapshotCache } from '../snapshot-cache.ts';

// Part plane (key = part key, partOffsets).
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
// Part-faction plane (key = part key * factions + faction).
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

/**
 * Tallies one side's secondary objective (docs/statistics.md#attacker-and-defender): picked,
 * achieved where known, and the same split by attacker (first turn) and defender.
 */
function addSecondary(sec: Float64Array, id: number, ach: number, firstTurn: number): void {
  if (id < 0) return;
  const b = id * SECONDARY_STRIDE;
  sec[b + SEC_PICKED]++;
  if (ach < 0) return;
  sec[b + SEC_KNOWN]++;
  sec[b + SEC_ACH] += ach;
  if (firstTurn === 1) {
    sec[b + SEC_ATT_KNOWN]++;
    sec[b + SEC_ATT_ACH] += ach;
  } else if (firstTurn === 0) {
    sec[b + SEC_DEF_KNOWN]++;
    sec[b + SEC_DEF_ACH] += ach;
  }
}

const SPANS = [32, 1024];

export interface ScenarioStatsCube extends GameClasses {
  readonly order: EventOrder;
  /** Planes: parts, (part, faction), secondaries. */
  readonly cube: EventCube;
  readonly scan: EventScanner;
  /** Adds events into planes of classes, pairs and secondaries (request-time single events). */
  readonly scanClasses: EventScanner;
  /** Per-snapshot scratch of sumScenarioScope: part sums; class sums of kept/dropped events. */
  readonly sums: ScopeSums;
  readonly kept: ScopeSums;
  readonly dropped: ScopeSums;
}

/** The scope's sums per plane (parts, (part, faction), secondaries), with the keys touched. */
export interface ScopeSums {
  readonly cls: TouchedTargets;
  readonly pairs: TouchedTargets;
  readonly sec: TouchedTargets;
}

/** The cube's scanner: adds events' games into the part, (part, faction) and secondary planes. */
function partScanner(
  snapshot: Snapshot,
  order: EventOrder,
  classes: Pick<GameClasses, 'gameClass' | 'classStart' | 'classKeys' | 'gameBand'>,
): EventScanner {
  const { gameClass, classStart, classKeys, gameBand } = classes;
  const nF = snapshot.factions.length;
  const { faction, score, result, firstTurn, primaryAchieved, secondary, secondaryAchieved } =
    snapshot;
  return (from, to, [acc, facc, sec]) => {
    for (let k = from; k < to; k++) {
      for (let g = order.rowStart[k] >> 1, end = order.rowStart[k + 1] >> 1; g < end; g++) {
        const r = 2 * g;
        const cls = gameClass[g];
        const keysFrom = classStart[cls];
        const keysTo = classStart[cls + 1];
        const band = gameBand[g];
        const first = firstTurn[r] === 1 ? r : firstTurn[r + 1] === 1 ? r + 1 : -1;
        const pf = first >= 0 ? primaryAchieved[first] : -1;
        const ps = first >= 0 ? primaryAchieved[first ^ 1] : -1;
        const priKnown = pf >= 0 && ps >= 0 && !(pf === 1 && ps === 1);
        for (let i = keysFrom; i < keysTo; i++) {
          const a = classKeys[i] * CLASS_STRIDE;
          acc[a + C_GAMES]++;
          addBand(acc, a + C_BANDS, band);
          if (first >= 0) {
            acc[a + C_FT_GAMES]++;
            acc[a + C_FT_POINTS] += result[first];
            if (score[first] === score[first]) {
              acc[a + C_FT_SCORE_N]++;
              acc[a + C_FT_SCORE_SUM] += score[first];
            }
            if (priKnown) {
              acc[a + C_PRI_KNOWN]++;
              if (pf === 1) acc[a + C_PRI_ATT]++;
              else if (ps === 1) acc[a + C_PRI_DEF]++;
              else acc[a + C_PRI_NONE]++;
            }
          }
        }
        const mirror = faction[r] === faction[r + 1];
        for (let s = r; s <= r + 1; s++) {
          const win = !mirror && result[s] === RESULT_WIN ? 1 : 0;
          const draw = !mirror && result[s] === RESULT_DRAW ? 1 : 0;
          const scored = score[s] === score[s];
          for (let i = keysFrom; i < keysTo; i++) {
            const fb = (classKeys[i] * nF + faction[s]) * PAIR_STRIDE;
            facc[fb + F_SIDES]++;
            if (!mirror) {
              facc[fb + F_GAMES]++;
              facc[fb + F_WINS] += win;
              facc[fb + F_DRAWS] += draw;
            }
            if (scored) {
              facc[fb + F_SCORE_N]++;
              facc[fb + F_SCORE_SUM] += score[s];
            }
          }
          addSecondary(sec, secondary[s], secondaryAchieved[s], firstTurn[s]);
        }
      }
    }
  };
}

/** Games grouped into classes of the same scenario parts, and (class, faction) pairs. */
interface GameClasses {
  readonly classes: number;
  /** Part keys (partOffsets) of class c are classKeys[classStart[c] .. classStart[c + 1]). */
  readonly classStart: Int32Array;
  readonly classKeys: Int32Array;
  /** Game -> class (what a scanned game touches). */
  readonly gameClass: Int32Array;
  /** (class, faction) pair ids: per side row, and each pair's class and faction. */
  readonly rowPair: Int32Array;
  readonly pairClass: Int32Array;
  readonly pairFaction: Int32Array;
  /** Game -> margin band (bandOf under its system's rules), so a scan reads it, not derives it. */
  readonly gameBand: Int8Array;
}

function gameClasses(snapshot: Snapshot): GameClasses {
  const { gameClass, classes, classStart, classKeys } = classify(snapshot);
  const { pairClass, pairFaction, rowPair } = classFactionPairs(snapshot, gameClass);
  const bounds = snapshot.systems.map((_, s) => bandBounds(snapshot, s));
  const { result, score, rowEvent } = snapshot;
  const gameBand = new Int8Array(snapshot.sides >> 1);
  for (let g = 0; g < gameBand.length; g++) {
    gameBand[g] = bandOf(result, score, bounds[snapshot.events.system[rowEvent[2 * g]]], g);
  }
  return {
    classes,
    classStart,
    classKeys,
    gameClass,
    rowPair,
    pairClass: Int32Array.from(pairClass),
    pairFaction: Int32Array.from(pairFaction),
    gameBand,
  };
}

/**
 * The request-time scanner of single events: per class and pair (cheaper per game than per
 * part), expanded into parts once per touched class (expandInto).
 */
function classScanner(
  snapshot: Snapshot,
  order: EventOrder,
  { gameClass, rowPair, gameBand }: GameClasses,
): EventScanner {
  const { faction, score, result, firstTurn, primaryAchieved, secondary, secondaryAchieved } =
    snapshot;
  return (from, to, [acc, facc, sec]) => {
    for (let k = from; k < to; k++) {
      for (let g = order.rowStart[k] >> 1, end = order.rowStart[k + 1] >> 1; g < end; g++) {
        const r = 2 * g;
        const a = gameClass[g] * CLASS_STRIDE;
        acc[a + C_GAMES]++;
        addBand(acc, a + C_BANDS, gameBand[g]);
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
          addSecondary(sec, secondary[s], secondaryAchieved[s], firstTurn[s]);
        }
      }
    }
  };
}

/**
 * The scenario-stats cube of a snapshot, built once per snapshot
 * (docs/architecture.md#per-event-sums).
 */
export const scenarioStatsCube = snapshotCache({
  name: 'scenario-stats-cube',
  build: (snapshot) => {
    const classes = gameClasses(snapshot);
    const order = eventOrder(snapshot);
    const [, partKeys] = partOffsets(snapshot);
    const planes = [
      { keys: partKeys, stride: CLASS_STRIDE },
      { keys: partKeys * snapshot.factions.length, stride: PAIR_STRIDE },
      { keys: snapshot.scenarioDicts.secondary.values.length, stride: SECONDARY_STRIDE },
    ];
    const scan = partScanner(snapshot, order, classes);
    return { classes, cube: buildCube(order, planes, SPANS, scan) };
  },
  attach: (snapshot, { classes, cube }): ScenarioStatsCube => {
    const order = eventOrder(snapshot);
    const [, partKeys] = partOffsets(snapshot);
    const nF = snapshot.factions.length;
    const secondaries = snapshot.scenarioDicts.secondary.values.length;
    const sums = () => ({
      cls: new TouchedTargets(partKeys, CLASS_STRIDE),
      pairs: new TouchedTargets(partKeys * nF, PAIR_STRIDE),
      sec: new TouchedTargets(secondaries, SECONDARY_STRIDE),
    });
    const classSums = () => ({
      cls: new TouchedTargets(classes.classes, CLASS_STRIDE),
      pairs: new TouchedTargets(classes.pairClass.length, PAIR_STRIDE),
      sec: new TouchedTargets(secondaries, SECONDARY_STRIDE),
    });
    return {
      ...classes,
      order,
      cube,
      scan: partScanner(snapshot, order, classes),
      scanClasses: classScanner(snapshot, order, classes),
      sums: sums(),
      kept: classSums(),
      dropped: classSums(),
    };
  },
});

/** Records the keys the event at position k writes through `scanClasses`. */
function touchEvent(built: ScenarioStatsCube, snapshot: Snapshot, k: number, sums: ScopeSums) {
  const { gameClass, rowPair, order } = built;
  const { secondary } = snapshot;
  for (let g = order.rowStart[k] >> 1, end = order.rowStart[k + 1] >> 1; g < end; g++) {
    sums.cls.touch(gameClass[g]);
    for (let s = 2 * g; s <= 2 * g + 1; s++) {
      sums.pairs.touch(rowPair[s]);
      if (secondary[s] >= 0) sums.sec.touch(secondary[s]);
    }
  }
}

/** Adds class sums into part sums, touched keys only. */
function expandInto(
  built: ScenarioStatsCube,
  factions: number,
  from: ScopeSums,
  to: ScopeSums,
): void {
  const { classStart, classKeys, pairClass, pairFaction } = built;
  const cls = from.cls.values;
  const pairs = from.pairs.values;
  const sec = from.sec.values;
  const acc = to.cls.values;
  const facc = to.pairs.values;
  const sacc = to.sec.values;
  for (let i = 0; i < from.cls.count; i++) {
    const ca = from.cls.keys[i] * CLASS_STRIDE;
    const c = from.cls.keys[i];
    for (let j = classStart[c]; j < classStart[c + 1]; j++) {
      to.cls.touch(classKeys[j]);
      const a = classKeys[j] * CLASS_STRIDE;
      for (let s = 0; s < CLASS_STRIDE; s++) acc[a + s] += cls[ca + s];
    }
  }
  for (let i = 0; i < from.pairs.count; i++) {
    const p = from.pairs.keys[i];
    const pb = p * PAIR_STRIDE;
    const c = pairClass[p];
    for (let j = classStart[c]; j < classStart[c + 1]; j++) {
      const cell = classKeys[j] * factions + pairFaction[p];
      to.pairs.touch(cell);
      const fb = cell * PAIR_STRIDE;
      for (let s = 0; s < PAIR_STRIDE; s++) facc[fb + s] += pairs[pb + s];
    }
  }
  for (let i = 0; i < from.sec.count; i++) {
    const id = from.sec.keys[i];
    to.sec.touch(id);
    const b = id * SECONDARY_STRIDE;
    for (let s = 0; s < SECONDARY_STRIDE; s++) sacc[b + s] += sec[b + s];
  }
}

/** Adds one block's cells into `sums` as addBlock does, recording their keys. */
function addBlockTouched(cube: EventCube, level: number, block: number, sums: ScopeSums): void {
  const cells = cube.levels[level];
  const targets = [sums.cls, sums.pairs, sums.sec];
  for (let p = 0; p < targets.length; p++) {
    const { stride } = cube.planes[p];
    const { start, key, values } = cells[p];
    const target = targets[p];
    const dense = target.values;
    const end = start[block + 1];
    for (let c = start[block]; c < end; c++) {
      target.touch(key[c]);
      const t = key[c] * stride;
      const v = c * stride;
      for (let s = 0; s < stride; s++) dense[t + s] += values[v + s];
    }
  }
}

/**
 * Sums the scope's events as sumScope (event-cube.ts) does (whole blocks from the cube, the
 * rest scanned, nearly-whole blocks taken with their dropped events subtracted) into the
 * snapshot's reused scratch, so a request costs the keys it touches, not the key space. The
 * values are integer counts and sums, so the order of additions does not change them. The
 * result is valid until `clearScope` (a request is synchronous: nothing else runs in between).
 */
export function sumScenarioScope(
  snapshot: Snapshot,
  built: ScenarioStatsCube,
  scope: Scope,
): ScopeSums {
  const { cube, order, scanClasses, sums, kept, dropped } = built;
  clearScope(built);
  const keptDense = [kept.cls.values, kept.pairs.values, kept.sec.values];
  const droppedDense = [dropped.cls.values, dropped.pairs.values, dropped.sec.values];
  const keptAt: number[] = [];
  const droppedAt: number[] = [];
  let scanned = 0;
  visitScope(
    order,
    scope,
    cube.spans,
    (level, block) => addBlockTouched(cube, level, block, sums),
    (k) => {
      scanClasses(k, k + 1, keptDense);
      keptAt.push(k);
      scanned += order.rowStart[k + 1] - order.rowStart[k];
    },
    (k) => {
      scanClasses(k, k + 1, droppedDense);
      droppedAt.push(k);
      scanned += order.rowStart[k + 1] - order.rowStart[k];
    },
  );
  // The keys the scanned events wrote: found by one pass over the class space when the scan
  // read more sides than that space has keys (a wide window's excluded events: 130,000 sides
  // at ten million games, against a few thousand classes and pairs), else event by event.
  if (scanned > kept.cls.keys.length + kept.pairs.keys.length + kept.sec.keys.length) {
    for (const s of [kept, dropped]) {
      s.cls.touchNonZero();
      s.pairs.touchNonZero();
      s.sec.touchNonZero();
    }
  } else {
    for (const k of keptAt) touchEvent(built, snapshot, k, kept);
    for (const k of droppedAt) touchEvent(built, snapshot, k, dropped);
  }
  // Kept minus dropped in class space first: the two mostly touch the same classes and pairs,
  // so each is expanded into its parts once.
  kept.cls.subtract(dropped.cls);
  kept.pairs.subtract(dropped.pairs);
  kept.sec.subtract(dropped.sec);
  expandInto(built, snapshot.factions.length, kept, sums);
  return sums;
}

/** Clears the scratch sumScenarioScope filled. */
export function clearScope(built: ScenarioStatsCube): void {
  for (const sums of [built.sums, built.kept, built.dropped]) {
    sums.cls.clear();
    sums.pairs.clear();
    sums.sec.clear();
  }
}
