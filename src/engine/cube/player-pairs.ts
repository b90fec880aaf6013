/**
 * Distinct players per faction (faction-stats' `players`, docs/statistics.md#faction-stats): a
 * count that does not add up across events, since one player plays many. Each event's distinct
 * (player, faction) pairs are kept as ids numbered faction by faction, and aligned blocks of
 * events as bitsets of the pairs they hold; a request ORs the bitsets of the whole blocks in its
 * scope, sets the bits of its other events, and counts the bits of each faction's id range.
 */
import { TypedColumn } from '../../domain/typed-column.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import type { Scope } from '../filter.ts';
import { snapshotCache } from '../snapshot-cache.ts';
import { eventOrder, visitScope } from './event-order.ts';
import type { EventOrder } from './event-order.ts';

/** Block spans of the bitsets, as the faction cube's (above its single events). */
const SPANS = [32, 1024];
/** Bitsets a level may hold, in bytes: a data set of very many players skips the finer level. */
const LEVEL_BUDGET_BYTES = 64 * 2 ** 20;

interface PlayerPairs {
  /** Pairs of position k are id[start[k] .. start[k + 1]), each distinct within its event. */
  readonly start: Int32Array;
  readonly id: Int32Array;
  /** Pair ids of faction f are [factionStart[f], factionStart[f + 1]). */
  readonly factionStart: Int32Array;
  /** 32-bit words per bitset. */
  readonly words: number;
  /** Spans of the levels kept (a subset of SPANS, ascending). */
  readonly spans: readonly number[];
  /** Per level, the bitsets of its blocks one after another (block j at j * words). */
  readonly levels: readonly Uint32Array[];
}

/** Each event's distinct pairs, ids in order of first appearance, and each id's faction. */
function eventPairs(snapshot: Snapshot, order: EventOrder) {
  const { faction, player } = snapshot;
  const nF = snapshot.factions.length;
  const ids = new Map<number, number>();
  const pairFaction: number[] = [];
  const lastEvent: number[] = [];
  const start = new Int32Array(order.count + 1);
  const out = new TypedColumn(Int32Array);
  for (let k = 0; k < order.count; k++) {
    start[k] = out.length;
    for (let r = order.rowStart[k], end = order.rowStart[k + 1]; r < end; r++) {
      const p = player[r];
      if (p < 0) continue;
      const key = p * nF + faction[r];
      let id = ids.get(key);
      if (id === undefined) {
        id = pairFaction.length;
        ids.set(key, id);
        pairFaction.push(faction[r]);
        lastEvent.push(-1);
      }
      if (lastEvent[id] === k) continue;
      lastEvent[id] = k;
      out.push(id);
    }
  }
  start[order.count] = out.length;
  return { start, id: out.done(), pairFaction };
}

/** Renumbers pair ids faction by faction (a counting sort), so a faction is one id range. */
function byFaction(id: Int32Array, pairFaction: readonly number[], factions: number) {
  const factionStart = new Int32Array(factions + 1);
  for (const f of pairFaction) factionStart[f + 1]++;
  for (let f = 0; f < factions; f++) factionStart[f + 1] += factionStart[f];
  const next = factionStart.slice(0, factions);
  const renumbered = pairFaction.map((f) => next[f]++);
  return { factionStart, id: id.map((old) => renumbered[old]) };
}

/** Each event's pairs, numbered faction by faction, with the bitsets of aligned blocks. */
export const playerPairs = snapshotCache({
  name: 'player-pairs',
  build: (snapshot): PlayerPairs => {
    const order = eventOrder(snapshot);
    const pairs = eventPairs(snapshot, order);
    const { factionStart, id } = byFaction(pairs.id, pairs.pairFaction, snapshot.factions.length);
    const words = Math.ceil(pairs.pairFaction.length / 32);
    const spans: number[] = [];
    const levels: Uint32Array[] = [];
    for (const span of SPANS) {
      const blocks = Math.floor(order.count / span);
      if (blocks * words * 4 > LEVEL_BUDGET_BYTES) continue;
      const bits = new Uint32Array(blocks * words);
      for (let j = 0; j < blocks; j++) {
        const base = j * words;
        for (let i = pairs.start[j * span]; i < pairs.start[(j + 1) * span]; i++) {
          bits[base + (id[i] >>> 5)] |= 1 << (id[i] & 31);
        }
      }
      spans.push(span);
      levels.push(bits);
    }
    return { start: pairs.start, id, factionStart, words, spans, levels };
  },
  // One union bitset per snapshot, reused: a request runs to its end before the next starts.
  attach: (_snapshot, pairs) => ({ ...pairs, union: new Uint32Array(pairs.words) }),
});

/** Set bits of `bits` in [from, to). */
function countBits(bits: Uint32Array, from: number, to: number): number {
  let count = 0;
  for (let b = from; b < to; ) {
    const word = b >>> 5;
    const lo = b & 31;
    const hi = Math.min(32, to - (word << 5));
    let x = bits[word] >>> lo;
    if (hi - lo < 32) x &= (1 << (hi - lo)) - 1;
    // Population count of a 32-bit word (Hacker's Delight, figure 5-2).
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    count += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    b = (word + 1) << 5;
  }
  return count;
}

/** Distinct players per faction over the scope's events (docs/statistics.md#faction-stats). */
export function countPlayers(snapshot: Snapshot, scope: Scope): Float64Array {
  const { start, id, factionStart, words, spans, levels, union } = playerPairs(snapshot);
  union.fill(0);
  visitScope(
    eventOrder(snapshot),
    scope,
    spans,
    (level, block) => {
      const bits = levels[level];
      for (let w = 0, base = block * words; w < words; w++) union[w] |= bits[base + w];
    },
    (k) => {
      for (let i = start[k], end = start[k + 1]; i < end; i++) {
        union[id[i] >>> 5] |= 1 << (id[i] & 31);
      }
    },
  );
  const nF = snapshot.factions.length;
  const players = new Float64Array(nF);
  for (let f = 0; f < nF; f++) players[f] = countBits(union, factionStart[f], factionStart[f + 1]);
  return players;
}
