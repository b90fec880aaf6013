/**
 * Cancellation reaches every long loop (docs/operations.md#limits): wherever a computation is
 * when nobody waits for it any more, it stops within 100 ms: the forecast backtest, its CSV,
 * Glicko-2 with extreme parameters, a player's page, Elo, best-N points and the joint model's
 * fit, on 100,000 generated games.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generate } from '../../bench/bench-data.ts';
import { TaskCancelled, withCancellation } from '../../src/engine/cancellation.ts';
import { normaliseCommonFilter } from '../../src/engine/filter.ts';
import type { CommonFilter } from '../../src/engine/filter.ts';
import { leaderboard } from '../../src/engine/ratings/leaderboard.ts';
import { factionStrength } from '../../src/engine/strength/faction-strength.ts';
import { forecastAccuracy } from '../../src/engine/strength/forecast-accuracy.ts';
import { forecastAccuracyCsv } from '../../src/engine/strength/forecast-accuracy-csv.ts';
import { warmEngine } from '../../src/engine/warm-engine.ts';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.ts';
import type { Snapshot } from '../../src/snapshot/snapshot.ts';
import { openStore } from '../../src/store/store.ts';
import { TEST_BACKEND } from '../support/test-store.ts';

// It reads a SQLite file of its own whatever the backend under test: once, in the SQLite pass.
const SKIP = TEST_BACKEND === 'sqlite' ? false : 'runs in the SQLite pass (its own SQLite file)';
const BOUND_MS = 100;
/** When, after a run starts, its probe starts saying "cancelled". */
const CANCEL_AFTER_MS = [5, 40, 150];

/** This thread's CPU time so far, in milliseconds. */
function threadCpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

/**
 * The most CPU time `run` spent after its probe began to say "cancelled", over CANCEL_AFTER_MS
 * (0 when it ended before). CPU time, not wall time: on a loaded machine the thread also waits
 * for a core, and that waiting is not work the loop failed to stop. Counted from the last check
 * before the deadline, so the figure bounds the true one from above.
 */
function cancellationDelay(run: () => unknown): number {
  let longest = 0;
  for (const after of CANCEL_AFTER_MS) {
    const at = performance.now() + after;
    let seen = threadCpuMs();
    const cancelled = () => {
      if (performance.now() >= at) return true;
      seen = threadCpuMs();
      return false;
    };
    try {
      withCancellation(cancelled, run);
    } catch (error) {
      if (!(error instanceof TaskCancelled)) throw error;
    }
    // A run that finished without noticing counts as well, up to its end.
    if (performance.now() >= at) longest = Math.max(longest, threadCpuMs() - seen);
  }
  return longest;
}

describe('cancellation of long engine work on 100,000 games', { skip: SKIP }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-cancellation-'));
  let snapshot: Snapshot;
  let common: CommonFilter;
  let closeStore = async () => undefined as unknown;
  before(async () => {
    if (SKIP !== false) return;
    const file = join(dir, 'games.db');
    await generate(file, 100_000);
    const store = await openStore(`sqlite:${file}`);
    closeStore = () => store.close();
    snapshot = await loadSnapshot(store);
    warmEngine(snapshot);
    common = normaliseCommonFilter(snapshot, {});
  });
  after(async () => {
    await closeStore();
    rmSync(dir, { recursive: true, force: true });
  });

  const extreme = { period: 'week', tau: 4.9, initialRd: 999, initialVolatility: 0.99 } as const;
  const cases: [string, () => unknown][] = [
    // First: a backtest is kept once it has run to the end, and then costs nothing to cancel.
    ['the forecast backtest', () => forecastAccuracy(snapshot, common)],
    [
      'a CSV page of 50,000 games',
      () => forecastAccuracyCsv(snapshot, common, { offset: 0, limit: 50_000 }),
    ],
    [
      'Glicko-2 by week',
      () => leaderboard(snapshot, common, { glicko2: { period: 'week', tau: 0.5 } }),
    ],
    [
      'Glicko-2, extreme parameters',
      () => leaderboard(snapshot, common, { glicko2: { ...extreme, tau: 1.2 } }),
    ],
    ['Elo', () => leaderboard(snapshot, common, { method: 'elo', elo: { k: 33 } })],
    [
      'best-N points',
      () => leaderboard(snapshot, common, { method: 'points', points: { bestN: 3 } }),
    ],
    ['the joint model', () => factionStrength(snapshot, common)],
  ];
  for (const [name, run] of cases) {
    it(`stops ${name} within ${BOUND_MS} ms of being cancelled`, () => {
      // The CSV's own loop, not its backtest's: the backtest has run to the end and is kept.
      if (name.includes('CSV')) forecastAccuracy(snapshot, common);
      const delay = cancellationDelay(run);
      assert.ok(
        delay < BOUND_MS,
        `${name} ran on for ${delay.toFixed(1)} ms of CPU after it was cancelled`,
      );
    });
  }

  it('stops a player page within the bound too', () => {
    const top = leaderboard(snapshot, common, { includeProvisional: true }).data.players[0];
    const delay = cancellationDelay(() =>
      leaderboard(snapshot, common, { player: top.player.id, glicko2: { tau: 0.55 } }),
    );
    assert.ok(delay < BOUND_MS, `the player page ran on for ${delay.toFixed(1)} ms of CPU`);
  });
});
