/**
 * Calibration of P(win / draw / loss) (docs/ratings.md#win-draw-and-loss) on a store of real
 * data: the last three months held out, each held-out game forecast by the rolling backtest's
 * joint model (games of earlier events only), its P(win) from a draw model fitted to the games
 * before the hold-out, as systemModel fits it (on the in-sample predictor). Per decile of P(win):
 * mean forecast against the observed win share. Plain maximum likelihood (the old fit) beside
 * the prior on ln κ, on all the earlier games and on only the last few hundred of them.
 * Usage, after `muster import --format t9a`:
 *   MUSTER_DATABASE_URL=sqlite:/tmp/t9a.db node bench/draw-calibration-t9a.ts [system]
 */
import { dayString } from '../src/domain/calendar-day.ts';
import { BACKTEST_FIT, rollingForecasts } from '../src/engine/strength/backtest.ts';
import {
  KAPPA_PRIOR_SD,
  fitDrawModel,
  resultProbabilities,
} from '../src/engine/strength/draw-model.ts';
import type { ResultProbabilities } from '../src/engine/strength/draw-model.ts';
import { JOINT_TERMS, fitJoint, logit } from '../src/engine/strength/joint-model.ts';
import { predictJoint } from '../src/engine/strength/joint-prediction.ts';
import { strengthData } from '../src/engine/strength/strength-games.ts';
import { loadSnapshot } from '../src/snapshot/load-snapshot.ts';
import { openStore } from '../src/store/store.ts';

const url = process.env.MUSTER_DATABASE_URL ?? 'sqlite:/tmp/t9a-joint/t9a.db';
const store = await openStore(url);
const snapshot = await loadSnapshot(store);
await store.close();
const system = process.argv[2] ?? snapshot.systems[0].id;
const games = strengthData(snapshot).systems[snapshot.systemIndex.get(system)!];
const holdoutFrom = games.day[games.count - 1] - 91;
let end = 0;
while (end < games.count && games.day[end] < holdoutFrom) end += 1;
const holdout = Int32Array.from({ length: games.count - end }, (_, i) => end + i);
console.log(
  `${system}: ${end} games before ${dayString(holdoutFrom)}, ${holdout.length} held out; ` +
    `score share: ${games.scoreShare}`,
);
const etaHeld = Float64Array.from(rollingForecasts(games, holdout, BACKTEST_FIT).forecast, logit);
const ETA_0844 = logit(0.844);

/** The draw model fitted as systemModel fits it, to the `n` games before the hold-out. */
function drawModelOn(n: number, priorSd: number) {
  const start = end - n;
  const model = fitJoint(games, { terms: JOINT_TERMS, rows: end, start: undefined });
  const fitted = n === end ? model : fitJoint(sliceGames(start), { terms: JOINT_TERMS });
  const eta = Float64Array.from({ length: n }, (_, i) => {
    const r = start + i;
    const x = logit(games.expected[r]);
    return predictJoint(fitted, games.factionA[r], games.factionB[r], games.window[r], x, false)
      .eta;
  });
  return fitDrawModel(eta, games.result.subarray(start, end), priorSd);
}

/** The games from row `start` to the hold-out, as a system of their own. */
function sliceGames(start: number): typeof games {
  const cut = <T extends Int32Array | Float64Array>(a: T): T => a.slice(start, end) as T;
  return {
    ...games,
    count: end - start,
    game: cut(games.game),
    event: cut(games.event),
    day: cut(games.day),
    window: cut(games.window),
    factionA: cut(games.factionA),
    factionB: cut(games.factionB),
    outcome: cut(games.outcome),
    result: cut(games.result),
    ratingA: cut(games.ratingA),
    ratingB: cut(games.ratingB),
    expected: cut(games.expected),
  };
}

function deciles(label: string, p: ResultProbabilities[]): void {
  const order = p.map((_, i) => i).sort((a, b) => p[a].win - p[b].win);
  let worst = 0;
  let logLoss = 0;
  const lines: string[] = [];
  for (let k = 0; k < 10; k += 1) {
    const part = order.slice(
      Math.floor((k * order.length) / 10),
      Math.floor(((k + 1) * order.length) / 10),
    );
    let forecast = 0;
    let won = 0;
    for (const i of part) {
      forecast += p[i].win;
      won += games.result[holdout[i]] === 1 ? 1 : 0;
    }
    worst = Math.max(worst, Math.abs(forecast - won) / part.length);
    lines.push(
      `${k + 1} | ${part.length} | ${(forecast / part.length).toFixed(3)} | ${(won / part.length).toFixed(3)}`,
    );
  }
  order.forEach((i) => {
    const r = games.result[holdout[i]];
    const q = r === 1 ? p[i].win : r === 0 ? p[i].loss : p[i].draw;
    logLoss -= Math.log(Math.max(q, 1e-12)) / order.length;
  });
  console.log(
    `\n## ${label}: worst decile ${(worst * 100).toFixed(1)} pp, W/D/L log loss ${logLoss.toFixed(4)}`,
  );
  console.log('decile | games | mean P(win) | observed win share');
  for (const line of lines) console.log(line);
}

for (const n of [end, 300, 100]) {
  for (const [name, sd] of [
    ['plain maximum likelihood (before)', Infinity],
    [`prior sd ${KAPPA_PRIOR_SD} on ln κ (after)`, KAPPA_PRIOR_SD],
  ] as const) {
    if (n > end) continue;
    const model = drawModelOn(n, sd);
    const at = resultProbabilities(model, ETA_0844);
    deciles(
      `${name}, fitted to the last ${n} earlier games: κ ${model.kappa.toFixed(3)}, c ${model.cut.toFixed(3)}, P(win) at 0.844 ${at.win.toFixed(3)}`,
      Array.from(etaHeld, (eta) => resultProbabilities(model, eta)),
    );
  }
}
