/**
 * faction-stats' per-event pre-aggregates (docs/statistics.md#faction-stats): per (event, faction)
 * the additive counters of every field, kept apart for mirror and non-mirror sides so that
 * `excludeMirrors` is chosen at request time, plus per-event totals. Distinct players, which do
 * not add up across events, are counted in player-pairs.ts.
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import {
  PLACEMENTS_DERIVED,
  PLACEMENTS_NONE,
  RESULT_DRAW,
  RESULT_WIN,
} from '../../snapshot/snapshot.ts';
import { addBand, bandBounds, bandOf } from '../margin-bands.ts';
import { sideExpectedScores } from '../ratings/snapshot-facts.ts';
import { buildCube } from './event-cube.ts';
import type { EventCube, EventScanner } from './event-cube.ts';
import { eventOrder } from './event-order.ts';
import { overRepresentation } from '../over-representation.ts';
import type { OverCounts, OverRepresentation } from '../over-representation.ts';
import { snapshotCache } from '../snapshot-cache.ts';
import type { EventOrder } from './event-order.ts';

// Faction plane slots (key = faction). NM_ = non-mirror sides, M_ = mirror sides.
export const SIDES = 0;
export const NM_GAMES = 1;
export const NM_WINS = 2;
export const NM_DRAWS = 3;
export const NM_LOSSES = 4;
export const M_SIDES = 5;
export const M_WINS = 6;
export const M_DRAWS = 7;
export const M_LOSSES = 8;
export const MIRRORS = 9;
export const SCORE_N = 10;
export const SCORE_SUM = 11;
export const SCORE_SQ = 12;
export const FT_NM_GAMES = 13;
export const FT_NM_POINTS = 14;
export const FT_M_GAMES = 15;
export const FT_M_POINTS = 16;
export const FT_SCORE_N = 17;
export const FT_SCORE_SUM = 18;
export const ST_NM_GAMES = 19;
export const ST_NM_POINTS = 20;
export const ST_M_GAMES = 21;
export const ST_M_POINTS = 22;
export const ST_SCORE_N = 23;
export const ST_SCORE_SUM = 24;
export const SKILL_N = 25;
export const SKILL_EXPECTED = 26;
export const SKILL_ACTUAL = 27;
export const ENTRIES = 28;
export const EVENT_WINS = 29;
export const UNDEFEATED = 30;
export const TOP = 31;
/** Entries, and undefeated entries, in events with published or rule-derived placings. */
export const PLACED_ENTRIES = 32;
export const PLACED_UNDEFEATED = 33;
/** Of EVENT_WINS, those at events whose places are derived by a rule (docs/statistics.md#standings). */
export const DERIVED_EVENT_WINS = 34;
export const FACTION_STRIDE = 35;

// Event plane slots (one key).
export const E_GAMES = 0;
/** Four band counters from E_BANDS: decisive, normal, close, decided with a known score. */
export const E_BANDS = 1;
export const E_TOP = 5;
export const E_FT_N = 6;
export const E_FT_SUM = 7;
export const E_ST_N = 8;
export const E_ST_SUM = 9;
// Over events with placings, entries with a faction only: the field of over-representation.
export const E_PLACED_EVENTS = 10;
export const E_PLACED_ENTRIES = 11;
export const E_PLACED_TOP = 12;
export const E_PLACED_UNDEFEATED = 13;
export const E_PLACED_WINS = 14;
export const EVENT_STRIDE = 15;

/** Per-event cells, and blocks of 32 and 1024 events for wide scopes. */
const SPANS = [1, 32, 1024];

export interface FactionCube {
  readonly order: EventOrder;
  readonly cube: EventCube;
  readonly scan: EventScanner;
}

/** Standings rows of event e are [start[e], start[e + 1]) (they are written event by event). */
function standingsStarts(snapshot: Snapshot): Int32Array {
  const st = snapshot.standings;
  const start = new Int32Array(snapshot.events.count + 1);
  for (let i = 0; i < st.count; i++) start[st.event[i] + 1]++;
  for (let e = 0; e < snapshot.events.count; e++) start[e + 1] += start[e];
  return start;
}

function scanner(snapshot: Snapshot, order: EventOrder): EventScanner {
  const { faction, opponent, score, result, firstTurn } = snapshot;
  const expected = sideExpectedScores(snapshot);
  const bounds = snapshot.systems.map((_, s) => bandBounds(snapshot, s));
  const st = snapshot.standings;
  const stStart = standingsStarts(snapshot);
  return (from, to, [acc, ev]) => {
    for (let k = from; k < to; k++) {
      const e = order.event[k];
      const systemBounds = bounds[snapshot.events.system[e]];
      for (let r = order.rowStart[k], end = order.rowStart[k + 1]; r < end; r++) {
        const f = faction[r];
        const base = f * FACTION_STRIDE;
        const mirror = opponent[r] === f;
        const res = result[r];
        const sc = score[r];
        const hasScore = sc === sc;
        const ft = firstTurn[r];
        acc[base + SIDES]++;
        if (hasScore) {
          acc[base + SCORE_N]++;
          acc[base + SCORE_SUM] += sc;
          acc[base + SCORE_SQ] += sc * sc;
        }
        if (mirror) {
          acc[base + M_SIDES]++;
          if ((r & 1) === 0) acc[base + MIRRORS]++;
          if (res === RESULT_WIN) acc[base + M_WINS]++;
          else if (res === RESULT_DRAW) acc[base + M_DRAWS]++;
          else acc[base + M_LOSSES]++;
        } else {
          acc[base + NM_GAMES]++;
          if (res === RESULT_WIN) acc[base + NM_WINS]++;
          else if (res === RESULT_DRAW) acc[base + NM_DRAWS]++;
          else acc[base + NM_LOSSES]++;
          // Mirrors say nothing about the army against the others (as winRate by default).
          const x = expected[r];
          if (x === x) {
            acc[base + SKILL_N]++;
            acc[base + SKILL_EXPECTED] += x;
            acc[base + SKILL_ACTUAL] += res / 2;
          }
        }
        if (ft === 1) {
          acc[base + (mirror ? FT_M_GAMES : FT_NM_GAMES)]++;
          acc[base + (mirror ? FT_M_POINTS : FT_NM_POINTS)] += res;
          if (hasScore) {
            acc[base + FT_SCORE_N]++;
            acc[base + FT_SCORE_SUM] += sc;
            ev[E_FT_N]++;
            ev[E_FT_SUM] += sc;
          }
        } else if (ft === 0) {
          acc[base + (mirror ? ST_M_GAMES : ST_NM_GAMES)]++;
          acc[base + (mirror ? ST_M_POINTS : ST_NM_POINTS)] += res;
          if (hasScore) {
            acc[base + ST_SCORE_N]++;
            acc[base + ST_SCORE_SUM] += sc;
            ev[E_ST_N]++;
            ev[E_ST_SUM] += sc;
          }
        }
        if ((r & 1) === 0) {
          ev[E_GAMES]++;
          addBand(ev, E_BANDS, bandOf(result, score, systemBounds, r >> 1));
        }
      }
      const placed = st.eventPlacements[e] !== PLACEMENTS_NONE;
      const derived = st.eventPlacements[e] === PLACEMENTS_DERIVED;
      if (placed && stStart[e + 1] > stStart[e]) ev[E_PLACED_EVENTS]++;
      for (let i = stStart[e]; i < stStart[e + 1]; i++) {
        if (st.top[i]) ev[E_TOP]++;
        const f = st.faction[i];
        if (f < 0) continue;
        const base = f * FACTION_STRIDE;
        acc[base + ENTRIES]++;
        if (st.placement[i] === 1) {
          acc[base + EVENT_WINS]++;
          if (derived) acc[base + DERIVED_EVENT_WINS]++;
        }
        if (st.undefeated[i]) acc[base + UNDEFEATED]++;
        if (st.top[i]) acc[base + TOP]++;
        if (!placed) continue;
        acc[base + PLACED_ENTRIES]++;
        ev[E_PLACED_ENTRIES]++;
        if (st.top[i]) ev[E_PLACED_TOP]++;
        if (st.placement[i] === 1) ev[E_PLACED_WINS]++;
        if (st.undefeated[i]) {
          acc[base + PLACED_UNDEFEATED]++;
          ev[E_PLACED_UNDEFEATED]++;
        }
      }
    }
  };
}

/**
 * The faction-stats cube of a snapshot, built once per snapshot
 * (docs/architecture.md#per-event-sums).
 */
export const factionCube = snapshotCache({
  name: 'faction-cube',
  build: (snapshot): EventCube => {
    const order = eventOrder(snapshot);
    const planes = [
      { keys: snapshot.factions.length, stride: FACTION_STRIDE },
      { keys: 1, stride: EVENT_STRIDE },
    ];
    return buildCube(order, planes, SPANS, scanner(snapshot, order));
  },
  attach: (snapshot, cube): FactionCube => {
    const order = eventOrder(snapshot);
    return { order, cube, scan: scanner(snapshot, order) };
  },
});

/**
 * A faction's over-representation over the events with placings in scope
 * (docs/statistics.md#over-representation); EVENT_WINS and TOP count placed events only.
 */
export function factionOver(acc: Float64Array, base: number, ev: Float64Array): OverRepresentation {
  const field: OverCounts = {
    events: ev[E_PLACED_EVENTS],
    entries: ev[E_PLACED_ENTRIES],
    top: ev[E_PLACED_TOP],
    undefeated: ev[E_PLACED_UNDEFEATED],
    wins: ev[E_PLACED_WINS],
  };
  const faction = {
    entries: acc[base + PLACED_ENTRIES],
    top: acc[base + TOP],
    undefeated: acc[base + PLACED_UNDEFEATED],
    wins: acc[base + EVENT_WINS],
  };
  return overRepresentation(faction, field);
}
