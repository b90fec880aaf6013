/**
 * Where each event's standings and games sit in the snapshot (docs/statistics.md#events): the
 * standings rows of an event are contiguous (src/snapshot/derive-standings.ts builds them event
 * by event), and so are its game sides (docs/architecture.md#the-snapshot-and-its-lifecycle).
 */
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { snapshotData } from '../snapshot-cache.ts';

export interface EventIndex {
  /** Standings rows of event e: [standingStart[e], standingStart[e + 1]). */
  readonly standingStart: Int32Array;
  /** Side rows of event e: [rowStart[e], rowEnd[e]); empty when it has no game. */
  readonly rowStart: Int32Array;
  readonly rowEnd: Int32Array;
}

/** The event index of a snapshot, built once per snapshot (linear in standings and sides). */
export const eventIndex = snapshotData('event-index', (snapshot: Snapshot): EventIndex => {
  const n = snapshot.events.count;
  const st = snapshot.standings;
  const counts = new Int32Array(n + 1);
  for (let i = 0; i < st.count; i++) counts[st.event[i] + 1]++;
  for (let e = 0; e < n; e++) counts[e + 1] += counts[e];
  const rowStart = new Int32Array(n);
  const rowEnd = new Int32Array(n);
  const { rowEvent, sides } = snapshot;
  for (let r = 0; r < sides; r += 2) {
    const e = rowEvent[r];
    if (r === 0 || rowEvent[r - 2] !== e) rowStart[e] = r;
    rowEnd[e] = r + 2;
  }
  return { standingStart: counts, rowStart, rowEnd };
});

/**
 * Each event's declared participant count as the statistics read it (docs/statistics.md#events),
 * -1 where the source did not really give one: a count of 0, or fewer than the distinct players
 * with a game there, is a count the source left out, not a fact. 49 of the 403 T9A events
 * declare 0 participants above games of up to a hundred players.
 */
export const declaredParticipants = snapshotData(
  'event-participants',
  (snapshot: Snapshot): Int32Array => {
    const { rowStart, rowEnd } = eventIndex(snapshot);
    const declared = snapshot.events.participants;
    const { player } = snapshot;
    // The event a player was last counted for, plus one: a distinct count without a set per event.
    const counted = new Int32Array(snapshot.players.length);
    const out = new Int32Array(declared.length);
    for (let e = 0; e < declared.length; e++) {
      let played = 0;
      for (let r = rowStart[e]; r < rowEnd[e]; r++) {
        const p = player[r];
        if (p >= 0 && counted[p] !== e + 1) {
          counted[p] = e + 1;
          played++;
        }
      }
      out[e] = declared[e] > 0 && declared[e] >= played ? declared[e] : -1;
    }
    return out;
  },
);
