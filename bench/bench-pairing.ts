/**
 * The team-pairing section of `npm run bench` (docs/team-pairing.md#speed): the
 * defender-attacker draft solved from nothing for teams of 8 (the target: under 1 s on one
 * core) and one step from a history (the first step played: what a captain's next request
 * costs), beside the 6-player draft from nothing as this run's baseline; and the event
 * projection's simulation (bench-projection.ts; the target: under 300 ms on one core). Random 0-20 matrices,
 * the same ones every run; CPU time of this one thread and wall time, both in milliseconds.
 */
import { analyseDraft } from '../src/engine/team-pairing/draft-position.ts';
import { projectOnce } from './bench-projection.ts';
import { percentile } from './bench-queries.ts';

export interface PairingRow {
  call: string;
  /** Median CPU milliseconds of this thread over the runs. */
  cpuMedianMs: number;
  cpuMaxMs: number;
  wallMedianMs: number;
  runs: number;
}

export interface PairingResult {
  rows: PairingRow[];
}

function matrices(n: number, count: number): number[][][] {
  let seed = 20261128 + n;
  // Park-Miller: deterministic, so every run solves the same drafts.
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: count }, () =>
    Array.from({ length: n }, () => Array.from({ length: n }, () => Math.round(random() * 20))),
  );
}

function measure<T>(call: string, inputs: T[], solve: (m: T) => unknown): PairingRow {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const m of inputs) {
    const start = process.cpuUsage();
    const t = performance.now();
    solve(m);
    wall.push(performance.now() - t);
    const used = process.cpuUsage(start);
    cpu.push((used.user + used.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  return {
    call,
    cpuMedianMs: percentile(cpu, 50),
    cpuMaxMs: cpu[cpu.length - 1],
    wallMedianMs: percentile(wall, 50),
    runs: inputs.length,
  };
}

/** Solves the drafts; `runs` matrices per row. */
export async function pairingSection(
  runs: number,
  log: (line: string) => void,
): Promise<PairingResult> {
  const firstStep = {
    defenderA: 0,
    defenderB: 0,
    attackersA: [1, 2] as [number, number],
    attackersB: [1, 2] as [number, number],
    keptByA: 1,
    keptByB: 1,
  };
  // One warm-up draft so the first measured one is not also the compiler's.
  analyseDraft(matrices(8, 1)[0], 20, []);
  const rows = [
    measure('6-player draft from nothing (baseline)', matrices(6, runs), (m) =>
      analyseDraft(m, 20, []),
    ),
    measure('8-player draft from nothing', matrices(8, runs), (m) => analyseDraft(m, 20, [])),
    measure('8-player draft, one step from a history', matrices(8, runs), (m) =>
      analyseDraft(m, 20, [firstStep]),
    ),
    measure(
      'event projection: 10,000 simulations, 100 players, 5 rounds',
      Array.from({ length: runs }, (_, i) => i + 1),
      projectOnce,
    ),
  ];
  for (const r of rows) log(`${r.call}: ${r.cpuMedianMs.toFixed(1)} ms CPU median`);
  return { rows };
}
