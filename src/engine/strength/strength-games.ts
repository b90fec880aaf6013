/**
 * The games the joint model reads (docs/ratings.md#the-joint-model), per system and in rating
 * order (event start, then event id, then round and game): rated games (two different known
 * players) with one point between the sides, each with side A's outcome (its score share where
 * the system has score rules and both scores are known, else 1 / ½ / 0), both players' Glicko-2
 * ratings before the game's event and the forecast of today's Glicko-2 (as
 * meta.predictionQuality computes it, docs/ratings.md#prediction-quality), and the window its
 * faction strengths belong to. Built once per snapshot.
 */
import { throwIfCancelledEvery } from '../cancellation.ts';
import type { Snapshot } from '../../snapshot/snapshot.ts';
import { snapshotData } from '../snapshot-cache.ts';
import { glicko2Expected } from '../ratings/glicko2.ts';
import { DEFAULT_GLICKO2, glicko2Run, ratableGames } from '../ratings/rankings.ts';
import { rankingFacts, systemGames } from '../ratings/snapshot-facts.ts';

/** One system's modelled games as columns, row k the k-th game in rating order. */
export interface StrengthGames {
  readonly system: number;
  readonly count: number;
  readonly game: Int32Array;
  readonly event: Int32Array;
  /** The event's start, days since 1970-01-01. */
  readonly day: Int32Array;
  /** Index into `windows`: the event's rules version when it names one, else its year. */
  readonly window: Int32Array;
  readonly windows: readonly string[];
  /** Faction of each side as an index into the system's factions (-1 unknown). */
  readonly factionA: Int32Array;
  readonly factionB: Int32Array;
  /** Side A's outcome: its score share, or 1 / ½ / 0. */
  readonly outcome: Float64Array;
  /** Side A's result: 1 / ½ / 0. */
  readonly result: Float64Array;
  /** Glicko-2 ratings before the game's event (idle events widening deviations, as rankings). */
  readonly ratingA: Float64Array;
  readonly ratingB: Float64Array;
  /** Their rating deviations before the game's event. */
  readonly rdA: Float64Array;
  readonly rdB: Float64Array;
  /** Today's Glicko-2 forecast of side A: E(μA, μB, φB) (Glickman 2012, step 3). */
  readonly expected: Float64Array;
  /** Whether outcomes are score shares (the system has score rules). */
  readonly scoreShare: boolean;
  /** How many factions the system has (faction indexes run 0 .. factions − 1). */
  readonly factions: number;
  /** By player index: the rating and deviation after every game of the system. */
  readonly finalRating: Float64Array;
  readonly finalRd: Float64Array;
}

/** Each system's modelled games, and per game index its row there (-1 when not modelled). */
export interface StrengthData {
  readonly systems: readonly StrengthGames[];
  readonly row: Int32Array;
}

/** Side A's outcome in [0, 1]: its share of the two scores when both are known, else its result. */
function outcomeOf(snapshot: Snapshot, g: number, scored: boolean): number {
  const a = snapshot.score[2 * g];
  const b = snapshot.score[2 * g + 1];
  if (scored && a === a && b === b && a >= 0 && b >= 0 && a + b > 0) return a / (a + b);
  return snapshot.result[2 * g] / 2;
}

/** The window label of an event: its rules version, else the year it starts. */
function windowLabel(snapshot: Snapshot, event: number): string {
  const rules = snapshot.events.rulesVersion[event];
  if (rules >= 0) return `rules ${snapshot.rulesVersions[rules]}`;
  const day = snapshot.events.startDay[event];
  return String(new Date(day * 86_400_000).getUTCFullYear());
}

function systemStrengthGames(snapshot: Snapshot, system: number, row: Int32Array): StrengthGames {
  const facts = rankingFacts(snapshot);
  const run = glicko2Run(
    facts,
    ratableGames(facts, systemGames(snapshot, system)),
    DEFAULT_GLICKO2,
    true,
  );
  const order = run.periodOrder;
  const sys = snapshot.systems[system];
  const scored = sys.scoreTotal !== null;
  const local = new Map(sys.factions.map((f, i) => [f, i]));
  const windowIndex = new Map<string, number>();
  const n = order.length;
  const cols = {
    game: new Int32Array(n),
    event: new Int32Array(n),
    day: new Int32Array(n),
    window: new Int32Array(n),
    factionA: new Int32Array(n),
    factionB: new Int32Array(n),
    outcome: new Float64Array(n),
    result: new Float64Array(n),
    ratingA: new Float64Array(n),
    ratingB: new Float64Array(n),
    rdA: new Float64Array(n),
    rdB: new Float64Array(n),
    expected: new Float64Array(n),
  };
  let count = 0;
  for (let k = 0; k < n; k += 1) {
    throwIfCancelledEvery(k);
    const g = order[k];
    // A double loss (or any result not one point between the sides) forecasts nothing.
    if (snapshot.result[2 * g] + snapshot.result[2 * g + 1] !== 2) continue;
    const e = snapshot.gameEvent[g];
    const label = windowLabel(snapshot, e);
    let w = windowIndex.get(label);
    if (w === undefined) windowIndex.set(label, (w = windowIndex.size));
    cols.game[count] = g;
    cols.event[count] = e;
    cols.day[count] = snapshot.events.startDay[e];
    cols.window[count] = w;
    cols.factionA[count] = local.get(snapshot.faction[2 * g]) ?? -1;
    cols.factionB[count] = local.get(snapshot.faction[2 * g + 1]) ?? -1;
    cols.outcome[count] = outcomeOf(snapshot, g, scored);
    cols.result[count] = snapshot.result[2 * g] / 2;
    cols.ratingA[count] = run.preRatingA![k];
    cols.ratingB[count] = run.preRatingB![k];
    cols.rdA[count] = run.preRdA![k];
    cols.rdB[count] = run.preRdB![k];
    cols.expected[count] = glicko2Expected(run.preRatingA![k], run.preRatingB![k], run.preRdB![k]);
    row[g] = count;
    count += 1;
  }
  const cut = <T extends Int32Array | Float64Array>(a: T): T => a.slice(0, count) as T;
  return {
    system,
    count,
    game: cut(cols.game),
    event: cut(cols.event),
    day: cut(cols.day),
    window: cut(cols.window),
    windows: [...windowIndex.keys()],
    factionA: cut(cols.factionA),
    factionB: cut(cols.factionB),
    outcome: cut(cols.outcome),
    result: cut(cols.result),
    ratingA: cut(cols.ratingA),
    ratingB: cut(cols.ratingB),
    rdA: cut(cols.rdA),
    rdB: cut(cols.rdB),
    expected: cut(cols.expected),
    scoreShare: scored,
    factions: sys.factions.length,
    finalRating: run.rating,
    finalRd: run.rd,
  };
}

/** Every system's modelled games, built once per snapshot (docs/ratings.md#the-joint-model). */
export const strengthData = snapshotData('strength-games', (snapshot): StrengthData => {
  const row = new Int32Array(snapshot.games).fill(-1);
  const systems = snapshot.systems.map((_, s) => systemStrengthGames(snapshot, s, row));
  return { systems, row };
});
