/**
 * An event as the projection starts from it (docs/event-projection.md): its players, their
 * records and opponents after the rounds counted, how many rounds its data has played, and the
 * tables announced for the rounds left.
 */
import { RESULT_DRAW, RESULT_WIN } from '../../snapshot/snapshot.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { eventIndex } from '../events/event-index.ts';
import { eventPairings } from '../events/event-pairings.ts';
import { findPlayerIndex } from '../player-index.ts';
import type { SwissField } from './swiss-simulation.ts';

export interface EventField extends SwissField {
  /** Player index of each field player, in the order first met in the event's games. */
  readonly players: Int32Array;
  readonly losses: Int32Array;
  /** Whether any game of the player counted has a known score. */
  readonly scored: Uint8Array;
}

/** The highest round of the event's games, and whether some game has no round number. */
export function playedRounds(snapshot: Snapshot, e: number): { last: number; unnumbered: boolean } {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  let last = 0;
  let unnumbered = false;
  for (let r = rowStart[e]; r < rowEnd[e]; r += 2) {
    const round = snapshot.gameRound[r >> 1];
    if (round < 0) unnumbered = true;
    else last = Math.max(last, round);
  }
  return { last, unnumbered };
}

/**
 * The players of event `e` (every known player with a game there) and their records over the
 * games of rounds up to `afterRound` (every game when null), with room for `left` more rounds.
 */
export function eventField(
  snapshot: Snapshot,
  e: number,
  afterRound: number | null,
  left: number,
): EventField {
  const { rowStart, rowEnd } = eventIndex(snapshot);
  const index = new Map<number, number>();
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const p = snapshot.player[r];
    if (p >= 0 && !index.has(p)) index.set(p, index.size);
  }
  const n = index.size;
  const counted = (r: number) => afterRound === null || snapshot.gameRound[r >> 1] <= afterRound;
  const games = new Int32Array(n);
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const i = index.get(snapshot.player[r]);
    if (i !== undefined && counted(r)) games[i]++;
  }
  const stride = Math.max(0, ...games) + left;
  const field = {
    n,
    players: Int32Array.from(index.keys()),
    wins: new Int32Array(n),
    draws: new Int32Array(n),
    losses: new Int32Array(n),
    score: new Float64Array(n),
    margin: new Float64Array(n),
    scored: new Uint8Array(n),
    opponents: new Int32Array(n * stride),
    opponentCount: new Int32Array(n),
    stride,
    tieOrder: null,
  };
  for (let r = rowStart[e]; r < rowEnd[e]; r++) {
    const i = index.get(snapshot.player[r]);
    if (i === undefined || !counted(r)) continue;
    const res = snapshot.result[r];
    if (res === RESULT_WIN) field.wins[i]++;
    else if (res === RESULT_DRAW) field.draws[i]++;
    else field.losses[i]++;
    const own = snapshot.score[r];
    if (!Number.isNaN(own)) {
      field.score[i] += own;
      field.scored[i] = 1;
      const d = own - snapshot.score[r ^ 1];
      if (!Number.isNaN(d)) field.margin[i] += d;
    }
    const o = index.get(snapshot.player[r ^ 1]);
    if (o !== undefined) field.opponents[i * stride + field.opponentCount[i]++] = o;
  }
  return field;
}

/**
 * The tables announced for the rounds left (docs/event-projection.md#what-is-simulated): the
 * event's unplayed games, by round after `after` (an unnumbered one is the round in progress),
 * as pairs of field indices. A table is left out where a player is not in the field or is at
 * another table of the round already; those players are paired with the rest.
 */
export function announcedRounds(
  snapshot: Snapshot,
  e: number,
  field: EventField,
  after: number,
  left: number,
): Int32Array[] {
  const games = eventPairings(snapshot).get(e) ?? [];
  const at = new Map<number, number>();
  field.players.forEach((p, i) => at.set(p, i));
  const tables: number[][] = Array.from({ length: left }, () => []);
  const seated = Array.from({ length: left }, () => new Set<number>());
  for (const game of games) {
    const r = game.round === null ? 0 : game.round - after - 1;
    if (r < 0 || r >= left) continue;
    const [a, b] = game.sides.map((side) =>
      side.player === null ? undefined : at.get(findPlayerIndex(snapshot, side.player)),
    );
    if (a === undefined || b === undefined || a === b) continue;
    if (seated[r].has(a) || seated[r].has(b)) continue;
    seated[r].add(a).add(b);
    tables[r].push(a, b);
  }
  // Rounds after the last announced one are Swiss-paired in full.
  let end = left;
  while (end > 0 && tables[end - 1].length === 0) end--;
  return tables.slice(0, end).map((t) => Int32Array.from(t));
}
