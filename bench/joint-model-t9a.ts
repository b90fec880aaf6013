/**
 * The joint model on a store of real data (docs/ratings.md#the-joint-model): the backtest of the
 * four models over all games and over the last three months held out, the variants that decided
 * the model's form, and how long the fits take. Usage, after `muster import --format t9a`:
 *   MUSTER_DATABASE_URL=sqlite:/tmp/t9a.db node bench/joint-model-t9a.ts [system]
 */
import { dayNumber, dayString } from '../src/domain/calendar-day.ts';
import { normaliseCommonFilter } from '../src/engine/filter.ts';
import {
  FORECAST_MODELS,
  rollingForecasts,
  sequentialForecasts,
} from '../src/engine/strength/backtest.ts';
import { factionStrength } from '../src/engine/strength/faction-strength.ts';
import { forecast } from '../src/engine/strength/forecast.ts';
import { forecastAccuracy } from '../src/engine/strength/forecast-accuracy.ts';
import { ScoreAccumulator } from '../src/engine/strength/forecast-scores.ts';
import {
  DEFAULT_PRIOR_SCALES,
  FACTION_TERMS,
  JOINT_TERMS,
  fitJoint,
  logit,
} from '../src/engine/strength/joint-model.ts';
import type { JointFitOptions } from '../src/engine/strength/joint-model.ts';
import { expit, predictJoint } from '../src/engine/strength/joint-prediction.ts';
import { strengthData } from '../src/engine/strength/strength-games.ts';
import { systemModel } from '../src/engine/strength/system-model.ts';
import { loadSnapshot } from '../src/snapshot/load-snapshot.ts';
import { openStore } from '../src/store/store.ts';

const url = process.env.MUSTER_DATABASE_URL ?? 'sqlite:/tmp/t9a-joint/t9a.db';
const store = await openStore(url);
const snapshot = await loadSnapshot(store);
await store.close();
const system = process.argv[2] ?? snapshot.systems[0].id;
const systemIndex = snapshot.systemIndex.get(system)!;

/**
 * The process's CPU time (user + system) of f, milliseconds: on a shared machine it says more
 * than the wall clock, and the engine is single-threaded.
 */
function ms(f: () => unknown): number {
  const t = process.cpuUsage();
  f();
  const used = process.cpuUsage(t);
  return (used.user + used.system) / 1000;
}

const built = ms(() => strengthData(snapshot));
const games = strengthData(snapshot).systems[systemIndex];
const lastDay = games.day[games.count - 1];
const holdoutFrom = dayString(lastDay - 91);
console.log(`${system}: ${games.count} modelled games, windows ${games.windows.join(', ')}`);
console.log(`strength games built in ${built.toFixed(0)} ms; hold-out from ${holdoutFrom}`);

function report(label: string, from?: string): void {
  const filter = normaliseCommonFilter(snapshot, { system, from });
  let result!: ReturnType<typeof forecastAccuracy>;
  const took = ms(() => (result = forecastAccuracy(snapshot, filter)));
  console.log(
    `\n## ${label}: ${result.data.refits} refits per fitted model, ${took.toFixed(0)} ms CPU`,
  );
  console.log('model | games | Brier | log loss | accuracy | worst bin (>=100 games)');
  for (const m of result.data.models) {
    let worst = 0;
    for (const bin of m.calibration) {
      if (bin.games >= 100) worst = Math.max(worst, Math.abs(bin.meanOutcome! - bin.meanForecast!));
    }
    console.log(
      `${m.model} | ${m.games} | ${m.brier!.toFixed(4)} | ${m.logLoss!.toFixed(4)} | ${m.accuracy!.toFixed(4)} | ${(worst * 100).toFixed(1)} pp`,
    );
  }
  const joint = result.data.models.find((m) => m.model === 'joint')!;
  console.log('joint calibration: from | games | mean forecast | mean outcome');
  for (const bin of joint.calibration) {
    if (bin.games > 0) {
      console.log(
        `${bin.from.toFixed(1)} | ${bin.games} | ${bin.meanForecast!.toFixed(3)} | ${bin.meanOutcome!.toFixed(3)}`,
      );
    }
  }
}

report('all games');
report('last three months held out', holdoutFrom);

/** Rows of the hold-out: every modelled game of events starting on or after its first day. */
const holdout = Int32Array.from({ length: games.count }, (_, r) => r).filter(
  (r) => games.day[r] >= dayNumber(holdoutFrom),
);

function scoreOf(forecasts: Float64Array, rows: Int32Array): string {
  const acc = new ScoreAccumulator();
  rows.forEach((r, i) => acc.add(forecasts[i], games.outcome[r], games.result[r]));
  const s = acc.result();
  return `${s.brier!.toFixed(4)} | ${s.logLoss!.toFixed(4)} | ${s.accuracy!.toFixed(4)}`;
}

function variant(label: string, options: JointFitOptions, rows = holdout): void {
  let out!: ReturnType<typeof rollingForecasts>;
  const took = ms(() => (out = rollingForecasts(games, rows, options)));
  console.log(`${label} | ${scoreOf(out.forecast, rows)} | ${took.toFixed(0)} ms`);
}

console.log('\n## variants on the hold-out: variant | Brier | log loss | accuracy | CPU time');
variant('joint (default: at most 4 Newton steps per origin)', { terms: JOINT_TERMS });
variant('joint, 1 Newton step per origin', { terms: JOINT_TERMS, maxIterations: 1 });
for (const steps of [1, 2]) {
  let seq!: ReturnType<typeof sequentialForecasts>;
  const took = ms(() => (seq = sequentialForecasts(games, holdout, { terms: JOINT_TERMS }, steps)));
  console.log(
    `joint, sequential (${steps} steps per day) | ${scoreOf(seq.forecast, holdout)} | ${took.toFixed(0)} ms`,
  );
  const all = Int32Array.from({ length: games.count }, (_, r) => r);
  const tookAll = ms(() => (seq = sequentialForecasts(games, all, { terms: JOINT_TERMS }, steps)));
  console.log(
    `joint, sequential (${steps} steps per day), all games | ${scoreOf(seq.forecast, all)} | ${tookAll.toFixed(0)} ms`,
  );
}
variant('joint, 2 Newton steps per origin', { terms: JOINT_TERMS, maxIterations: 2 });
variant('joint without matchup', { terms: { skill: true, matchup: false } });
variant('joint, β fixed at 1', {
  terms: JOINT_TERMS,
  scales: { ...DEFAULT_PRIOR_SCALES, skill: 1e-4 },
});
variant('joint without windows', {
  terms: JOINT_TERMS,
  scales: { ...DEFAULT_PRIOR_SCALES, window: 1e-4 },
});
for (const matchup of [0.05, 0.2, 0.5]) {
  variant(`joint, matchup sd ${matchup}`, {
    terms: JOINT_TERMS,
    scales: { ...DEFAULT_PRIOR_SCALES, matchup },
  });
}
for (const window of [0.1, 0.5]) {
  variant(`joint, window sd ${window}`, {
    terms: JOINT_TERMS,
    scales: { ...DEFAULT_PRIOR_SCALES, window },
  });
}
for (const faction of [0.25, 1]) {
  variant(`joint, faction sd ${faction}`, {
    terms: JOINT_TERMS,
    scales: { ...DEFAULT_PRIOR_SCALES, faction },
  });
}
variant('faction only', { terms: FACTION_TERMS });
playerFactionVariant(false);
playerFactionVariant(true);

/**
 * Aligulac's form: an offset per player and opposing faction, o[p, f], added to the skill and
 * faction terms (with or without the pair effects), each offset shrunk by a Gaussian prior of
 * sd 0.2 and fitted by Jacobi Newton steps on the earlier games at every origin.
 */
function playerFactionVariant(withPairs: boolean): void {
  const started = process.cpuUsage();
  const f = games.factions;
  const player = (r: number, side: number): number => snapshot.player[2 * games.game[r] + side];
  const offsets = new Float64Array(snapshot.players.length * f);
  const precision = 1 / 0.2 ** 2;
  const forecastOut = new Float64Array(holdout.length);
  const terms = { skill: true, matchup: withPairs };
  let end = 0;
  let fittedEnd = -1;
  let model = fitJoint(games, { terms, rows: 0 });
  const eta = (r: number): number =>
    predictJoint(
      model,
      games.factionA[r],
      games.factionB[r],
      games.window[r],
      logit(games.expected[r]),
      false,
    ).eta;
  const cellA = (r: number): number => player(r, 0) * f + games.factionB[r];
  const cellB = (r: number): number => player(r, 1) * f + games.factionA[r];
  for (let i = 0; i < holdout.length; i += 1) {
    const r = holdout[i];
    while (end < games.count && games.day[end] < games.day[r]) end += 1;
    if (end !== fittedEnd) {
      model = fitJoint(games, {
        terms,
        rows: end,
        start: model,
        maxIterations: 4,
        tolerance: 1e-4,
      });
      fitOffsets(end, offsets, precision, eta, cellA, cellB);
      fittedEnd = end;
    }
    const o = offsetOf(offsets, r, cellA, cellB);
    forecastOut[i] = expit(eta(r) + o);
  }
  const used = process.cpuUsage(started);
  const took = (used.user + used.system) / 1000;
  console.log(
    `player x opposing faction offsets${withPairs ? ' + pairs' : ''} | ${scoreOf(forecastOut, holdout)} | ${took.toFixed(0)} ms`,
  );
}

function offsetOf(
  offsets: Float64Array,
  r: number,
  cellA: (r: number) => number,
  cellB: (r: number) => number,
): number {
  const a = games.factionB[r] >= 0 ? offsets[cellA(r)] : 0;
  const b = games.factionA[r] >= 0 ? offsets[cellB(r)] : 0;
  return a - b;
}

function fitOffsets(
  end: number,
  offsets: Float64Array,
  precision: number,
  eta: (r: number) => number,
  cellA: (r: number) => number,
  cellB: (r: number) => number,
): void {
  const base = Float64Array.from({ length: end }, (_, r) => eta(r));
  for (let round = 0; round < 3; round += 1) {
    const gradient = new Map<number, number>();
    const hessian = new Map<number, number>();
    for (let r = 0; r < end; r += 1) {
      const p = expit(base[r] + offsetOf(offsets, r, cellA, cellB));
      const resid = games.outcome[r] - p;
      const w = p * (1 - p);
      for (const [cell, sign] of [
        [cellA(r), 1],
        [cellB(r), -1],
      ] as const) {
        gradient.set(cell, (gradient.get(cell) ?? 0) + sign * resid);
        hessian.set(cell, (hessian.get(cell) ?? 0) + w);
      }
    }
    for (const [cell, g] of gradient) {
      offsets[cell] += (g - precision * offsets[cell]) / (hessian.get(cell)! + precision);
    }
  }
}

console.log('\n## fits and answers on all games');
const filter = normaliseCommonFilter(snapshot, { system });
console.log(`joint fit, cold: ${ms(() => fitJoint(games)).toFixed(0)} ms`);
const sm = systemModel(snapshot, systemIndex);
console.log(
  `system model (joint + draws): ${sm.milliseconds.toFixed(0)} ms; β = ${sm.model.fit.theta[0].toFixed(3)}, dispersion ${sm.model.fit.dispersion.toFixed(3)}, draws κ = ${sm.draws.kappa.toFixed(3)}, c = ${sm.draws.cut.toFixed(3)}, iterations ${sm.model.fit.iterations}`,
);
let fs!: ReturnType<typeof factionStrength>;
console.log(
  `factionStrength uncached: ${ms(() => (fs = factionStrength(snapshot, filter))).toFixed(0)} ms, cached: ${ms(() => factionStrength(snapshot, filter)).toFixed(1)} ms`,
);
console.log('faction | games | win rate | strength [low, high] | pilot rating | top player share');
for (const row of fs.data.factions) {
  console.log(
    `${row.faction.name} | ${row.games} | ${row.winRate!.toFixed(3)} | ${row.strength!.value.toFixed(3)} [${row.strength!.low.toFixed(3)}, ${row.strength!.high.toFixed(3)}] | ${row.pilotRating!.toFixed(0)} | ${row.topPlayerShare!.toFixed(2)}`,
  );
}
console.log(
  `field rating ${fs.data.factions[0]?.fieldRating?.toFixed(0)}; warnings: ${fs.warnings.length}`,
);
const g0 = games.game[games.count - 1];
const request = {
  system,
  player1: snapshot.players[snapshot.player[2 * g0]],
  faction1: snapshot.factions[snapshot.faction[2 * g0]].id,
  player2: snapshot.players[snapshot.player[2 * g0 + 1]],
  faction2: snapshot.factions[snapshot.faction[2 * g0 + 1]].id,
};
let fc!: ReturnType<typeof forecast>;
const times = Array.from({ length: 50 }, () => ms(() => (fc = forecast(snapshot, request)))).sort(
  (a, b) => a - b,
);
console.log(`forecast median ${times[25].toFixed(2)} ms: ${JSON.stringify(fc.data)}`);
console.log(`models: ${FORECAST_MODELS.join(', ')}`);
