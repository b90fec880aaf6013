/**
 * The projection's Brier scores on held-out T9A events (docs/event-projection.md#how-well-it-forecasts):
 * rounds derived from the game ids (projection-brier.ts), then, for the singles events from a
 * cut-off day on, the summed Brier scores of the projection, an even split among the players
 * on the most wins, and a coin-flip simulation. Prints a Markdown report.
 * Usage, after `muster import --format t9a`:
 *   MUSTER_DATABASE_URL=sqlite:/tmp/t9a.db node bench/projection-brier-t9a.ts [from-day] [simulations]
 */
import { dayString } from '../src/domain/calendar-day.ts';
import { loadSnapshot } from '../src/snapshot/load-snapshot.ts';
import { openStore } from '../src/store/store.ts';
import { deriveRounds, HELD_OUT_FROM, projectionBrier } from './projection-brier.ts';

const url = process.env.MUSTER_DATABASE_URL;
if (url === undefined) throw new Error('set MUSTER_DATABASE_URL to a store holding real data');
const from = process.argv[2] ?? HELD_OUT_FROM;
const simulations = Number(process.argv[3] ?? 10_000);
const store = await openStore(url);
const snapshot = await loadSnapshot(store);
const derived = deriveRounds(snapshot);
const events = derived.clean.filter((e) => dayString(snapshot.events.startDay[e]) >= from);
const cpu = process.cpuUsage();
const sums = projectionBrier(derived.snapshot, events, simulations);
const used = process.cpuUsage(cpu);
const pct = (x: number) => `${(100 * (1 - x / sums.evenSplit)).toFixed(1)} %`;
console.log(`Singles events with a clean derivation: ${derived.clean.length}; dropped:`);
for (const [why, n] of Object.entries(derived.dropped)) console.log(`- ${why}: ${n}`);
console.log(
  `\nHeld out: the ${sums.events} clean events from ${from} on (${sums.players} players), after each one's second-to-last round, ${simulations} simulations:\n`,
);
console.log('| forecast of first | Brier summed over events | below the even split |');
console.log('|---|---:|---:|');
console.log(
  `| projection (joint model as of the event's first day) | ${sums.model.toFixed(2)} | ${pct(sums.model)} |`,
);
console.log(
  `| coin-flip simulation of the last round | ${sums.coinFlip.toFixed(2)} | ${pct(sums.coinFlip)} |`,
);
console.log(`| even split among the most wins | ${sums.evenSplit.toFixed(2)} | 0 % |`);
console.log(
  `\nCPU ${((used.user + used.system) / 1e6).toFixed(1)} s for the three forecasts of every event.`,
);
await store.close();
