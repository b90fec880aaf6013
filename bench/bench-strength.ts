/**
 * The joint model's section of `npm run bench` (docs/ratings.md#the-joint-model): the engine
 * calls of faction-strength and forecast (first call, which fits the model, and the median
 * after, with the fit cached per snapshot) and forecast-accuracy over the last year of games
 * (uncached: the system's rolling backtest; cached: a second call), beside faction-stats on the
 * same snapshot as the baseline of the run. CPU time of this thread, as the engine runs on one.
 */
import { engineDerivation } from '../src/engine/engine-derivation.ts';
import { factionStats } from '../src/engine/faction-stats.ts';
import { normaliseCommonFilter } from '../src/engine/filter.ts';
import { factionStrength } from '../src/engine/strength/faction-strength.ts';
import { forecast } from '../src/engine/strength/forecast.ts';
import { forecastAccuracy } from '../src/engine/strength/forecast-accuracy.ts';
import { warmEngine } from '../src/engine/warm-engine.ts';
import { dayString } from '../src/domain/calendar-day.ts';
import { loadersEnded, loadSnapshotInWorker } from '../src/threads/load-snapshot-host.ts';
import type { Snapshot } from '../src/snapshot/snapshot.ts';
import { percentile } from './bench-queries.ts';

export interface StrengthRow {
  call: string;
  /** The first call on the snapshot, its fit included, milliseconds of CPU. */
  firstMs: number;
  /** Median of the calls after it. */
  medianMs: number;
  runs: number;
}

export interface StrengthResult {
  /** The system measured: the data set's first. */
  system: string;
  rows: StrengthRow[];
}

/** CPU milliseconds of this thread's process for one call (the engine is single-threaded). */
function cpuMs(f: () => unknown): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function measure(call: string, f: () => unknown, runs: number): StrengthRow {
  const firstMs = cpuMs(f);
  const times = Array.from({ length: runs }, () => cpuMs(f)).sort((a, b) => a - b);
  return { call, firstMs, medianMs: percentile(times, 50), runs };
}

/** Two players of the snapshot's last game and their factions: a forecast anyone could ask. */
function lastPairing(snapshot: Snapshot) {
  const row = snapshot.sides - 2;
  const side = (r: number) => ({
    player: snapshot.players[snapshot.player[r]],
    faction: snapshot.factions[snapshot.faction[r]].id,
  });
  const [a, b] = [side(row), side(row + 1)];
  return { player1: a.player, faction1: a.faction, player2: b.player, faction2: b.faction };
}

/** The section: `runs` calls of each after the first. */
export async function strengthSection(
  file: string,
  runs: number,
  log: (text: string) => void,
): Promise<StrengthResult> {
  const snapshot = await loadSnapshotInWorker(`sqlite:${file}`, { derivation: engineDerivation });
  await loadersEnded();
  warmEngine(snapshot);
  const system = snapshot.systems[0].id;
  const all = normaliseCommonFilter(snapshot, { system });
  const lastDay = Math.max(...Array.from(snapshot.events.startDay));
  const lastYear = normaliseCommonFilter(snapshot, {
    system,
    from: dayString(lastDay - 365),
    to: dayString(lastDay),
  });
  const pairing = { system, ...lastPairing(snapshot) };
  const rows = [
    measure(
      'faction-stats (baseline)',
      () =>
        factionStats(snapshot, {
          ...all,
          factions: [],
          excludeMirrors: true,
          minGames: 0,
          groupBy: 'none',
        }),
      runs,
    ),
    measure('faction-strength, all time', () => factionStrength(snapshot, all), runs),
    measure('faction-strength, last year', () => factionStrength(snapshot, lastYear), runs),
    measure('forecast', () => forecast(snapshot, pairing), runs),
    measure('forecast-accuracy, last year', () => forecastAccuracy(snapshot, lastYear), 3),
  ];
  for (const r of rows) {
    log(`strength ${r.call}: first ${r.firstMs.toFixed(1)} ms, median ${r.medianMs.toFixed(2)} ms`);
  }
  return { system, rows };
}
