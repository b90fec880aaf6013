/**
 * The order of games in a snapshot (docs/architecture.md#the-snapshot-and-its-lifecycle): by system, start day,
 * event, round, then arrival (game id order), so a system and a date window are each one
 * contiguous row range.
 */

/** The events' columns the order reads. */
export interface EventKeys {
  count: number;
  system: Int32Array;
  startDay: Int32Array;
}

/**
 * Arrival indexes of the games in snapshot order. A counting sort by event rank (stable, so
 * arrival order holds) and a sort of the few events whose games did not arrive round by round.
 */
export function gameOrder(
  events: EventKeys,
  gEvent: Int32Array,
  gRound: Int32Array,
  nGames: number,
): Int32Array {
  const nEvents = events.count;
  const byRank = new Int32Array(nEvents);
  for (let e = 0; e < nEvents; e++) byRank[e] = e;
  byRank.sort(
    (x, y) =>
      events.system[x] - events.system[y] || events.startDay[x] - events.startDay[y] || x - y,
  );
  const start = new Int32Array(nEvents + 1);
  const rankOf = new Int32Array(nEvents);
  for (let r = 0; r < nEvents; r++) rankOf[byRank[r]] = r;
  for (let g = 0; g < nGames; g++) start[rankOf[gEvent[g]] + 1]++;
  for (let r = 0; r < nEvents; r++) start[r + 1] += start[r];
  const fill = start.slice(0, nEvents);
  const order = new Int32Array(nGames);
  for (let g = 0; g < nGames; g++) order[fill[rankOf[gEvent[g]]]++] = g;
  for (let r = 0; r < nEvents; r++) {
    let sorted = true;
    for (let i = start[r] + 1; i < start[r + 1] && sorted; i++) {
      sorted = gRound[order[i - 1]] <= gRound[order[i]];
    }
    if (!sorted) {
      order.subarray(start[r], start[r + 1]).sort((x, y) => gRound[x] - gRound[y] || x - y);
    }
  }
  return order;
}
