/**
 * The pairing matrix's cells checked on real team events (docs/team-pairing.md#accuracy): the
 * games played at a system's team events, each forecast by the rolling-origin backtest (fitted
 * to earlier days only, so held out) of the four models, beside the same for singles events.
 * A cell of the matrix is such a forecast for a pairing; the played pairings are these games.
 * Usage, after `muster import --format t9a`:
 *   MUSTER_DATABASE_URL=sqlite:/tmp/t9a.db node bench/team-events-t9a.ts [system]
 */
import { normaliseCommonFilter } from '../src/engine/filter.ts';
import { forecastAccuracy } from '../src/engine/strength/forecast-accuracy.ts';
import { loadSnapshot } from '../src/snapshot/load-snapshot.ts';
import { openStore } from '../src/store/store.ts';

const url = process.env.MUSTER_DATABASE_URL;
if (url === undefined) throw new Error('set MUSTER_DATABASE_URL to a store holding real data');
const system = process.argv[2] ?? 't9a';
const store = await openStore(url);
const snapshot = await loadSnapshot(store);
console.log('| events | scored games | model | Brier | log loss | accuracy |');
console.log('|---|---:|---|---:|---:|---:|');
for (const format of ['teams', 'singles'] as const) {
  const filter = normaliseCommonFilter(snapshot, { system, format });
  const { data, sample } = forecastAccuracy(snapshot, filter);
  for (const m of data.models) {
    const cells = [m.brier, m.logLoss, m.accuracy].map((x) => (x === null ? '–' : x.toFixed(4)));
    console.log(
      `| ${format} (${sample.events}) | ${m.games} | ${m.model} | ${cells.join(' | ')} |`,
    );
  }
}
await store.close();
